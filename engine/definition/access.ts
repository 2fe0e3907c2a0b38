// Who may do what, as a definition says it: the permissions each operation needs and the row
// scopes (company, owner) the app's policy applies. Resolved once the registry is linked, since
// a nested resource authorizes against its parent (a UOM against its category: view to read,
// update to write), as the original's policies do.
import { Abilities, type Ability, type Operation } from './format.ts';
import type { LoadedFile } from './load.ts';
import type { AccessDef, ResourceDef } from './types.ts';

export interface PermissionEntry {
  name: string;
  /** The resource it guards (module/name); none for app-wide permissions. */
  resource: string | null;
  ability: string;
}

const OWN_ABILITY: Record<Operation, Ability> = {
  list: 'view_any',
  show: 'view',
  create: 'create',
  update: 'update',
  delete: 'delete',
  restore: 'restore',
  forceDelete: 'force_delete',
};

/** A nested resource reads with its parent's `view` and writes with its parent's `update`. */
const PARENT_ABILITY: Record<Operation, Ability> = {
  list: 'view',
  show: 'view',
  create: 'update',
  update: 'update',
  delete: 'update',
  restore: 'update',
  forceDelete: 'update',
};

export function permissionName(ability: string, subject: string): string {
  return `${ability}_${subject}`;
}

/** The subject a definition gets when it names none: `inventories/operation-types` → `inventory_operation::type`. */
export function defaultSubject(module: string, name: string): string {
  const resource = name.split('/')[1]!;
  return `${singular(module)}_${resource.split('-').map(singular).join('::')}`;
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Fills `def.access` of every definition; a nested resource's parent is resolved first. */
export function resolveAccess(resources: Map<string, ResourceDef>, files: Map<string, LoadedFile>): void {
  const done = new Set<string>();
  const resolve = (def: ResourceDef): void => {
    if (done.has(def.name)) return;
    done.add(def.name);
    const raw = files.get(def.name)!.raw;
    const parent = def.parent && !raw.permission ? resources.get(def.parent.resource) : undefined;
    if (parent) resolve(parent);
    const subject = parent ? parent.access.subject : (raw.permission ?? defaultSubject(def.module, def.name));
    const defaults = parent ? PARENT_ABILITY : OWN_ABILITY;
    const permissions: Record<string, readonly string[]> = {};
    for (const operation of def.operations) {
      const abilities = raw.abilities?.[operation] ?? [defaults[operation]];
      permissions[operation] = abilities.map((ability) => permissionName(ability, subject));
    }
    // Actions change the record: the `update` ability unless they say otherwise (as the original).
    for (const action of def.actions.values()) permissions[action.name] = [permissionName(action.permission ?? 'update', subject)];
    const scope = raw.companyScope;
    (def as { access: AccessDef }).access = {
      subject,
      subjectResource: parent ? parent.access.subjectResource : def.name,
      permissions,
      companyScope: scope ? { column: 'company_id', assign: scope === true || scope.assign !== false } : undefined,
      owner: raw.owner,
      ownerThrough: raw.owner && !def.fields.get(raw.owner)?.stored ? def.relations.get(raw.owner)?.through : undefined,
      visibleTo: raw.visibleTo?.map((name: string) => (def.fields.get(name)?.stored ? { column: name } : { through: def.relations.get(name)!.through! })),
    };
  };
  for (const def of resources.values()) resolve(def);
}

/** Every permission the registry's operations need, resource by resource, each once. */
export function permissionCatalogue(definitions: readonly ResourceDef[]): PermissionEntry[] {
  const entries = new Map<string, PermissionEntry>();
  for (const def of definitions) {
    for (const names of Object.values(def.access.permissions)) {
      for (const name of names) {
        if (entries.has(name)) continue;
        const ability = name.slice(0, name.length - def.access.subject.length - 1);
        entries.set(name, { name, resource: def.access.subjectResource, ability });
      }
    }
  }
  // Grouped by resource (in registry order), then in the order of Abilities: view_any, view, create, ...
  const resources = [...new Set([...entries.values()].map((entry) => entry.resource))];
  const rank = (entry: PermissionEntry) => resources.indexOf(entry.resource) * Abilities.length + Abilities.indexOf(entry.ability as Ability);
  return [...entries.values()].sort((a, b) => rank(a) - rank(b));
}
