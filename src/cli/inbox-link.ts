// The inbox link the CLI is given: where it points, its one-time code, and whether that address may be used.
export interface InboxLink {
  origin: string;
  code: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Reads `<origin>/_frontmcp/inbox#code=…` (or `?code=…`); with `--url`, the link must be for that server. */
export function parseInboxLink(link: string, serverUrl?: string): InboxLink {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw new Error('That is not a link: paste the whole inbox link the server printed');
  }
  const code = new URLSearchParams(url.hash.slice(1)).get('code') ?? url.searchParams.get('code');
  if (!code || !/^[A-Za-z0-9_-]{16,256}$/.test(code))
    throw new Error('The link has no sign-in code: paste the whole inbox link the server printed');
  checkAddress(url);
  if (serverUrl !== undefined) {
    const server = new URL(serverUrl);
    checkAddress(server);
    if (server.origin !== url.origin) throw new Error(`The link is for ${url.origin}, not for --url ${server.origin}`);
  }
  return { origin: url.origin, code };
}

/** https anywhere; plain http only for this machine, where nobody on the network can read the code or the answers. */
export function checkAddress(url: URL): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return;
  throw new Error(`Refusing ${url.origin}: use https, or plain http only for a loopback server (127.0.0.1, localhost, [::1])`);
}

// Escape sequences whole (CSI, OSC and other ESC-introduced ones), so none of their text is left behind either.
const SEQUENCES =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls (but newline and tab), DEL, and the bidi overrides that reorder what a terminal shows.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What the server sent, safe to print: no escape sequences, no bidi tricks; `oneLine` also folds newlines. */
export function clean(value: unknown, oneLine = false, max = 2000): string {
  let text = String(value ?? '')
    .replace(SEQUENCES, '')
    .replace(CONTROLS, '');
  if (oneLine) text = text.replace(/[\n\t]+/g, ' ');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
