/** The known crawlers as checkboxes: each checked one is a robot compared in the answers. */
import { KIND_TEXT, KNOWN_CRAWLERS } from "./crawlers.js";
import { fill, h } from "./dom.js";

export function drawCrawlerPicker(list: HTMLElement): void {
  fill(
    list,
    ...KNOWN_CRAWLERS.map((crawler) => {
      const id = `crawler-${crawler.token}`;
      return h(
        "li",
        { class: `crawler ${crawler.kind}` },
        h("input", {
          type: "checkbox",
          id,
          value: crawler.token,
          "aria-describedby": `${id}-about`,
        }),
        h("label", { for: id }, crawler.token),
        " ",
        h(
          "span",
          { id: `${id}-about`, class: "about" },
          h("span", { class: `kind ${crawler.kind}` }, KIND_TEXT[crawler.kind]),
          ` ${crawler.operator}: ${crawler.note}`,
        ),
      );
    }),
  );
}
