/** Small DOM helpers for the page: look-ups that fail loudly, and element building without HTML strings. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

type Child = Node | string | null | undefined | false;

/** `h("td", { class: "x" }, "text", child)`: an element with attributes and children; text is never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | number | boolean | null | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Replaces an element's children. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren(
    ...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false),
  );
}

/** `2026-11-24 10:00:00 UTC` */
export function moment(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** Calls `fn` once input has been quiet for `ms`. */
export function debounce(fn: () => void, ms: number): () => void {
  let timer: number | undefined;
  return () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = window.setTimeout(fn, ms);
  };
}

/** GET a JSON endpoint of the server, with the header the server asks of requests that fetch. */
export async function getJson<T>(path: string, params: Record<string, string>): Promise<T> {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`${path}?${query}`, { headers: { "x-heed-ui": "1" } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `the server answered ${response.status}`);
  return body;
}

/**
 * Writes an element's text only when it changes: writing the same text again still replaces
 * the text node, which costs a layout and a paint.
 */
export function setText(element: Element | undefined, text: string): void {
  if (element !== undefined && element.textContent !== text) element.textContent = text;
}
