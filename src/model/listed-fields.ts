// The fields a tool, prompt or resource is listed with as its author wrote them (icons, _meta, execution): checked once,
// at startup, so a list never carries what a client would refuse.
import type { Icon } from './tool-types';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const TASK_SUPPORT = new Set(['forbidden', 'optional', 'required']);

// The schemes clients fetch icons from (the spec has clients refuse any other).
const ICON_SCHEMES = new Set(['https:', 'http:', 'data:']);

/** Whether an icon is one a client can show: `src` an https, http or data: URI, and the optional fields as the spec has them. */
const isIcon = (icon: unknown): boolean =>
  isObject(icon) &&
  typeof icon.src === 'string' &&
  URL.canParse(icon.src) &&
  ICON_SCHEMES.has(new URL(icon.src).protocol) &&
  (icon.mimeType === undefined || typeof icon.mimeType === 'string') &&
  (icon.sizes === undefined || (Array.isArray(icon.sizes) && icon.sizes.every((s) => typeof s === 'string'))) &&
  (icon.theme === undefined || icon.theme === 'light' || icon.theme === 'dark');

/** `icons`, `_meta` and (tools only) `execution`, as the list shows them; throws naming the field that is wrong. */
export function listedFields(options: { icons?: Icon[]; _meta?: Record<string, unknown>; execution?: unknown }): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (options.icons !== undefined) {
    const wrong = Array.isArray(options.icons) ? options.icons.findIndex((icon) => !isIcon(icon)) : -1;
    if (!Array.isArray(options.icons) || wrong !== -1)
      throw new Error(
        `${wrong === -1 ? 'icons' : `icons[${wrong}]`}: an icon is { src, mimeType?, sizes?: ['48x48'], theme?: 'light' | 'dark' }, its src an https URL or a data: URI`,
      );
    fields.icons = options.icons;
  }
  if (options.execution !== undefined) {
    const support = isObject(options.execution) ? options.execution.taskSupport : undefined;
    if (!isObject(options.execution) || (support !== undefined && !TASK_SUPPORT.has(support as string)))
      throw new Error("execution.taskSupport must be 'forbidden', 'optional' or 'required'");
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
