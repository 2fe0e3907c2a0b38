// The structure vocabulary of the definitions, as the definitions see it (the write path applies it:
// engine/rules/): `append` on a sort field, `tree` at the top level. Their normal form, their boot
// checks (each problem names the file and line) and their words in the API references.
import type { TreeFormat } from './tree-format.ts';
import type { FieldDef, ResourceDef } from './types.ts';

export interface TreeDef {
  parent: string;
  path: { field: string; self: boolean };
  fullName?: { field: string; from: string; separator: string; nameOnlyWhere: Record<string, string | number | boolean> };
  cycleMessage?: string;
}

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

/** Boot check of `append`. */
function appendProblem(field: FieldDef): string | undefined {
  if (!field.append) return undefined;
  if (field.type !== 'integer' || !field.stored) return 'append applies to a stored integer field';
  if (field.required) return 'a field the engine fills when left out cannot be required';
  return undefined;
}

/** For the API references. */
function describeAppend(field: FieldDef): string[] {
  if (!field.append) return [];
  return [field.writable ? 'Last (the highest in its table + 1) when not sent.' : 'Set on create: last (the highest in its table + 1).'];
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
export function checkStructureRules(def: ResourceDef, _resources: ReadonlyMap<string, ResourceDef>, problem: (at: string, message: string) => void): void {
  for (const field of def.fields.values()) {
    const appending = appendProblem(field);
    if (appending) problem(`fields.${field.name}.append`, appending);
  }
  treeProblems(def, problem);
}

/** What the structure vocabulary says of a field, for the OpenAPI and Markdown references. */
export function describeStructureRules(def: ResourceDef, field: FieldDef): string[] {
  return [...describeAppend(field), ...describeTree(def, field)];
}
