// What the engine works out from a definition (a write plan, the fields with a formula, the
// grouped totals' offer) is worked out once per definition and kept beside it: definitions do
// not change after boot, and the request path only looks the result up.
import type { FieldDef, ResourceDef } from './types.ts';

/** `work`, done at the first call for each definition; later calls answer the same result. */
export function perDefinition<T, Rest extends unknown[]>(work: (def: ResourceDef, ...rest: Rest) => T): (def: ResourceDef, ...rest: Rest) => T {
  const done = new WeakMap<ResourceDef, T>();
  return (def, ...rest) => {
    if (done.has(def)) return done.get(def) as T;
    const result = work(def, ...rest);
    done.set(def, result);
    return result;
  };
}

/** A definition's fields for which `test` holds, in their order, found once per definition. */
export function fieldsWhere(test: (field: FieldDef) => unknown): (def: ResourceDef) => FieldDef[] {
  return perDefinition((def) => [...def.fields.values()].filter(test));
}
