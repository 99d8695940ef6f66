// RFC 6570 URI templates, all four levels (every operator, prefixes, explode): expanding a template with values, and
// matching a URI back to the values of a resource template's variables.

/** A variable's value: a string (or number), a list, or an associative array; undefined, null and empty ones vanish. */
export type UriTemplateValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined | null;
/** What a match gives: each variable's decoded value; an exploded variable (`{/path*}`) gives the list of its parts. */
export type UriTemplateParams = Record<string, string | string[]>;

export interface UriTemplate {
  template: string;
  /** Every variable name, in the order written. */
  variables: string[];
  match(uri: string): UriTemplateParams | undefined;
}

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  /** What a named variable with an empty value expands to after its name. */
  ifemp: string;
  /** Reserved characters pass unencoded (`{+var}`, `{#var}`). */
  reserved: boolean;
  /** What a match of the whole expression may contain (the value's characters, its separators and names). */
  chars: string;
}

// biome-ignore lint/complexity/useMaxParams: one row of the table below, its columns in the RFC's order
const op = (first: string, sep: string, named: boolean, ifemp: string, reserved: boolean, chars: string): Operator => ({
  first,
  sep,
  named,
  ifemp,
  reserved,
  chars,
});
// RFC 6570 section 3.2.1's table, by operator; `chars` is a regex class for matching.
const OPERATORS = new Map<string, Operator>([
  ['', op('', ',', false, '', false, '[^/?#]')],
  ['+', op('', ',', false, '', true, '.')],
  ['#', op('#', ',', false, '', true, '.')],
  ['.', op('.', '.', false, '', false, '[^/?#]')],
  ['/', op('/', '/', false, '', false, '[^?#]')],
  [';', op(';', ';', true, '', false, '[^/?#]')],
  ['?', op('?', '&', true, '=', false, '[^#]')],
  ['&', op('&', '&', true, '=', false, '[^#]')],
]);

interface VarSpec {
  name: string;
  explode: boolean;
  prefix?: number;
}
interface Expression {
  op: Operator;
  vars: VarSpec[];
}

const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*)(?::([1-9][0-9]{0,3})|(\*))?$/;

function parseExpression(body: string, template: string): Expression {
  const operator = OPERATORS.has(body[0]!) && body[0] !== '' ? body[0]! : '';
  if (/^[=,!@|]/.test(body)) throw new Error(`Resource template "${template}": the operator "${body[0]}" is reserved by RFC 6570`);
  const vars = body
    .slice(operator.length)
    .split(',')
    .map((spec) => {
      const m = VARSPEC.exec(spec);
      if (!m)
        throw new Error(
          `Resource template "${template}" has a malformed variable "{${body}}": write {name}, {+name}, {name:3}, {name*} (RFC 6570)`,
        );
      return { name: m[1]!, explode: m[3] === '*', ...(m[2] ? { prefix: Number(m[2]) } : {}) };
    });
  return { op: OPERATORS.get(operator)!, vars };
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Percent-encodes what the operator does not allow as it is (UTF-8, as RFC 6570 has it). */
function encode(value: string, reserved: boolean): string {
  let out = '';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (UNRESERVED.test(c) || (reserved && RESERVED.test(c))) out += c;
    else if (reserved && c === '%' && /^[0-9A-Fa-f]{2}$/.test(`${chars[i + 1]}${chars[i + 2]}`)) out += c;
    else out += encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

function expandExpression({ op, vars }: Expression, values: Record<string, UriTemplateValue>): string {
  const parts: string[] = [];
  for (const v of vars) {
    const value = Object.hasOwn(values, v.name) ? values[v.name] : undefined;
    if (value === undefined || value === null) continue;
    const enc = (s: string) => encode(s, op.reserved);
    const named = (name: string, s: string) => (op.named ? `${name}${s === '' ? op.ifemp : `=${s}`}` : s);
    if (typeof value !== 'object') {
      const text = String(value);
      parts.push(named(v.name, enc(v.prefix ? [...text].slice(0, v.prefix).join('') : text)));
      continue;
    }
    const pairs: [string, string][] = Array.isArray(value) ? value.map((item) => ['', item]) : Object.entries(value);
    if (pairs.length === 0) continue; // an empty list or associative array is undefined
    const list = Array.isArray(value);
    if (!v.explode) parts.push(named(v.name, pairs.map(([k, item]) => (list ? enc(item) : `${enc(k)},${enc(item)}`)).join(',')));
    else
      parts.push(
        pairs
          .map(([k, item]) => (list ? named(v.name, enc(item)) : op.named ? named(enc(k), enc(item)) : `${enc(k)}=${enc(item)}`))
          .join(op.sep),
      );
  }
  return parts.length ? op.first + parts.join(op.sep) : '';
}

const decode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // a malformed percent-escape matches nothing
  }
};

/** The values one expression's text holds, or undefined when it cannot be this expression's expansion. */
function matchExpression({ op, vars }: Expression, text: string): UriTemplateParams | undefined {
  const values: UriTemplateParams = {};
  if (text === '') return values; // every variable undefined
  if (!text.startsWith(op.first)) return undefined;
  const body = text.slice(op.first.length);
  const fits = (v: VarSpec, value: string) => v.prefix === undefined || [...value].length <= v.prefix;
  // One variable, not exploded: the whole text is its value (a list's commas stay in it).
  if (vars.length === 1 && !vars[0]!.explode && !op.named) {
    const value = decode(body);
    return value !== undefined && fits(vars[0]!, value) ? { [vars[0]!.name]: value } : undefined;
  }
  const items = body.split(op.sep);
  if (!op.named) {
    for (const [i, v] of vars.entries()) {
      if (i >= items.length) break;
      // The last variable takes what is left: an exploded one as a list, another as its text.
      const rest = i === vars.length - 1 ? items.slice(i) : [items[i]!];
      const decoded = rest.map(decode);
      if (decoded.some((d) => d === undefined)) return undefined;
      if (v.explode) values[v.name] = decoded as string[];
      else {
        const value = (decoded as string[]).join(op.sep);
        if (!fits(v, value)) return undefined;
        values[v.name] = value;
      }
    }
    return values;
  }
  const exploded = vars.find((v) => v.explode);
  for (const item of items) {
    const at = item.indexOf('=');
    const name = decode(at === -1 ? item : item.slice(0, at));
    const value = decode(at === -1 ? '' : item.slice(at + 1));
    if (name === undefined || value === undefined) return undefined;
    const v = vars.find((x) => x.name === name);
    if (v?.explode) ((values[v.name] ??= []) as string[]).push(value);
    else if (v) {
      if (Object.hasOwn(values, v.name) || !fits(v, value)) return undefined;
      values[v.name] = value;
    }
    // An associative array's pairs, exploded, are named by their keys.
    else if (exploded) ((values[exploded.name] ??= []) as string[]).push(`${name}=${value}`);
    else return undefined;
  }
  return values;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template's literal text and expressions, in order. */
function partsOf(template: string): (string | Expression)[] {
  return template
    .split(/(\{[^{}]*\})/)
    .filter((piece) => piece !== '')
    .map((piece) => {
      if (piece.startsWith('{') && piece.endsWith('}')) return parseExpression(piece.slice(1, -1), template);
      if (/[{}]/.test(piece))
        throw new Error(`Resource template "${template}" has an unmatched brace: write variables as {name} (RFC 6570)`);
      return piece;
    });
}

export function parseUriTemplate(template: string): UriTemplate {
  const parts = partsOf(template);
  // A simple or reserved expression needs a value to match (as a plain {name} always has); the others may vanish.
  const pattern = parts
    .map((p) =>
      typeof p === 'string' ? escapeRegex(p) : p.op.first === '' ? `(${p.op.chars}+?)` : `((?:${escapeRegex(p.op.first)}${p.op.chars}*?)?)`,
    )
    .join('');
  const regexp = new RegExp(`^${pattern}$`, 's');
  const expressions = parts.filter((p): p is Expression => typeof p !== 'string');
  const variables = [...new Set(expressions.flatMap((e) => e.vars.map((v) => v.name)))];
  return {
    template,
    variables,
    match(uri) {
      const m = regexp.exec(uri);
      if (!m) return undefined;
      const values: UriTemplateParams = {};
      for (const [i, expression] of expressions.entries()) {
        const found = matchExpression(expression, m[i + 1]!);
        if (!found) return undefined;
        for (const [name, value] of Object.entries(found)) {
          // A variable written twice must have one value (or, where one is a prefix `{var:3}`, a value that starts so).
          const seen = Object.hasOwn(values, name) ? values[name] : undefined;
          if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(value)) {
            const [short, long] = [String(seen), String(value)].sort((a, b) => a.length - b.length);
            if (typeof seen !== 'string' || typeof value !== 'string' || !long!.startsWith(short!)) return undefined;
            values[name] = long!;
          } else values[name] = value;
        }
      }
      return values;
    },
  };
}

/**
 * A URI from an RFC 6570 template and values, e.g. for a tool that links to a resource of a template.
 * @example expandUriTemplate('users://{id}{?fields*}', { id: 'u 1', fields: ['name', 'email'] }) // 'users://u%201?fields=name&fields=email'
 */
export const expandUriTemplate = (template: string, values: Record<string, UriTemplateValue>): string =>
  partsOf(template)
    .map((p) => (typeof p === 'string' ? p : expandExpression(p, values)))
    .join('');
