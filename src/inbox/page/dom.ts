// The inbox page's DOM helper: elements built from properties and text only, never from HTML the server sent.

/** What an element's props may hold: `text` (its text), `on<event>` (a listener), a property it has, else an attribute. */
type Props = Record<string, unknown>;
type Child = Node | string | null | undefined;

/** One element: a prop left undefined, null or false is not set; a child left null is skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = String(v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v as EventListener);
    // `list` is read-only on an input (the id of a datalist): set as an attribute.
    else if (k in node && k !== 'list') (node as unknown as Props)[k] = v;
    else node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** An element of the page's HTML (inbox.html), by its id. */
export const byId = (id: string): HTMLElement => document.getElementById(id)!;
