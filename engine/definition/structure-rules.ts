// The structure vocabulary of the definitions, as the definitions see it (the write path applies it:
// engine/rules/, engine/sql/aggregate.ts): `append` on a sort field, `aggregate` on a read-only
// field, `tree` at the top level. Their normal form, their boot
// checks (each problem names the file and line) and their words in the API references.
import type { ScopeValue } from './format.ts';
import { scopeTest } from './scope.ts';
import type { TreeFormat } from './tree-format.ts';
import type { FieldDef, ResourceDef, TreeDef } from './types.ts';

export function normalizeTree(format: TreeFormat): TreeDef {
  const path = typeof format.path === 'string' ? { field: format.path, self: false } : { field: format.path.field, self: format.path.self ?? false };
  const fullName = format.fullName && { ...format.fullName, nameOnlyWhere: format.fullName.nameOnlyWhere ?? {} };
  return { parent: format.parent, path, ...(fullName && { fullName }), ...(format.cycleMessage && { cycleMessage: format.cycleMessage }) };
}

/** The 422 of a record moved under itself or one of its descendants. */
export function cycleMessage(def: ResourceDef, tree: TreeDef): string {
  const label = def.fields.get(tree.parent)?.label ?? tree.parent;
  return tree.cycleMessage ?? `The ${label} cannot be the ${def.label.toLowerCase()} itself or one of its descendants.`;
}

/** The field an `append` counts within (`per`), if not the whole table. */
export function appendPer(field: FieldDef): string | undefined {
  return typeof field.append === 'object' ? field.append.per : undefined;
}

/** Boot check of `append`. */
function appendProblem(def: ResourceDef, field: FieldDef): string | undefined {
  if (!field.append) return undefined;
  if (field.type !== 'integer' || !field.stored) return 'append applies to a stored integer field';
  if (field.required) return 'a field the engine fills when left out cannot be required';
  const per = appendPer(field);
  if (per !== undefined && !def.fields.get(per)?.stored) return `per: "${per}" is not a stored field of this resource`;
  return undefined;
}

/** For the API references. */
function describeAppend(field: FieldDef): string[] {
  if (!field.append) return [];
  const per = appendPer(field);
  const last = per ? `last among the records with the same \`${per}\` (their highest + 1)` : 'last (the highest in its table + 1)';
  return [field.writable ? `${last[0]!.toUpperCase()}${last.slice(1)} when not sent.` : `Set on create: ${last}.`];
}

/** Boot checks: the fields a tree names exist and are the engine's to write. */
function treeProblems(def: ResourceDef, problem: (at: string, message: string) => void): void {
  const tree = def.tree;
  if (!tree) return;
  const field = (at: string, name: string): FieldDef | undefined => {
    const found = def.fields.get(name);
    if (!found?.stored) problem(at, `"${name}" is not a stored field of this resource`);
    return found?.stored ? found : undefined;
  };
  if (field('tree.parent', tree.parent)?.type === 'string') problem('tree.parent', 'the parent is an integer field');
  const readOnly = (at: string, name: string) => {
    const found = field(at, name);
    if (found?.writable) problem(at, `"${name}" is written by the engine: mark it readOnly: true`);
    if (found && found.type !== 'string' && found.type !== 'text') problem(at, `"${name}" is not a string field`);
  };
  readOnly('tree.path', tree.path.field);
  if (tree.fullName) {
    readOnly('tree.fullName.field', tree.fullName.field);
    field('tree.fullName.from', tree.fullName.from);
    for (const key of Object.keys(tree.fullName.nameOnlyWhere)) field(`tree.fullName.nameOnlyWhere.${key}`, key);
  }
}

/** For the API references: what a tree's fields hold. */
function describeTree(def: ResourceDef, field: FieldDef): string[] {
  const tree = def.tree;
  if (!tree) return [];
  const words: string[] = [];
  if (field.name === tree.path.field) {
    words.push(
      tree.path.self
        ? `The ids from the root down to this record, each followed by "/"; kept when \`${tree.parent}\` changes.`
        : `The ids of the ancestors from the root, between "/" ("/" for a root); kept when \`${tree.parent}\` changes.`,
    );
  }
  if (field.name === tree.fullName?.field) {
    const only = Object.entries(tree.fullName.nameOnlyWhere).map(([key, value]) => `\`${key}\` is ${JSON.stringify(value)}`);
    words.push(
      `The parent's ${field.label} and \`${tree.fullName.from}\`, joined with ${JSON.stringify(tree.fullName.separator)} (a root${only.length > 0 ? `, or a record whose ${only.join(' and ')},` : ''} shows its \`${tree.fullName.from}\` only); kept when an ancestor is renamed or moved.`,
    );
  }
  if (field.name === tree.parent) words.push(`Not the record itself or one of its descendants: ${cycleMessage(def, tree)}`);
  return words;
}

/** Boot checks of the structure vocabulary (called by link.ts). */
export function checkStructureRules(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: (at: string, message: string) => void): void {
  for (const field of def.fields.values()) {
    const appending = appendProblem(def, field);
    if (appending) problem(`fields.${field.name}.append`, appending);
    if (field.aggregate) aggregateProblems(def, field, resources, (at, message) => problem(`fields.${field.name}.aggregate${at}`, message));
  }
  treeProblems(def, problem);
}

/** What the structure vocabulary says of a field, for the OpenAPI and Markdown references. */
export function describeStructureRules(def: ResourceDef, field: FieldDef): string[] {
  return [...describeAppend(field), ...describeAggregate(def, field), ...describeTree(def, field)];
}

/** Constants an aggregate puts in its SQL: plain words and numbers. */
const PLAIN = /^[A-Za-z0-9_ .:/-]*$/;
const plainValue = (value: ScopeValue | readonly string[]) =>
  (Array.isArray(value) ? value : [scopeTest(value as ScopeValue).operand]).every((operand) => typeof operand !== 'string' || PLAIN.test(operand));

/** Boot checks of an `aggregate`: a read-only field over a hasMany relation's stored columns. */
function aggregateProblems(def: ResourceDef, field: FieldDef, resources: ReadonlyMap<string, ResourceDef>, problem: (at: string, message: string) => void): void {
  const { count, sum, where } = field.aggregate!;
  if ((count === undefined) === (sum === undefined)) {
    problem('', 'an aggregate is a count or a sum: give one of them');
    return;
  }
  if (!field.readOnly) problem('', 'an aggregate field is read-only: add readOnly: true');
  const [relationName, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  const at = count !== undefined ? '.count' : '.sum';
  const relation = def.relations.get(relationName);
  if (relation?.kind !== 'hasMany') {
    problem(at, `"${relationName}" is not a hasMany relation of this resource`);
    return;
  }
  const child = resources.get(relation.resource);
  if (!child) return;
  const numeric = ['integer', 'number', 'decimal'];
  if (column !== undefined) {
    const target = child.fields.get(column);
    if (!target?.stored) problem(at, `"${column}" is not a field of ${child.name}`);
    else if (sum !== undefined && !numeric.includes(target.type)) problem(at, `"${column}" is not a number: it cannot be summed`);
  }
  if (count !== undefined && field.type !== 'integer') problem('', 'a count is an integer field');
  if (sum !== undefined && !numeric.includes(field.type)) problem('', 'a sum is a number field');
  for (const [name, value] of Object.entries(relation.where ?? {}))
    if (!plainValue(value)) problem(at, `relations.${relationName}.where.${name}: only plain words and numbers can be aggregated over`);
  for (const [key, value] of Object.entries(where ?? {})) {
    const [first, second] = key.split('.') as [string, string | undefined];
    let owner: ResourceDef | undefined = child;
    let name = first;
    if (second !== undefined) {
      const through = child.relations.get(first);
      owner = through?.kind === 'belongsTo' ? resources.get(through.resource) : undefined;
      name = second;
      if (!owner) {
        problem(`.where.${key}`, `"${first}" is not a belongsTo relation of ${child.name}`);
        continue;
      }
    }
    if (!owner.fields.get(name)?.stored) problem(`.where.${key}`, `"${name}" is not a field of ${owner.name}`);
    if (!plainValue(value)) problem(`.where.${key}`, 'only plain words and numbers: letters, digits, spaces and _ . : / -');
  }
}

/** For the API references. */
function describeAggregate(def: ResourceDef, field: FieldDef): string[] {
  if (!field.aggregate) return [];
  const { count, sum, where } = field.aggregate;
  const [relation, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  const what = sum !== undefined ? `The total \`${column}\` of` : column ? `How many different \`${column}\` among` : 'How many';
  const conditions = Object.entries(where ?? {}).map(([key, value]) => {
    const { operator, operand } = scopeTest(value);
    return `\`${key}\` ${operator === '=' ? 'is' : operator} ${JSON.stringify(operand)}`;
  });
  const target = def.relations.get(relation)?.resource ?? relation;
  return [`${what} the live \`${relation}\` (${target})${conditions.length > 0 ? ` with ${conditions.join(' and ')}` : ''}; worked out when read.`];
}
