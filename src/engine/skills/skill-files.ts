// One skill file as served: its path checked (it becomes a skill:// URI as written), its MIME type, text or bytes.

/** Folders and a file name of URI-safe characters joined by '/': the path is the URI with no encoding to disagree on. */
const PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

const MIME = new Map(
  Object.entries({
    md: 'text/markdown',
    markdown: 'text/markdown',
    txt: 'text/plain',
    py: 'text/x-python',
    js: 'text/javascript',
    mjs: 'text/javascript',
    ts: 'text/x-typescript',
    sh: 'text/x-shellscript',
    html: 'text/html',
    css: 'text/css',
    csv: 'text/csv',
    json: 'application/json',
    yaml: 'application/yaml',
    yml: 'application/yaml',
    xml: 'application/xml',
    svg: 'image/svg+xml',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    pdf: 'application/pdf',
    zip: 'application/zip',
  }),
);

const TEXTUAL = /^text\/|^application\/(json|yaml|xml)$|^image\/svg\+xml$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What resources/read returns for the file: text when it is UTF-8 of a text type (its digest covers those bytes). */
export interface ServedFile {
  path: string;
  bytes: Uint8Array<ArrayBuffer>;
  mimeType: string;
  text?: string;
}

/** Why a path cannot be a skill file, or undefined when it can. */
export function pathProblem(path: string): string | undefined {
  if (PATH.test(path) && !path.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return "write a relative path of folders and a file name, each of letters, digits, '.', '_', '~' and '-' (no '.' or '..' folder), joined by '/'";
}

export function servedFile(path: string, content: string | Uint8Array): ServedFile {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
  const dot = path.lastIndexOf('.');
  const known = dot > path.lastIndexOf('/') ? MIME.get(path.slice(dot + 1).toLowerCase()) : undefined;
  let text: string | undefined;
  if (known === undefined || TEXTUAL.test(known)) {
    try {
      text = utf8.decode(bytes);
    } catch {
      // Not UTF-8: served as a blob.
    }
  }
  return {
    path,
    bytes,
    mimeType: known ?? (text === undefined ? 'application/octet-stream' : 'text/plain'),
    ...(text === undefined ? {} : { text }),
  };
}

/** `sha256:` and the lowercase hex of the bytes' SHA-256, as the extension writes a digest. */
export async function digestOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
