// Whether a response holds nothing its serializer schema would drop. When it does not, the
// response can be written by JSON.stringify: fast-json-stringify would write the same JSON (it
// writes a scalar with JSON.stringify too, engine/serialize/route-serializers.ts), but it builds the
// text from many small strings. Those stay alive in the young generation while requests wait for
// the database, and get promoted: written by fast-json-stringify, a UOM list on MariaDB allocated
// 133 KB and promoted 3.5-3.8 MB in 4 s of load; by JSON.stringify, 107 KB and 1.0 MB. The check
// itself allocates nothing.
//
// It reads the serializer schema's own forms: `$ref` to a shared schema (`Name#`), `type`,
// `properties`, `items`, `additionalProperties: true | false`, `nullable`, and a scalar `const`
// (fast-json-stringify writes the constant whatever the value: only the constant fits). A schema
// with anything else (anyOf, a schema for additional properties, ...) has no check: it always goes
// through fast-json-stringify. A check that fails, or meets a value of another kind than its
// schema, says no: the response then goes through fast-json-stringify, as before, which drops
// what the document does not declare.
import type { JsonSchema } from './response-schemas.ts';

export type FitsSchema = (value: unknown) => boolean;

const READ = new Set(['$id', '$ref', 'type', 'properties', 'items', 'additionalProperties', 'nullable', 'const']);
/** Validation keywords fast-json-stringify does not look at when it writes. */
const IGNORED = new Set(['minLength', 'maxLength', 'maxItems']);
const anything: FitsSchema = () => true;

class Unsupported extends Error {}

/** Only a plain object is written key by key by both: a Date or a class instance is not (toJSON, inherited keys). */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The finished checks of shared schemas, per set of them: the route schemas are envelopes over
 * one graph of records, so each record's check is built once, by the first route that needs it
 * (all 152 distinct route schemas of the registry: 2.45 MB of heap with a set each).
 */
const finishedChecks = new WeakMap<Record<string, JsonSchema>, Map<string, FitsSchema>>();

/** The check of `schema` (with `shared`, the schemas its `$ref`s name); undefined when it uses a form this check does not read. */
export function fitsSchema(schema: JsonSchema, shared: Record<string, JsonSchema>): FitsSchema | undefined {
  let finished = finishedChecks.get(shared);
  if (!finished) finishedChecks.set(shared, (finished = new Map()));
  // This call's own, kept only once the whole schema is built: a shared schema that cannot be
  // checked fails every check that reaches it, including one finished earlier in this call that
  // reaches it through a cycle.
  const byRef = new Map<string, FitsSchema>();

  const ref = (target: string): FitsSchema => {
    const name = target.endsWith('#') ? target.slice(0, -1) : target;
    const known = finished.get(name) ?? byRef.get(name);
    if (known) return known;
    const component = shared[name];
    if (!component) throw new Unsupported();
    // Records refer to each other (a relation's record, its relations): the check is set before
    // it is built, so that a cycle finds it.
    let built: FitsSchema | undefined;
    const check: FitsSchema = (value) => built!(value);
    byRef.set(name, check);
    built = build(component);
    return check;
  };

  const build = (node: JsonSchema): FitsSchema => {
    for (const keyword of Object.keys(node)) if (!READ.has(keyword) && !IGNORED.has(keyword)) throw new Unsupported();
    if (node.$ref !== undefined) {
      if (Object.keys(node).some((keyword) => keyword !== '$ref')) throw new Unsupported();
      return ref(String(node.$ref));
    }
    if (node.const !== undefined) {
      // fast-json-stringify writes the constant whatever the value is: only the constant itself fits.
      const constant = node.const;
      if (constant !== null && typeof constant === 'object') throw new Unsupported();
      return (value) => value === constant;
    }
    const types = node.type === undefined ? [] : ([node.type].flat() as string[]);
    const nullable = node.nullable === true || types.includes('null');
    if (types.includes('array') || node.items !== undefined) {
      if (node.properties !== undefined || types.includes('object')) throw new Unsupported();
      const item = node.items === undefined ? anything : build(node.items as JsonSchema);
      return (value) => {
        if (value === null) return nullable;
        if (!Array.isArray(value)) return false;
        for (const entry of value) if (!item(entry)) return false;
        return true;
      };
    }
    if (types.includes('object') || node.properties !== undefined) {
      const extra = node.additionalProperties;
      if (extra !== undefined && typeof extra !== 'boolean') throw new Unsupported();
      const properties = new Map<string, FitsSchema>();
      for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) properties.set(name, build(property));
      return (value) => {
        if (value === null) return nullable;
        if (typeof value !== 'object' || !isPlainObject(value)) return false;
        for (const key in value) {
          const property = properties.get(key);
          if (property === undefined) {
            if (extra !== true) return false;
            continue;
          }
          const entry = (value as Record<string, unknown>)[key];
          if (entry !== undefined && !property(entry)) return false;
        }
        return true;
      };
    }
    // A scalar: written as the engine produced it, whatever it is.
    return anything;
  };

  try {
    const check = build(schema);
    for (const [name, built] of byRef) finished.set(name, built);
    return check;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
