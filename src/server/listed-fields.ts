// The fields a tool, prompt or resource is listed with as its author wrote them (icons, _meta, execution): checked once,
// at startup, so a list never carries what a client would refuse.
import type { Icon } from './tool-types';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// The schemes clients fetch icons from (the spec has clients refuse any other).
const ICON_SCHEMES = new Set(['https:', 'http:', 'data:']);

function checkIcon(icon: unknown, at: string): void {
  if (!isObject(icon) || typeof icon.src !== 'string') throw new Error(`${at} needs src, an https URL or a data: URI`);
  if (!URL.canParse(icon.src) || !ICON_SCHEMES.has(new URL(icon.src).protocol))
    throw new Error(`${at}.src "${icon.src.slice(0, 80)}" must be an https (or http) URL or a data: URI`);
  if (icon.mimeType !== undefined && typeof icon.mimeType !== 'string') throw new Error(`${at}.mimeType must be a string`);
  if (icon.sizes !== undefined && !(Array.isArray(icon.sizes) && icon.sizes.every((s) => typeof s === 'string')))
    throw new Error(`${at}.sizes must be a list of strings, e.g. ['48x48']`);
  if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark') throw new Error(`${at}.theme must be 'light' or 'dark'`);
}

/** `icons`, `_meta` and (tools only) `execution`, as the list shows them; throws naming the field that is wrong. */
export function listedFields(options: { icons?: Icon[]; _meta?: Record<string, unknown>; execution?: unknown }): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (options.icons !== undefined) {
    if (!Array.isArray(options.icons)) throw new Error('icons must be a list of { src, mimeType?, sizes?, theme? }');
    options.icons.forEach((icon, i) => checkIcon(icon, `icons[${i}]`));
    fields.icons = options.icons;
  }
  if (options.execution !== undefined) {
    const support = isObject(options.execution) ? options.execution.taskSupport : undefined;
    if (!isObject(options.execution) || (support !== undefined && support !== 'forbidden' && support !== 'optional'))
      throw new Error(
        `execution.taskSupport must be 'forbidden' or 'optional'${support === 'required' ? ': Parley does not run tasks yet, so a tool that requires one could never be called' : ''}`,
      );
    fields.execution = options.execution;
  }
  if (options._meta !== undefined) {
    if (!isObject(options._meta)) throw new Error('_meta must be an object');
    // Checked for JSON now, so the list cannot fail to serialize at a client's first tools/list.
    try {
      JSON.stringify(options._meta);
    } catch (error) {
      throw new Error(`_meta cannot be written as JSON: ${(error as Error).message}`);
    }
    fields._meta = options._meta;
  }
  return fields;
}
