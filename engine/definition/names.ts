// Names the documentation gives to resources: component schema names, tags, operation ids.
// All derived from the registry, so a new definition is named without code.
import type { Operation } from './format.ts';
import type { Registry } from './registry.ts';
import type { ResourceDef } from './types.ts';

/** Modules in the order the original installation's reference lists them; others follow alphabetically. */
const MODULE_ORDER = ['support', 'partners', 'products', 'inventories', 'purchases', 'sales', 'accounts', 'projects'];

export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}

export function titleCase(text: string): string {
  const words = text.split(/[-_\s]+/).filter(Boolean);
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ');
}

/** Naive English plural of a label: "UOM category" → "UOM categories", "Address" → "Addresses". */
export function plural(label: string): string {
  if (/[^aeiou]y$/i.test(label)) return `${label.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(label)) return `${label}es`;
  return `${label}s`;
}

/** Lower-case the first letter unless the first word is an acronym ("UOM category" stays). */
export function lowerLabel(label: string): string {
  const first = label.split(' ')[0]!;
  return first.length > 1 && first === first.toUpperCase() ? label : label[0]!.toLowerCase() + label.slice(1);
}

/** "a bank", "an address", "a UOM category", "an SMS". */
export function withArticle(label: string): string {
  const first = label.split(' ')[0]!;
  const acronym = first.length > 1 && first === first.toUpperCase();
  const an = acronym ? /^[AEFHILMNORSX]/.test(first) : /^[aeio]/i.test(first) || /^u(?!s|ni|ti|r)/i.test(first);
  return `${an ? 'an' : 'a'} ${lowerLabel(label)}`;
}

export interface ResourceNames {
  /** Component schema base name: `SupportBank`. */
  schema: string;
  /** Tag (group in the interactive reference): `Support / Banks`. */
  tag: string;
  /** Module title: `Support`. */
  module: string;
  /** Plural label: `Banks`. */
  plural: string;
}

export type NameTable = ReadonlyMap<string, ResourceNames>;

/** Resources in documentation order: by module (known order first), then by path. */
export function orderedResources(registry: Registry): ResourceDef[] {
  const rank = (module: string) => {
    const index = MODULE_ORDER.indexOf(module);
    return index < 0 ? MODULE_ORDER.length : index;
  };
  return registry
    .all()
    .slice()
    .sort((a, b) => rank(a.module) - rank(b.module) || byCodePoint(a.module, b.module) || byCodePoint(a.path, b.path) || byCodePoint(a.name, b.name));
}

/**
 * Plain code-point order, not localeCompare: the reference comes out the same whatever the
 * machine's locale, and the process never loads ICU's collation data (~2 MB resident) for it.
 */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Names for every resource. The schema name comes from the module and the label; two resources
 * of one module with the same label fall back to the module and the file name.
 */
export function resourceNames(registry: Registry): NameTable {
  const byLabel = new Map<string, number>();
  for (const def of registry.all()) {
    const key = `${def.module}/${pascalCase(def.label)}`;
    byLabel.set(key, (byLabel.get(key) ?? 0) + 1);
  }
  const names = new Map<string, ResourceNames>();
  const tags = new Set<string>();
  for (const def of orderedResources(registry)) {
    const module = titleCase(def.module);
    const unique = byLabel.get(`${def.module}/${pascalCase(def.label)}`) === 1;
    const schema = pascalCase(def.module) + (unique ? pascalCase(def.label) : pascalCase(def.name.split('/')[1]!));
    let tag = `${module} / ${plural(def.label)}`;
    if (tags.has(tag)) tag = `${module} / ${titleCase(def.name.split('/')[1]!)}`;
    tags.add(tag);
    names.set(def.name, { schema, tag, module, plural: plural(def.label) });
  }
  return names;
}

/** `supportBanksList`, `supportBanksPatch`: unique per route. */
export function operationId(def: ResourceDef, operation: Operation, method: string): string {
  const verb = operation === 'update' && method === 'PATCH' ? 'patch' : operation;
  const [module, name] = def.name.split('/') as [string, string];
  const base = module + pascalCase(name);
  return base[0]!.toLowerCase() + base.slice(1) + verb[0]!.toUpperCase() + verb.slice(1);
}
