// Importing a file's rows into a resource, each through the engine's write path: the create's
// validation (or the update's, for a row that names an `id` or matches the definition's
// `upsertOn`), the policy's value checks, then the write pipeline, in one unit of writing whose
// changes all go to the change feed. One transaction for the file: all or nothing by
// default; with `skip`, each row in a savepoint of its own, so a row that fails leaves the others;
// a dry run does all of it and rolls back. Database checks run once for the whole file.
import type { FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../errors/db-errors.ts';
import { HttpError, NotFoundError, ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { upsertTarget } from './handlers/create.ts';
import { authorize, authorizeChange, lookUpParent, visibleRows } from './lookup.ts';
import type { ResourceRuntime } from './runtime.ts';
import { inRequestUnit } from './write-unit.ts';
import { createRecords, updateRecords } from '../write/pipeline.ts';
import type { WriteUnit } from '../write/unit.ts';
import { rowsAmong } from '../sql/key-reads.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import type { Statements } from '../sql/statements.ts';
import { transactionStatements } from '../sql/transaction-statements.ts';
import type { Values } from '../validation/body-validator.ts';
import type { ResourceDef } from '../definition/types.ts';
import { coerceCells, readValues } from '../transfer/import/coerce-cells.ts';
import type { ParsedRow } from '../transfer/import/parsed-rows.ts';
import { idKeysOfNames, namedRelations, resolveNames, withoutIdsOfUnresolvedNames } from '../transfer/import/resolve-names.ts';
import { readLines, resolveLineNames } from '../transfer/import/read-lines.ts';
import { resolveIdLists } from '../transfer/import/resolve-id-lists.ts';

export interface ImportOptions {
  dryRun: boolean;
  /** `on_error=skip`: the valid rows are written, the others reported. */
  skip: boolean;
}

export interface ImportReport {
  /** Records read from the file. */
  rows: number;
  /** Records created and updated (in a dry run: that would be). */
  created: number;
  updated: number;
  /** Each rejected record: its line in the file (a spreadsheet's row) and a create's (or update's) errors. */
  rejected: Array<{ row: number; errors: FieldErrors }>;
  dry_run: boolean;
}

/** Ends the transaction without writing: a dry run, or an all-or-nothing import with a rejected row. */
class RollBack extends Error {}

/** A row's plan before validation: its body, the record it updates (an `id`), its errors so far. */
interface PlannedRow {
  line: number;
  body: Record<string, unknown>;
  id?: number;
  errors: FieldErrors;
}

export async function runImport(runtime: ResourceRuntime, request: FastifyRequest, rows: ParsedRow[], options: ImportOptions): Promise<ImportReport> {
  const { def, deps } = runtime;
  const user = request.authUser!;
  // As a create: the path's parent first (404), then the permission to create (403).
  const parent = await lookUpParent(runtime, request);
  if (parent === null) throw new NotFoundError();
  const fixed: Values = def.parent && parent ? { [def.parent.foreignKey]: parent.id } : {};
  const planned = rows.map((row) => plan(runtime, row, fixed));
  if (planned.some((row) => row.id === undefined && Object.keys(row.errors).length === 0)) authorize(runtime, request, 'create', { parent: parent?.record });
  await checkUpdated(runtime, request, planned, parent ?? undefined);
  const named = namedRelations(def, deps.registry);
  const idKeys = idKeysOfNames(def, deps.registry);

  let report!: ImportReport;
  try {
    await inRequestUnit(runtime, request, async (unit) => {
      const { trx } = unit;
      report = { rows: rows.length, created: 0, updated: 0, rejected: [], dry_run: options.dryRun };
      // The file's reads see what its earlier rows wrote (a name taken by a row above).
      const reads = transactionStatements(trx, deps.statements.insertReturns) as unknown as Statements;
      // A retried transaction starts again from the rows as parsed.
      const bodies = planned.map((row) => structuredClone(row.body));
      const rowScope = (target: ResourceDef) => deps.policy.rowScope(user, target);
      const nameErrors = await resolveNames(named, bodies, reads, deps.registry, rowScope);
      const lineNameErrors = await resolveLineNames(def, deps.registry, bodies, reads, rowScope);
      const listNameErrors = await resolveIdLists(def, deps.registry, bodies, reads, rowScope);
      const checked = await runtime.validator.validateMany(
        planned.map((row, index) =>
          row.id === undefined
            ? { body: bodies[index], mode: 'create' as const, known: fixed as Record<string, number> }
            : { body: bodies[index], mode: 'update' as const, id: row.id },
        ),
        reads,
      );
      const errors = planned.map((row, index) => {
        // The row's own errors last: a lines cell that is not JSON says so, not that the lines are missing.
        const names = { ...nameErrors.get(index), ...lineNameErrors.get(index), ...listNameErrors.get(index) };
        const found = { ...names, ...withoutIdsOfUnresolvedNames(checked[index]!.errors, names, idKeys), ...row.errors };
        if (Object.keys(found).length > 0) return found;
        return deps.policy.checkValues(user, def, checked[index]!.values, row.id === undefined ? 'create' : 'update') ?? {};
      });
      const reject = (index: number, found: FieldErrors) => report.rejected.push({ row: planned[index]!.line, errors: found });
      errors.forEach((found, index) => {
        if (Object.keys(found).length > 0) reject(index, found);
      });
      if (report.rejected.length > 0 && !options.skip && !options.dryRun) throw new RollBack();

      // Each row in a savepoint when a failing one must not undo the others (skip, and a dry run that reports them all).
      const savepoints = options.skip || options.dryRun;
      const write = async (index: number, { trx: rowTrx, context }: WriteUnit): Promise<'created' | 'updated'> => {
        const values = checked[index]!.values;
        const id = planned[index]!.id ?? (await upsertTarget(runtime, { ...values, ...fixed }, transactionStatements(rowTrx, false)));
        if (id === undefined) {
          await createRecords(context, def, [values], { fixed });
          return 'created';
        }
        const current = await rowTrx(def.table).where('id', id).first();
        await updateRecords(context, def, [{ id, values, current }]);
        return 'updated';
      };
      for (let index = 0; index < planned.length; index++) {
        if (Object.keys(errors[index]!).length > 0) continue;
        // SQLite answers at once: without a pause between rows a large file would hold the event
        // loop to itself (other requests waited, and the load shedding answered them 503).
        await new Promise((resolve) => setImmediate(resolve));
        try {
          const kind = savepoints ? await unit.savepoint((row) => write(index, row)) : await write(index, unit);
          report[kind]++;
        } catch (error) {
          const client = error instanceof HttpError ? error : clientErrorFromDb(error, def);
          if (!client) throw error;
          reject(index, client instanceof ValidationError ? client.errors : { record: [client.message] });
          if (!savepoints) throw new RollBack();
        }
      }
      report.rejected.sort((a, b) => a.row - b.row);
      if (options.dryRun || (report.rejected.length > 0 && !options.skip)) throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
    if (!options.dryRun) Object.assign(report, { created: 0, updated: 0 });
  }
  return report;
}

/** A parsed row as a body: CSV cells read by type, the `id` taken out, a nested resource's parent filled in. */
function plan(runtime: ResourceRuntime, row: ParsedRow, fixed: Values): PlannedRow {
  const body = row.text ? coerceCells(runtime.def, row.values) : readValues(runtime.def, row.values);
  const errors: FieldErrors = readLines(runtime.def, runtime.deps.registry, body);
  const sentId = body.id;
  delete body.id;
  let id: number | undefined;
  if (sentId !== undefined && sentId !== null && sentId !== '') {
    const number = Number(sentId);
    if (Number.isSafeInteger(number) && number > 0) id = number;
    else errors.id = ['The id must be the id of an existing record, or left empty to create one.'];
  }
  // Under a nested path the parent is the path's, as a create's; rows need not repeat it.
  for (const [column, value] of Object.entries(fixed)) if (id === undefined && (body[column] === undefined || body[column] === null)) body[column] = value;
  return { line: row.line, body, id, errors };
}

/**
 * The records the rows with an `id` update: among those the user may see (under the path's parent),
 * else the row's error; each asked to the policy as an update (403 for the whole file).
 */
async function checkUpdated(runtime: ResourceRuntime, request: FastifyRequest, planned: PlannedRow[], parent: { id: number; record: Record<string, unknown> } | undefined) {
  const { def, deps } = runtime;
  const ids = [...new Set(planned.flatMap((row) => (row.id === undefined ? [] : [row.id])))];
  if (ids.length === 0) return;
  const found = new Map<number, Record<string, unknown>>();
  const visible = resourceRows(def, deps.registry, { parentId: parent?.id, rows: visibleRows(runtime, request) });
  const columns = runtime.columns(def);
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    for (const row of await rowsAmong(deps.statements, def.table, columns, chunk, visible)) found.set(Number(row.id), row);
  }
  for (const row of planned) {
    if (row.id === undefined) continue;
    const record = found.get(row.id);
    if (!record) {
      row.errors.id = [`No ${def.label} with the id ${row.id}.`];
      continue;
    }
    await authorizeChange(runtime, request, 'update', { parent: parent?.record, record });
  }
}
