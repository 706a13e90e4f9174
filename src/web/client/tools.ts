/**
 * The tester's tools over the file: download it, make a permalink of the whole test, compare
 * it with the live file. And the other way: fill the fields from a permalink.
 */
import type { DialectChoice } from "../../protocol/robots/index.js";
import { byId } from "./dom.js";
import { downloadText } from "./download.js";
import { compareWithLive } from "./live-compare.js";
import {
  decodeState,
  encodeState,
  PERMALINK_FIELDS,
  PermalinkError,
  stateInHash,
  type TestState,
} from "./permalink.js";
import { MAX_URLS, type Tester } from "./tester.js";

export function wireTools(tester: Tester): void {
  const status = byId("tools-status");
  byId("download").addEventListener("click", () => {
    downloadText("robots.txt", tester.text);
    status.textContent = "robots.txt downloaded, as edited.";
  });
  byId("permalink-make").addEventListener("click", () => {
    void (async () => {
      const link = `${location.origin}${location.pathname}#tester&${await encodeState(collectState())}`;
      history.replaceState(null, "", link);
      byId("permalink-box").hidden = false;
      const field = byId<HTMLInputElement>("permalink");
      field.value = link;
      field.focus();
      field.select();
      status.textContent = `Permalink made (${link.length} characters): copy it from the field. Opening it fills the tester again.`;
    })();
  });
  byId("diff-live").addEventListener("click", () => {
    void compareWithLive({
      site: byId<HTMLInputElement>("site").value.trim(),
      editedText: tester.text,
      dialect: byId<HTMLSelectElement>("dialect").value as DialectChoice,
      robots: tester.robots(),
      urls: tester.urls().slice(0, MAX_URLS),
      answers: tester.answers,
    });
  });
}

function collectState(): TestState {
  const fields: Partial<Record<(typeof PERMALINK_FIELDS)[number], string>> = {};
  for (const id of PERMALINK_FIELDS) fields[id] = byId<HTMLInputElement>(id).value;
  const compared = [
    ...byId("crawlers").querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked"),
  ].map((box) => box.value);
  return { fields, compared };
}

/**
 * Fills the fields from the address's permalink, when it has one. True when it did; a link
 * that cannot be read is said in the tools' status line, and the fields are left alone.
 */
export async function restoreFromHash(): Promise<boolean> {
  const text = stateInHash(location.hash);
  if (text === null) return false;
  let state: TestState;
  try {
    state = await decodeState(text);
  } catch (error) {
    if (!(error instanceof PermalinkError)) throw error;
    byId("tools-status").textContent = `This permalink cannot be read: ${error.message}.`;
    return false;
  }
  for (const [id, value] of Object.entries(state.fields)) byId<HTMLInputElement>(id).value = value;
  const compared = new Set(state.compared);
  for (const box of byId("crawlers").querySelectorAll<HTMLInputElement>("input[type=checkbox]"))
    box.checked = compared.has(box.value);
  byId("tools-status").textContent = "The test was filled in from the permalink.";
  return true;
}
