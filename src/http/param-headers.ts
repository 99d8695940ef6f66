// Mcp-Param-* validation: each x-mcp-header value must be present, decodable and equal to the argument it mirrors.
import { headerMismatch, isObject, ownValue, decodeHeader } from '../protocol';
import type { HeaderParam } from '../model';

const valueAt = (args: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (isObject(node) ? ownValue(node, key) : undefined), args);

function matches(decoded: string, value: unknown, type: HeaderParam['type']): boolean {
  if (type === 'integer') return decoded.trim() !== '' && Number(decoded) === value; // integers compare numerically
  if (type === 'boolean') return decoded.toLowerCase() === String(value);
  return decoded === value;
}

export function checkParamHeaders(headers: Headers, params: HeaderParam[], args: unknown): void {
  for (const param of params) {
    const label = `Mcp-Param-${param.header}`;
    const raw = headers.get(label);
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) {
      if (raw !== null) throw headerMismatch(`Header mismatch: ${label} was sent but arguments.${param.path.join('.')} has no value`);
      continue;
    }
    if (raw === null)
      throw headerMismatch(`Header mismatch: the ${label} header is required when arguments.${param.path.join('.')} is set`);
    const decoded = decodeHeader(raw);
    if (decoded === undefined) throw headerMismatch(`Header mismatch: the ${label} header has invalid characters or invalid base64`);
    if (!matches(decoded, value, param.type))
      throw headerMismatch(`Header mismatch: ${label} header value '${decoded}' does not match body value '${String(value)}'`);
  }
}
