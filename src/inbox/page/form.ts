// The inbox page's form fields: one input per property of a question's schema (the flat subset elicitation allows).
import { h } from './dom';

/** A property of a question's `requestedSchema`, as far as the page reads it. The schema is the tool's: any part may be absent. */
export interface Property {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: unknown[];
  anyOf?: unknown[];
  items?: Property;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** A field's element, and what the person entered in it as the schema's type (undefined: left empty, so not sent). */
export interface Field {
  node: HTMLElement;
  read(): unknown;
}

interface Choice {
  value: unknown;
  title: string;
}

const isConst = (o: unknown): o is { const: unknown; title?: string } => typeof o === 'object' && o !== null && 'const' in o;

/** The values a property may take, from `enum` (titled by `enumNames`) or a `oneOf`/`anyOf` of consts; null for free input. */
function choicesOf(prop: Property): Choice[] | null {
  if (Array.isArray(prop.enum)) return prop.enum.map((value, i) => ({ value, title: prop.enumNames?.[i] || String(value) }));
  const list = prop.oneOf ?? prop.anyOf;
  if (Array.isArray(list) && list.every(isConst)) return list.map((o) => ({ value: o.const, title: o.title || String(o.const) }));
  return null;
}

// The string formats elicitation allows, as input types; any other string is text.
const INPUT_TYPES = new Map([
  ['email', 'email'],
  ['uri', 'url'],
  ['date', 'date'],
  ['date-time', 'datetime-local'],
]);

const labelOf = (name: string, prop: Property, required: boolean) => (prop.title || name) + (required ? ' *' : '');

/** The field for one property of question `qid`; read() turns what the person entered back into the schema's types. */
export function field(qid: string, name: string, prop: Property, required: boolean): Field {
  const id = `f-${qid}-${name}`;
  const hint = prop.description ? h('span', { className: 'hint', text: prop.description }) : null;
  const label = () => h('label', { htmlFor: id, text: labelOf(name, prop, required) });
  const items = prop.type === 'array' ? choicesOf(prop.items ?? {}) : null;
  if (items) {
    const boxes = items.map((c) => {
      const box = h('input', { type: 'checkbox', checked: Array.isArray(prop.default) && prop.default.includes(c.value) });
      return { box, value: c.value, label: h('label', {}, [box, ` ${c.title}`]) };
    });
    return {
      node: h('fieldset', { className: 'field' }, [
        h('legend', { text: labelOf(name, prop, required) }),
        hint,
        ...boxes.map((b) => b.label),
      ]),
      read: () => boxes.filter((b) => b.box.checked).map((b) => b.value),
    };
  }
  const choices = choicesOf(prop);
  if (choices) {
    const blank = required && prop.default === undefined ? [] : [h('option', { value: '', text: '—' })];
    const options = choices.map((c, i) => h('option', { value: String(i), text: c.title, selected: prop.default === c.value }));
    const select = h('select', { id, required }, [...blank, ...options]);
    return {
      node: h('div', { className: 'field' }, [label(), hint, select]),
      read: () => (select.value === '' ? undefined : choices[Number(select.value)]?.value),
    };
  }
  if (prop.type === 'boolean') {
    const check = h('input', { type: 'checkbox', id, checked: prop.default === true });
    return {
      node: h('div', { className: 'field' }, [h('label', { className: 'check', htmlFor: id }, [check, labelOf(name, prop, false)]), hint]),
      read: () => check.checked,
    };
  }
  if (prop.type === 'number' || prop.type === 'integer') {
    const step = prop.type === 'integer' ? '1' : 'any';
    const input = h('input', { type: 'number', id, step, min: prop.minimum, max: prop.maximum, required });
    if (typeof prop.default === 'number') input.value = String(prop.default);
    return {
      node: h('div', { className: 'field' }, [label(), hint, input]),
      read: () => (input.value === '' ? undefined : Number(input.value)),
    };
  }
  const type = INPUT_TYPES.get(prop.format ?? '') ?? 'text';
  const long = type === 'text' && (prop.maxLength === undefined || prop.maxLength > 200);
  const input = long ? h('textarea', { id, rows: 2 }) : h('input', { type, id });
  input.required = required;
  if (prop.minLength !== undefined) input.minLength = prop.minLength;
  if (prop.maxLength !== undefined) input.maxLength = prop.maxLength;
  if (typeof prop.default === 'string') input.value = type === 'datetime-local' ? prop.default.slice(0, 16) : prop.default;
  return {
    node: h('div', { className: 'field' }, [label(), hint, input]),
    read: () => {
      if (input.value === '') return required ? '' : undefined;
      return type === 'datetime-local' ? new Date(input.value).toISOString() : input.value;
    },
  };
}
