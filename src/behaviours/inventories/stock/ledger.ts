// The stock ledger: on-hand and reserved quantity per product and location (in the product's
// unit), in inventories_product_quantities. Only internal locations keep stock: vendors,
// customers and virtual locations are where goods come from and go to. Rows a change depends on
// are locked (SELECT ... FOR UPDATE on MySQL/MariaDB; SQLite has one writer at a time), so
// concurrent operations never overdraw a location.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../../../engine/index.ts';
import { roundTo } from '../../accounts/money.ts';
import { changedIds } from '../../support/changed-rows.ts';

export type Trx = Knex.Transaction;
const QUANTS = 'inventories_product_quantities';

/** The most a quantity column (decimal(15,4)) holds. */
export const MAX_QUANTITY = 99999999999.9999;

/** Quantities are stored with 4 decimals; compare and store them at that precision. */
export const qty = (value: unknown): number => roundTo(Number(value ?? 0), 4);

export interface Location {
  id: number;
  type: string;
  full_name: string;
  company_id: number | null;
  warehouse_id: number | null;
}

export const isInternal = (location: Location | undefined): boolean => location?.type === 'internal';

export async function locationsById(trx: Trx, ids: Iterable<unknown>): Promise<Map<number, Location>> {
  const wanted = [...new Set([...ids].filter((id) => id != null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await trx('inventories_locations').whereIn('id', wanted).select('id', 'type', 'full_name', 'company_id', 'warehouse_id');
  return new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
}

export const quantKey = (productId: unknown, locationId: unknown) => `${Number(productId)}:${Number(locationId)}`;

/** The ledger rows of these (product, location) pairs, locked for this transaction, by quantKey. */
export async function lockQuants(trx: Trx, pairs: Array<{ productId: number; locationId: number }>): Promise<Map<string, Record<string, any>>> {
  const keys = [...new Set(pairs.map((pair) => quantKey(pair.productId, pair.locationId)))].sort();
  if (keys.length === 0) return new Map();
  const products = [...new Set(pairs.map((pair) => pair.productId))];
  const locations = [...new Set(pairs.map((pair) => pair.locationId))];
  // Locked in one statement, in key order: two operations never wait on each other crosswise.
  const rows = await trx(QUANTS).whereIn('product_id', products).whereIn('location_id', locations).orderBy(['product_id', 'location_id']).forUpdate();
  const wanted = new Set(keys);
  return new Map(rows.filter((row) => wanted.has(quantKey(row.product_id, row.location_id))).map((row) => [quantKey(row.product_id, row.location_id), row]));
}

export interface QuantChange {
  location: Location;
  productId: number;
  quantity?: number;
  reserved?: number;
}

// Rows per upsert statement: one for a typical operation, a few for a 1,000-line one.
const QUANTS_PER_STATEMENT = 200;

/**
 * Adds to (or takes from) the on-hand and reserved quantities of products at internal locations:
 * every change of one step at once, summed per product and location, in one upsert per
 * QUANTS_PER_STATEMENT rows (a product new at a location gets its row on the way).
 */
export async function changeQuants(trx: Trx, changes: QuantChange[]): Promise<void> {
  const totals = new Map<string, { location: Location; productId: number; quantity: number; reserved: number }>();
  for (const change of changes) {
    const key = quantKey(change.productId, change.location.id);
    const total = totals.get(key) ?? { location: change.location, productId: change.productId, quantity: 0, reserved: 0 };
    total.quantity = qty(total.quantity + (change.quantity ?? 0));
    total.reserved = qty(total.reserved + (change.reserved ?? 0));
    totals.set(key, total);
  }
  const now = nowTimestamp();
  const rows = [...totals.values()]
    .filter((total) => total.quantity !== 0 || total.reserved !== 0)
    .map((total) => ({
      product_id: total.productId,
      location_id: total.location.id,
      quantity: total.quantity,
      reserved_quantity: total.reserved,
      warehouse_id: total.location.warehouse_id,
      company_id: total.location.company_id,
      created_at: now,
      updated_at: now,
    }));
  // The row's value plus the one this statement proposes for it (VALUES() on MySQL, excluded on SQLite).
  const mysql = trx.client.config.client === 'mysql2';
  const plus = (column: string) => trx.raw(mysql ? '?? + VALUES(??)' : '?? + excluded.??', [`${QUANTS}.${column}`, column]);
  for (let start = 0; start < rows.length; start += QUANTS_PER_STATEMENT) {
    const batch = rows.slice(start, start + QUANTS_PER_STATEMENT);
    await trx(QUANTS)
      .insert(batch)
      .onConflict(['product_id', 'location_id'])
      .merge({ quantity: plus('quantity'), reserved_quantity: plus('reserved_quantity'), updated_at: now });
    // The ledger rows are records of inventories/quantities: the change feed shows them.
    const wanted = new Set(batch.map((row) => quantKey(row.product_id, row.location_id)));
    const written = await trx(QUANTS)
      .whereIn('product_id', [...new Set(batch.map((row) => row.product_id))])
      .whereIn('location_id', [...new Set(batch.map((row) => row.location_id))])
      .select('id', 'product_id', 'location_id');
    changedIds(
      trx,
      'inventories/quantities',
      written.filter((row) => wanted.has(quantKey(row.product_id, row.location_id))).map((row) => row.id),
    );
  }
}
