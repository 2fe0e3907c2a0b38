import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { equals, isNull } from '../../sql/conditions.ts';
import { firstId } from '../../sql/key-reads.ts';
import { quote } from '../../sql/quote.ts';
import { recordETag } from '../etag.ts';
import { withRevealed } from '../../serialize/record.ts';
import { NotFoundError } from '../../errors/http-errors.ts';
import { authorize, checkValues, lookUpParent, writtenRecord, type Row } from '../lookup.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { ChangeSet } from '../../behaviours/change-set.ts';
import { retryConflicts } from '../../sql/retry.ts';
import { inRequestUnitWithChanges } from '../write-unit.ts';
import type { Statements } from '../../sql/statements.ts';
import { createRecords, updateRecords } from '../../write/pipeline.ts';
import { writePlan } from '../../write/plan.ts';
import { insertSingle } from '../../write/single-insert.ts';
import { includeTree, loadRelations } from '../../sql/load-relations.ts';

export function createHandler(runtime: ResourceRuntime) {
  const { def } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const includes = parseIncludes(request.query as RawQuery, def);
    // The parent is read first so that a body naming it needs no second look, but an invalid body
    // is still a 422 before a missing parent's 404 (reference §1.2).
    const parent = await lookUpParent(runtime, request);
    const known = parent && def.parent ? { [def.parent.foreignKey]: parent.id } : undefined;
    const values = await runtime.validator.validate(request.body, runtime.statements, { mode: 'create', known });
    checkValues(runtime, request, values, 'create');
    if (parent === null) throw new NotFoundError();
    authorize(runtime, request, 'create', { parent: parent?.record });

    let id: number;
    let inserted: Row | undefined;
    let written: ChangeSet;
    try {
      // The path's parent wins over a parent id in the body. Nested records go in the same transaction.
      const fixed = def.parent ? { [def.parent.foreignKey]: parent?.id } : {};
      const existing = await upsertTarget(runtime, { ...values, ...fixed });
      const plan = writePlan(def, runtime.deps.registry);
      if (existing !== undefined) {
        id = existing;
        ({ changes: written } = await inRequestUnitWithChanges(runtime, request, async ({ trx, context }) => {
          const current = await trx(def.table).where('id', existing).first();
          await updateRecords(context, def, [{ id: existing, values, current }]);
        }));
      } else if (plan.singleStatement(values)) {
        // One INSERT (returning the row where the server can) and its change, as one short
        // transaction of prepared statements: no query builder on the hot path of a create.
        ({
          id,
          row: inserted,
          changes: written,
        } = await retryConflicts(() =>
          runtime.statements.transaction(async (statements) => {
            const insert = await insertSingle(statements, request.authUser!, def, values, plan, fixed);
            const changes = new ChangeSet(runtime.changes.dependents);
            if (insert.row) {
              // The row the INSERT returned, with the relations its resource embeds read beside
              // it: the change shows it, and the answer is it.
              if (def.embed.length > 0) await loadRelations(statements, runtime.deps.registry, runtime.columns, def, [insert.row], includeTree(def.embed));
              changes.addWritten(def.name, insert.row, 'created');
            } else changes.add(def.name, insert.id, 'created');
            await runtime.changes.recordWith(statements, changes, { userId: request.authUser!.id, requestId: String(request.id) });
            return { ...insert, changes };
          }),
        ));
      } else {
        let ids: number[];
        ({ result: ids, changes: written } = await inRequestUnitWithChanges(runtime, request, ({ context }) => createRecords(context, def, [values], { fixed })));
        id = ids[0]!;
      }
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }
    const record = await writtenRecord(runtime, written, id, { parentId: parent?.id, includes }, inserted);
    const data = runtime.serialize(record);
    return reply
      .code(201)
      .header('etag', recordETag(def, data))
      .send({ data: withRevealed(def, data, record), message: def.messages.created });
  };
}

/** For a definition with `upsertOn`: the record that already has those values, which the create then updates. */
export async function upsertTarget(
  runtime: ResourceRuntime,
  values: Record<string, unknown>,
  statements: Pick<Statements, 'all'> = runtime.statements,
): Promise<number | undefined> {
  const { def } = runtime;
  if (!def.upsertOn) return undefined;
  // A value not sent (or null) matches a row without one: a count without a lot is the row without a lot.
  return firstId(
    statements,
    def.table,
    def.upsertOn.map((column) => (values[column] == null ? isNull(quote(column)) : equals(quote(column), values[column]))),
  );
}
