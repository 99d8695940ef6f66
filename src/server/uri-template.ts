// Matching URIs against RFC 6570 templates with simple `{name}` and reserved `{+name}` variables.
export interface UriTemplate {
  template: string;
  variables: string[];
  match(uri: string): Record<string, string> | undefined;
}

const VARIABLE = /\{(\+?)([A-Za-z0-9_]+)\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function parseUriTemplate(template: string): UriTemplate {
  if (/[{}]/.test(template.replace(VARIABLE, '')))
    throw new Error(`Resource template "${template}" has a malformed variable: use {name} or {+name}`);
  const variables: string[] = [];
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(VARIABLE)) {
    pattern += escape(template.slice(last, m.index));
    // A simple variable stops at a reserved character; a reserved one ({+name}) may span slashes.
    pattern += m[1] ? '(.+?)' : '([^/?#]+)';
    variables.push(m[2]!);
    last = m.index + m[0].length;
  }
  pattern += escape(template.slice(last));
  const regexp = new RegExp(`^${pattern}$`);
  return {
    template,
    variables,
    match(uri) {
      const m = regexp.exec(uri);
      if (!m) return undefined;
      const values: Record<string, string> = {};
      try {
        variables.forEach((name, i) => (values[name] = decodeURIComponent(m[i + 1]!)));
      } catch {
        return undefined; // a malformed percent-escape matches nothing
      }
      return values;
    },
  };
}
