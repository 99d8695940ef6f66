// x-mcp-header: tool input properties mirrored into Mcp-Param-* headers, found and checked once at build time.
import { isObject } from '../protocol';

export interface HeaderParam {
  /** The property path from the arguments' root, through `properties`. */
  path: string[];
  /** The header name's suffix: `Region` for `Mcp-Param-Region`. */
  header: string;
  type: 'string' | 'integer' | 'boolean';
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);

/** Every x-mcp-header in a tool's input schema; a malformed or duplicate one is a startup error. */
export function headerParamsOf(schema: Record<string, unknown>, tool: string): HeaderParam[] {
  const found: HeaderParam[] = [];
  const walk = (node: Record<string, unknown>, path: string[]) => {
    if (!isObject(node.properties)) return;
    for (const [name, property] of Object.entries(node.properties)) {
      if (!isObject(property)) continue;
      const header = property['x-mcp-header'];
      if (header !== undefined) {
        const where = `Tool "${tool}", property "${[...path, name].join('.')}"`;
        if (typeof header !== 'string' || !TOKEN.test(header))
          throw new Error(`${where}: x-mcp-header must be a non-empty HTTP token, e.g. "Region"`);
        if (typeof property.type !== 'string' || !TYPES.has(property.type))
          throw new Error(`${where}: x-mcp-header is allowed only on string, integer or boolean properties`);
        if (found.some((p) => p.header.toLowerCase() === header.toLowerCase()))
          throw new Error(`${where}: x-mcp-header "${header}" is used twice (names are case-insensitive)`);
        found.push({ path: [...path, name], header, type: property.type as HeaderParam['type'] });
      }
      walk(property, [...path, name]);
    }
  };
  walk(schema, []);
  return found;
}
