// Cross-file checks: every name a definition uses must point at something real.
import { underWalk } from './walkthroughs.ts';
import type { DefinitionProblem } from './definition-error.ts';
import type { LoadedFile } from './load.ts';
import { Operations, type ScopeValue } from './format.ts';
import { satisfiesScope, scopeTest } from './scope.ts';
import type { ResourceDef } from './types.ts';
import { didYouMean } from './suggest.ts';
import type { WalkthroughSource } from './walkthroughs.ts';
import type { DefinitionKey } from './rule-key.ts';

const STRING_TYPES = new Set(['string', 'text']);

export function link(
  resources: Map<string, ResourceDef>,
  files: Map<string, LoadedFile>,
  keys: readonly DefinitionKey[],
  behaviourNames: ReadonlySet<string>,
  problems: DefinitionProblem[],
  actionNames: ReadonlySet<string> = new Set(),
  walkthroughs: ReadonlyMap<string, WalkthroughSource> = new Map(),
  invalidatorNames: ReadonlySet<string> = new Set(),
): void {
  const routes = new Map<string, string>();

  for (const def of resources.values()) {
    const file = files.get(def.name)!;
    const problem = (at: string, message: string) => problems.push({ file: def.file, at, line: file.lineOf(at), message });
    const knownResource = (at: string, name: string) => {
      if (resources.has(name)) return true;
      problem(at, `unknown resource "${name}"${didYouMean(name, resources.keys())}`);
      return false;
    };
    const behaviour = (at: string, name: string) => {
      if (!behaviourNames.has(name)) problem(at, `unknown behaviour "${name}"${didYouMean(name, behaviourNames)}`);
    };

    for (const field of def.fields.values()) {
      const at = `fields.${field.name}`;
      const isString = STRING_TYPES.has(field.type);
      if (field.maxLength !== undefined && !isString) problem(`${at}.maxLength`, 'maxLength applies to string and text fields');
      if (field.format && !isString) problem(`${at}.format`, 'format applies to string fields');
      if (field.enum && !isString) problem(`${at}.enum`, 'enum applies to string fields');
      if (field.scale !== undefined && field.type !== 'decimal') problem(`${at}.scale`, 'scale applies to decimal fields');
      if (field.type === 'decimal' && field.scale === undefined) problem(at, 'a decimal field needs a scale');
      if (field.numericString && field.type !== 'integer') problem(`${at}.numericString`, 'numericString applies to integer fields');
      if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) problem(`${at}.minimum`, 'minimum is greater than maximum');
      // A reference its belongsTo relation implies is checked (and told) with the relation.
      const implied = [...def.relations.values()].some((relation) => relation.kind === 'belongsTo' && relation.foreignKey === field.name && relation.resource === field.references);
      if (field.references && !implied) knownResource(`${at}.references`, field.references);
      if (field.referencesWhere && !field.references && field.type !== 'ids') problem(`${at}.referencesWhere`, 'referencesWhere applies to fields with references (or ids)');
      for (const column of Object.keys(field.referencesWhere ?? {})) {
        const target = field.references ? resources.get(field.references) : undefined;
        if (target && !target.fields.get(column)?.stored) problem(`${at}.referencesWhere.${column}`, `"${column}" is not a field of ${target.name}`);
      }
      if (field.computed) behaviour(`${at}.computed`, field.computed);
      if (field.subquery) behaviour(`${at}.subquery`, field.subquery);
      if (field.subquery && !field.readOnly) problem(`${at}.subquery`, 'a subquery field is read-only: add readOnly: true');
      if (field.required && field.readOnly) problem(`${at}.required`, 'a read-only field cannot be required');
      const listType = field.type === 'ids' || field.type === 'records' || field.type === 'strings';
      if (field.minLength !== undefined && !isString) problem(`${at}.minLength`, 'minLength applies to string and text fields');
      if (field.by !== undefined && field.type !== 'ids') problem(`${at}.by`, 'by applies to ids fields');
      if (field.excludes !== undefined && !def.fields.get(field.excludes)?.writable) problem(`${at}.excludes`, `"${field.excludes}" is not a writable field of this resource`);
      if (file.raw.fields[field.name]?.maxItems !== undefined && !listType) problem(`${at}.maxItems`, 'maxItems applies to strings, ids and records fields');
      if (field.minItems !== undefined && !listType) problem(`${at}.minItems`, 'minItems applies to strings, ids and records fields');
      if (field.type === 'ids' || field.type === 'records') {
        const wanted = field.type === 'ids' ? 'manyToMany' : 'hasMany';
        const relation = field.relation ? def.relations.get(field.relation) : undefined;
        if (!relation || relation.kind !== wanted) problem(`${at}.relation`, `a ${field.type} field needs "relation" naming a ${wanted} relation of this resource`);
      } else if (field.relation) {
        problem(`${at}.relation`, 'relation applies to ids and records fields');
      }
    }

    for (const relation of def.relations.values()) {
      const at = `relations.${relation.name}`;
      if (!knownResource(`${at}.resource`, relation.resource)) continue;
      const target = resources.get(relation.resource)!;
      if (relation.kind === 'manyToMany') {
        if (!relation.through) problem(at, 'a manyToMany relation needs "through" (the pivot table and its two columns)');
        if (relation.foreignKey) problem(`${at}.foreignKey`, 'a manyToMany relation uses "through", not foreignKey');
      } else {
        if (relation.through) problem(`${at}.through`, 'through applies to manyToMany relations');
        const owner = relation.kind === 'belongsTo' ? def : target;
        if (!relation.foreignKey) problem(at, `a ${relation.kind} relation needs a foreignKey`);
        else if (!owner.fields.has(relation.foreignKey)) {
          problem(`${at}.foreignKey`, `"${relation.foreignKey}" is not a field of ${owner.name}${didYouMean(relation.foreignKey, owner.fields.keys())}`);
        }
      }
      for (const column of Object.keys(relation.where ?? {})) {
        if (!target.fields.get(column)?.stored) problem(`${at}.where.${column}`, `"${column}" is not a field of ${target.name}${didYouMean(column, target.fields.keys())}`);
      }
    }

    for (const key of keys) key.check?.(def, resources, problem);

    for (const filter of def.filters.values()) {
      const at = `filters.${filter.name}`;
      if (filter.kind === 'trashed') {
        if (!def.softDelete) problem(at, 'a trashed filter needs softDelete: true');
        continue;
      }
      const fieldName = filter.fieldName!;
      if (!filter.field?.stored) {
        problem(at, `filter on unknown field "${fieldName}"${didYouMean(fieldName, def.fields.keys())}`);
      } else if (filter.kind === 'boolean' && filter.field.type !== 'boolean') {
        problem(at, 'a boolean filter needs a boolean field');
      } else if (filter.kind === 'date' && !['date', 'datetime'].includes(filter.field.type)) {
        problem(at, 'a date filter needs a date or datetime field');
      } else if (filter.kind === 'range' && !['integer', 'number', 'decimal'].includes(filter.field.type)) {
        problem(at, 'a range filter needs an integer, number or decimal field (a date filter takes ranges of days)');
      }
    }

    def.sorts.forEach((sort, index) => {
      const field = def.fields.get(sort);
      if (!field?.stored) problem(`sorts.${index}`, `sort on unknown field "${sort}"${didYouMean(sort, def.fields.keys())}`);
    });
    for (const sort of def.defaultSort) {
      if (!def.fields.get(sort.name)?.stored) problem('defaultSort', `unknown field "${sort.name}"`);
    }

    const checkRelationPath = (at: string, include: string) => {
      let current: ResourceDef | undefined = def;
      for (const segment of include.split('.')) {
        const relation = current?.relations.get(segment);
        if (!relation) {
          problem(at, `"${include}" names no relation ("${segment}" is not a relation of ${current?.name})${didYouMean(segment, current?.relations.keys() ?? [])}`);
          break;
        }
        current = resources.get(relation.resource);
      }
    };
    for (const [index, include] of def.includes.entries()) checkRelationPath(`includes.${index}`, include);
    for (const [index, include] of def.embed.entries()) checkRelationPath(`embed.${index}`, include);
    for (const key of Object.keys(def.scope)) {
      const [relationName, column] = key.includes('.') ? key.split('.') : [undefined, key];
      const relation = relationName ? def.relations.get(relationName) : undefined;
      if (relationName && relation?.kind !== 'belongsTo') {
        problem(`scope.${key}`, `"${relationName}" is not a belongsTo relation of this resource`);
        continue;
      }
      const owner = relation ? resources.get(relation.resource) : def;
      if (owner && !owner.fields.get(column!)?.stored) problem(`scope.${key}`, `"${column}" is not a field of ${owner.name}${didYouMean(column!, owner.fields.keys())}`);
      else if (!relation) checkComparedColumn(def, key, def.scope[key]!, problem);
    }

    if (def.parent) {
      if (knownResource('parent.resource', def.parent.resource)) {
        if (!def.path.includes(`{${def.parent.param}}`)) problem('parent.param', `the path has no {${def.parent.param}} placeholder`);
      }
    } else if (def.path.includes('{')) {
      problem('path', 'a path with a placeholder needs a parent');
    }

    const raw = file.raw;
    for (const [index, column] of (raw.upsertOn ?? []).entries()) {
      if (!def.fields.get(column)?.stored) problem(`upsertOn.${index}`, `"${column}" is not a field of this resource`);
    }
    for (const operation of Object.keys(raw.abilities ?? {})) {
      if (!def.operations.has(operation as never)) problem(`abilities.${operation}`, `"${operation}" is not one of this resource's operations`);
    }
    if (raw.companyScope && !def.fields.get('company_id')?.stored) problem('companyScope', 'a company-scoped resource needs a company_id field');
    if (raw.owner && !def.fields.get(raw.owner)?.stored && def.relations.get(raw.owner)?.kind !== 'manyToMany') {
      problem('owner', `"${raw.owner}" is neither a field nor a manyToMany relation of this resource${didYouMean(raw.owner, [...def.fields.keys(), ...def.relations.keys()])}`);
    }
    for (const [index, name] of (raw.visibleTo ?? []).entries()) {
      if (!def.fields.get(name)?.stored && def.relations.get(name)?.kind !== 'manyToMany') {
        problem(
          `visibleTo.${index}`,
          `"${name}" is neither a field nor a manyToMany relation of this resource${didYouMean(name, [...def.fields.keys(), ...def.relations.keys()])}`,
        );
      }
    }
    for (const field of def.fields.values()) {
      const start = field.notBefore === undefined ? undefined : def.fields.get(field.notBefore);
      if (field.notBefore !== undefined && (!start?.writable || start.type !== field.type || (field.type !== 'date' && field.type !== 'datetime') || !field.writable))
        problem(
          `fields.${field.name}.notBefore`,
          `"${field.notBefore}" is not a writable ${field.type} field of this resource (a range's start and end are writable dates of one type)`,
        );
      if (field.until === undefined) continue;
      const end = def.fields.get(field.until);
      if (!end?.writable || end.type !== field.type || (field.type !== 'date' && field.type !== 'datetime'))
        problem(`fields.${field.name}.until`, `"${field.until}" is not a writable ${field.type} field of this resource (a range's start and end are dates of one type)`);
    }

    for (const action of def.actions.values()) {
      const at = `actions.${action.name}`;
      if ((Operations as readonly string[]).includes(action.name)) problem(at, `"${action.name}" is an operation's name`);
      if (action.behaviour !== undefined && !actionNames.has(action.behaviour))
        problem(`${at}.behaviour`, `unknown action behaviour "${action.behaviour}"${didYouMean(action.behaviour, actionNames)}`);
      if (action.result) knownResource(`${at}.result`, action.result);
      if (action.behaviour === undefined && action.set === undefined) problem(at, 'an action names a behaviour, or the values it sets (`set`), or both');
      for (const column of Object.keys(action.when ?? {})) {
        if (!def.fields.get(column)?.stored) problem(`${at}.when.${column}`, `"${column}" is not a field of this resource${didYouMean(column, def.fields.keys())}`);
      }
      if (action.when && !action.refused) problem(at, 'an action with "when" needs "refused" (the message of its 422)');
      if (action.on === 'collection') {
        if (action.behaviour === undefined) problem(`${at}.on`, 'a collection action runs a behaviour on the parent record');
        if (!def.parent) problem(`${at}.on`, 'a collection action needs a parent: it runs on the parent record');
        if (def.operations.has('create')) problem(`${at}.on`, 'a collection action takes the POST of the collection: the resource cannot also create');
        if ([...def.actions.values()].filter((other) => other.on === 'collection').length > 1) problem(`${at}.on`, 'a resource has one collection action at most');
        for (const key of ['when', 'to', 'result', 'creates', 'reveals'] as const) if (action[key] !== undefined) problem(`${at}.${key}`, `a collection action has no "${key}"`);
      }
      for (const [column, values] of Object.entries(action.to ?? {})) {
        const field = def.fields.get(column);
        if (!field?.stored) problem(`${at}.to.${column}`, `"${column}" is not a field of this resource${didYouMean(column, def.fields.keys())}`);
        for (const value of values) {
          if (field?.enum && !field.enum.includes(value)) problem(`${at}.to.${column}`, `"${value}" is not one of ${column}'s values (${field.enum.join(', ')})`);
        }
      }
    }

    // The walkthrough's problems are told in resources/walkthroughs.yaml, under the resource's name.
    const walkthrough = walkthroughs.get(def.name);
    const walkProblem = (at: string, message: string) => problems.push({ file: walkthrough?.file ?? def.file, at: `${def.name}.${at}`, line: walkthrough?.lineOf(at), message });
    for (const [index, name] of def.walkthrough.after.entries()) {
      if (!resources.has(name)) walkProblem(`after.${index}`, `unknown resource "${name}"${didYouMean(name, resources.keys())}`);
    }
    for (const action of def.walkthrough.deleting.actions) {
      if (!def.actions.has(action)) walkProblem('deleting.actions', `"${action}" is not an action of this resource${didYouMean(action, def.actions.keys())}`);
    }
    for (const name of Object.keys(def.walkthrough.deleting.values)) {
      if (!def.fields.get(name)?.writable) walkProblem(`deleting.values.${name}`, `"${name}" is not a writable field of this resource`);
    }
    if (def.walkthrough.under) {
      const parent = def.parent ? resources.get(def.parent.resource) : undefined;
      if (!parent) walkProblem('under', 'only a nested resource works under a record of its parent');
      const [walker] = underWalk(def.walkthrough.under, parent?.name ?? '');
      const owner = resources.get(walker);
      if (!parent) walkProblem('under', 'only a nested resource works under a record of its parent');
      else if (!owner) walkProblem('under', `unknown resource "${walker}"${didYouMean(walker, resources.keys())}`);
      else if (owner.table !== parent.table) walkProblem('under', `${walker} is not a view of the parent's table (${parent.table})`);
      else if (!owner.operations.has('create')) walkProblem('under', `${walker} cannot create the walk's record`);
    }
    for (const [index, record] of def.walkthrough.records.entries()) {
      const at = `records.${index}`;
      for (const action of record.actions) {
        if (!def.actions.has(action)) walkProblem(`${at}.actions`, `"${action}" is not an action of this resource${didYouMean(action, def.actions.keys())}`);
      }
      for (const [fieldName, resource] of Object.entries(record.with)) {
        if (def.fields.get(fieldName)?.references !== resource) walkProblem(`${at}.with.${fieldName}`, `"${fieldName}" is not a field referencing ${resource}`);
      }
    }

    for (const operation of ['restore', 'forceDelete'] as const) {
      if (def.operations.has(operation) && !def.softDelete) problem('operations', `${operation} needs softDelete: true`);
    }

    for (const [phase, names] of Object.entries(def.behaviours) as Array<[string, string[]]>) {
      for (const [index, name] of names.entries()) behaviour(`behaviours.${phase}.${index}`, name);
    }
    for (const [index, name] of def.invalidates.entries()) {
      if (!invalidatorNames.has(name)) problem(`invalidates.${index}`, `unknown invalidator "${name}"${didYouMean(name, invalidatorNames)}`);
    }

    const route = def.path.replace(/\{[^}]+\}/g, '{}');
    const other = routes.get(route);
    if (other) problem('path', `the same path as ${other}`);
    else routes.set(route, def.file);
  }
}

/**
 * A comparison on an own column (`customer_rank: {'>': 0}`) writes nothing on create: the field's
 * default does, and it must fall inside the comparison, or a record created here could not be
 * read back through this resource. Nor may a body change it (readOnly), for the same reason.
 */
function checkComparedColumn(def: ResourceDef, column: string, value: ScopeValue, problem: (at: string, message: string) => void): void {
  const { operator, operand } = scopeTest(value);
  if (operator === '=') return;
  const field = def.fields.get(column)!;
  if (field.writable)
    problem(`scope.${column}`, `"${column}" is compared (${operator} ${operand}): the field must be readOnly, or a body could move a record out of this resource`);
  if (def.operations.has('create') && !satisfiesScope(value, field.default)) {
    problem(`scope.${column}`, `a created record would fall outside the scope: give "${column}" a default that is ${operator} ${operand}`);
  }
}
