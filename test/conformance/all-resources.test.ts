// The definition-driven suite: for every resource in resources/ and every database target,
// run the capability checks its definition implies (operations, fields, filters, sorts,
// includes, soft delete, permissions, actions). A new YAML file is covered without writing a test.
import { suite } from 'uvu';
import { loadResources } from '../../src/app/build-app.ts';
import { databaseTargets } from '../helpers/targets.ts';
import { aggregateChecks, withheldTotals, withheldTotalsChecks } from './capabilities/aggregate.ts';
import { actionChecks, bodyChecks, collectionActionChecks, guardChecks } from './capabilities/actions.ts';
import { authenticationChecks } from './capabilities/authentication.ts';
import { boundChecks } from './capabilities/bounds.ts';
import { carriedChecks } from './capabilities/carried.ts';
import { createdWith, createdWithChecks } from './capabilities/created-with.ts';
import { conditionChecks, hasConditions } from './capabilities/conditions.ts';
import { atLengthChecks, atLengthField, createChecks } from './capabilities/create.ts';
import { exportChecks } from './capabilities/export.ts';
import { dateFilterChecks, filterChecks } from './capabilities/filters.ts';
import { formulaChecks, formulaFieldsOf } from './capabilities/formula.ts';
import { importChecks } from './capabilities/import.ts';
import { includeChecks } from './capabilities/includes.ts';
import { hasSortingIndexes, indexChecks, sortingIndexChecks } from './capabilities/indexes.ts';
import { invalidatesChecks } from './capabilities/invalidates.ts';
import { forceDeleteChecks, lifecycleChecks, restoreUniqueChecks } from './capabilities/lifecycle.ts';
import { listChecks } from './capabilities/list.ts';
import { permissionChecks } from './capabilities/permissions.ts';
import { ownScopeColumns, scopeChecks } from './capabilities/scope.ts';
import { roundTripChecks } from './capabilities/round-trip.ts';
import { noSearchChecks, renamableSearchField, searchChecks, searchUpdateChecks } from './capabilities/search.ts';
import { nestedChecks, showChecks, togetherChecks } from './capabilities/show.ts';
import { sortChecks } from './capabilities/sorts.ts';
import { updateChecks } from './capabilities/update.ts';
import { hasValueRules, valueChecks } from './capabilities/values.ts';
import { lockChecks, numberedOnCreate, sequenceChecks, setChecks, templateChecks } from './capabilities/rules.ts';
import { templateFields } from '../../engine/keys/template.ts';
import { hasStructureRules, structureChecks } from './capabilities/structure.ts';
import { prepareContext, type ResourceContext } from './context.ts';

const registry = loadResources();
// Resources that can create come first: the read-only ones (order lines, tax mappings, moves)
// then find the records the others wrote through their owners.
// TEST_RESOURCES=<regex> runs only the resources whose names match (while working on a few).
const only = process.env.TEST_RESOURCES ? new RegExp(process.env.TEST_RESOURCES) : undefined;
const definitions = [...registry.all()].filter((def) => !only || only.test(def.name)).sort((a, b) => Number(b.operations.has('create')) - Number(a.operations.has('create')));

for (const target of databaseTargets()) {
  for (const def of definitions) {
    const test = suite(`${def.name} [${target.name}]`);
    let context: ResourceContext;
    const current = () => context;
    test.before(async () => {
      context = await prepareContext(def, registry, target).catch((error) => {
        console.error(def.name, error);
        throw error;
      });
    });

    authenticationChecks(test, current);
    permissionChecks(test, current);
    // A check is registered only where it has something to check.
    if (def.operations.has('create')) {
      createChecks(test, current);
      importChecks(test, current);
      if (atLengthField(def)) atLengthChecks(test, current);
      if ([...def.fields.values()].some((f) => f.writable && ['strings', 'ids', 'records'].includes(f.type))) boundChecks(test, current);
    }
    if (def.operations.has('show')) showChecks(test, current);
    if (def.operations.has('show')) togetherChecks(test, current);
    if (def.operations.has('show') && def.parent) nestedChecks(test, current);
    if (def.operations.has('show') && ownScopeColumns(def).length > 0) scopeChecks(test, current);
    if (def.operations.has('update') && def.operations.has('create')) {
      updateChecks(test, current);
      if ([...def.fields.values()].some((f) => f.writable && (f.type === 'ids' || f.type === 'records'))) carriedChecks(test, current);
    }
    if (def.operations.has('list')) {
      listChecks(test, current);
      if ([...def.filters.values()].some((filter) => filter.kind !== 'trashed')) filterChecks(test, current);
      if ([...def.filters.values()].some((filter) => filter.kind === 'date')) dateFilterChecks(test, current);
      sortChecks(test, current);
      if (hasSortingIndexes(def)) sortingIndexChecks(test, current);
      if (def.includes.length > 0) includeChecks(test, current);
      exportChecks(test, current);
      aggregateChecks(test, current);
      if (withheldTotals(def).length > 0) withheldTotalsChecks(test, current);
      if (def.search.length > 0) searchChecks(test, current);
      else noSearchChecks(test, current);
      if (def.search.length > 0 && def.operations.has('update') && renamableSearchField(def)) searchUpdateChecks(test, current);
      if (def.operations.has('create')) roundTripChecks(test, current);
    }
    if (def.operations.has('create') && def.operations.has('update') && hasValueRules(def, registry)) valueChecks(test, current);
    if (def.operations.has('create') && numberedOnCreate(def).length > 0) sequenceChecks(test, current);
    if (def.operations.has('create') && def.operations.has('update') && templateFields(def).length > 0) templateChecks(test, current);
    if (def.operations.has('create') && def.operations.has('update') && formulaFieldsOf(def).length > 0) formulaChecks(test, current);
    if (def.indexes.length > 0) indexChecks(test, current);
    if (hasStructureRules(def)) structureChecks(test, current);
    if (def.operations.has('create') && def.locks.length > 0) lockChecks(test, current);
    if (def.operations.has('create') && createdWith(def).length > 0) createdWithChecks(test, current);
    if (def.operations.has('create') && def.operations.has('update') && hasConditions(def)) conditionChecks(test, current);
    if (def.operations.has('create') && [...def.actions.values()].some((action) => action.set)) setChecks(test, current);
    if (def.operations.has('delete') && def.operations.has('create')) lifecycleChecks(test, current);
    if (def.operations.has('forceDelete') && def.operations.has('create')) forceDeleteChecks(test, current);
    if (def.invalidates.length > 0 && def.operations.has('create')) invalidatesChecks(test, current);
    if (def.operations.has('restore') && def.operations.has('create') && [...def.fields.values()].some((f) => f.unique === 'live' && f.writable))
      restoreUniqueChecks(test, current);
    if ([...def.actions.values()].some((action) => action.on !== 'collection')) actionChecks(test, current);
    if ([...def.actions.values()].some((action) => action.on === 'collection')) collectionActionChecks(test, current);
    if ([...def.actions.values()].some((action) => action.when)) guardChecks(test, current);
    if ([...def.actions.values()].some((action) => action.body)) bodyChecks(test, current);
    test.run();
  }
}
