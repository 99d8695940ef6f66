// Light stand-ins for Fetch objects on Node: a class that answers the hot members itself and builds the real object for the rest.

/**
 * Makes `light` stand in for `fetchClass`: every member of the Fetch class that `light` does not define itself reads
 * (or calls) the real object its `real` getter builds, and `instanceof fetchClass` holds.
 */
export function standIn(light: abstract new (...args: never[]) => { readonly real: object }, fetchClass: { prototype: object }): void {
  const proto = light.prototype as object;
  for (const name of Object.getOwnPropertyNames(fetchClass.prototype)) {
    if (name === 'constructor' || Object.hasOwn(proto, name)) continue;
    const member = Object.getOwnPropertyDescriptor(fetchClass.prototype, name)!;
    const real = (self: { real: object }) => self.real as Record<string, unknown>;
    Object.defineProperty(
      proto,
      name,
      typeof member.value === 'function'
        ? {
            value(this: { real: object }, ...args: unknown[]) {
              return (real(this)[name] as (...a: unknown[]) => unknown)(...args);
            },
          }
        : {
            get(this: { real: object }) {
              return real(this)[name];
            },
          },
    );
  }
  const iterate = Object.getOwnPropertyDescriptor(fetchClass.prototype, Symbol.iterator);
  if (iterate && !Object.hasOwn(proto, Symbol.iterator))
    Object.defineProperty(proto, Symbol.iterator, {
      value(this: { real: object }) {
        return (this.real as Iterable<unknown>)[Symbol.iterator]();
      },
    });
  Object.setPrototypeOf(proto, fetchClass.prototype);
}
