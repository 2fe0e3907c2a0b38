// A definition's `indexes`, checked from the definition alone: the migrated schema has each one,
// and the list it serves (the parent's live records sorted by the index's last column, ascending
// and descending) reads the rows in the index's order: the database's plan for the page names the
// index and has no sort step. A dozen records are created first, so that the plan is the one a
// real list gets rather than a scan of a near-empty table.
import type { Knex } from 'knex';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasIndex, indexName, readSchemaIndexes } from '../../../engine/index.ts';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { statementsOf, type SentStatement } from '../../helpers/statements.ts';
import type { ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

const RECORDS = 12;

/** The declared indexes whose leading columns a list fixes by itself (the parent key, deleted_at) and whose last column is a sort. */
function sortingIndexes(def: ResourceDef): Array<readonly string[]> {
  const fixed = new Set([def.parent?.foreignKey, def.softDelete ? 'deleted_at' : undefined]);
  return def.indexes.filter((columns) => def.sorts.includes(columns.at(-1)!) && columns.slice(0, -1).every((column) => fixed.has(column)));
}

export const hasSortingIndexes = (def: ResourceDef) => sortingIndexes(def).length > 0;

export function indexChecks(test: Test, context: () => ResourceContext) {
  test('indexes: each declared index is in the migrated schema', async () => {
    const ctx = context();
    const indexes = await readSchemaIndexes(ctx.app.knex, [ctx.def.table]);
    for (const columns of ctx.def.indexes) {
      assert.ok(
        hasIndex(indexes, ctx.def.table, columns),
        `${ctx.def.table} has ${indexName(ctx.def.table, columns)} on (${columns.join(', ')}); it has ${JSON.stringify(indexes.get(ctx.def.table))}`,
      );
    }
  });
}

export function sortingIndexChecks(test: Test, context: () => ResourceContext) {
  test('indexes: a list sorted by an index’s last column reads in the index’s order, both ways, without a sort step', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    if (ctx.def.operations.has('create')) {
      for (let n = 0; n < RECORDS; n++) {
        const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 300 + n) });
        assert.is(created.status, 201, created.text);
      }
    }
    for (const columns of sortingIndexes(ctx.def)) {
      const name = indexName(ctx.def.table, columns);
      for (const sort of [columns.at(-1)!, `-${columns.at(-1)}`]) {
        const page = await pageQuery(knex, ctx.def.table, () => ctx.client.get(`${ctx.listPath}?sort=${sort}`, { token: ctx.token }));
        const plan = await planOf(knex, page);
        assert.ok(plan.index === name, `sort=${sort}: the page reads through ${name}; the plan: ${plan.text}`);
        assert.ok(!plan.sorts, `sort=${sort}: the page needs no sort step; the plan: ${plan.text}`);
      }
    }
  });
}

/** The page query a request sends (its SELECT with ORDER BY and LIMIT on the resource's table). */
async function pageQuery(knex: Knex, table: string, request: () => Promise<{ status: number; text: string }>): Promise<SentStatement> {
  const sent = await statementsOf(knex, async () => {
    const response = await request();
    assert.is(response.status, 200, response.text);
  });
  const page = sent.find((statement) => statement.sql.includes(` FROM \`${table}\``) && / ORDER BY .* LIMIT \? OFFSET \?$/.test(statement.sql));
  assert.ok(page, `a page query on ${table} among ${sent.map((statement) => statement.sql).join('\n')}`);
  return page!;
}

/** The index the database reads the table through, and whether it sorts the rows itself. */
async function planOf(knex: Knex, { sql, bindings }: SentStatement): Promise<{ index?: string; sorts: boolean; text: string }> {
  if (knex.client.config.client === 'better-sqlite3') {
    const rows = (await knex.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings as Knex.RawBinding[])) as Array<{ detail: string }>;
    const details = rows.map((row) => row.detail);
    const using = details.map((detail) => /USING (?:COVERING )?INDEX (\S+)/.exec(detail)?.[1]).find(Boolean);
    return { index: using, sorts: details.some((detail) => detail.includes('TEMP B-TREE')), text: details.join(' | ') };
  }
  const [rows] = await knex.raw(`EXPLAIN ${sql}`, bindings as Knex.RawBinding[]);
  const [row] = rows as Array<{ key: string | null; Extra: string | null }>;
  return { index: row?.key ?? undefined, sorts: /filesort|temporary/i.test(row?.Extra ?? ''), text: JSON.stringify(rows) };
}
