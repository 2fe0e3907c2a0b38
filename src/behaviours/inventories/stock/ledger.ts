// The stock ledger: on-hand and reserved quantity per product, location, lot and package (in the
// product's unit), in inventories_product_quantities; "no lot" and "no package" are one value each
// (lot_key / package_key hold the id or 0, see migration 20261128000002), so stock without lots is
// one row per product and location as before. Only internal locations keep stock: vendors,
// customers and virtual locations are where goods come from and go to. Rows a change depends on
// are locked (SELECT ... FOR UPDATE on MySQL/MariaDB; SQLite has one writer at a time), so
// concurrent operations never overdraw a location.
import type { Knex } from 'knex';
import { nowTimestamp, plusProposed, recordsOf, todayFor } from '../../../../engine/index.ts';
import { roundTo } from '../../accounts/money.ts';

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

/** One ledger row's identity: a lot or package left out (or null) is "none". */
export const quantKey = (productId: unknown, locationId: unknown, lotId?: unknown, packageId?: unknown) =>
  `${Number(productId)}:${Number(locationId)}:${Number(lotId ?? 0)}:${Number(packageId ?? 0)}`;

/** The key of a row of the ledger (or of a move's source or destination: pass its location). */
export const rowKey = (row: Record<string, any>, locationId: unknown = row.location_id) => quantKey(row.product_id, locationId, row.lot_id, row.package_id);

export interface QuantRef {
  productId: number;
  locationId: number;
  lotId?: number | null;
  packageId?: number | null;
}

/** The ledger rows of these (product, location, lot, package), locked for this transaction, by quantKey. */
export async function lockQuants(trx: Trx, refs: QuantRef[]): Promise<Map<string, Record<string, any>>> {
  const keys = [...new Set(refs.map((ref) => quantKey(ref.productId, ref.locationId, ref.lotId, ref.packageId)))].sort();
  if (keys.length === 0) return new Map();
  const products = [...new Set(refs.map((ref) => ref.productId))];
  const locations = [...new Set(refs.map((ref) => ref.locationId))];
  // Locked in one statement, in key order: two operations never wait on each other crosswise.
  // Every lot and package of those products and locations is locked with them (a few rows more).
  const rows = await trx(QUANTS).whereIn('product_id', products).whereIn('location_id', locations).orderBy(['product_id', 'location_id', 'lot_key', 'package_key']).forUpdate();
  const wanted = new Set(keys);
  return new Map(rows.filter((row) => wanted.has(rowKey(row))).map((row) => [rowKey(row), row]));
}

export interface QuantChange {
  location: Location;
  productId: number;
  lotId?: number | null;
  packageId?: number | null;
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
  const totals = new Map<string, { location: Location; productId: number; lotId: number | null; packageId: number | null; quantity: number; reserved: number }>();
  for (const change of changes) {
    const key = quantKey(change.productId, change.location.id, change.lotId, change.packageId);
    const total = totals.get(key) ?? {
      location: change.location,
      productId: change.productId,
      lotId: change.lotId ?? null,
      packageId: change.packageId ?? null,
      quantity: 0,
      reserved: 0,
    };
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
      lot_id: total.lotId,
      package_id: total.packageId,
      lot_key: total.lotId ?? 0,
      package_key: total.packageId ?? 0,
      quantity: total.quantity,
      reserved_quantity: total.reserved,
      warehouse_id: total.location.warehouse_id,
      company_id: total.location.company_id,
      created_at: now,
      updated_at: now,
    }));
  // The row's value plus the one this statement proposes for it (VALUES() on MySQL, excluded on SQLite).
  const plus = (column: string) => plusProposed(trx, QUANTS, column);
  for (let start = 0; start < rows.length; start += QUANTS_PER_STATEMENT) {
    const batch = rows.slice(start, start + QUANTS_PER_STATEMENT);
    await trx(QUANTS)
      .insert(batch)
      .onConflict(['product_id', 'location_id', 'lot_key', 'package_key'])
      .merge({ quantity: plus('quantity'), reserved_quantity: plus('reserved_quantity'), updated_at: now });
    // The ledger rows are records of inventories/quantities: the change feed shows them. Written
    // raw because each is an upsert adding to the row's locked totals (no read-modify-write), which
    // the writer has no statement for: its changed() records them.
    const wanted = new Set(batch.map((row) => rowKey(row)));
    const written = await trx(QUANTS)
      .whereIn('product_id', [...new Set(batch.map((row) => row.product_id))])
      .whereIn('location_id', [...new Set(batch.map((row) => row.location_id))])
      .select('id', 'product_id', 'location_id', 'lot_id', 'package_id');
    recordsOf(trx)('inventories/quantities').changed(written.filter((row) => wanted.has(rowKey(row))).map((row) => Number(row.id)));
  }
  await followContents(trx, 'inventories_lots', 'lot_id', rows);
  await followContents(trx, 'inventories_packages', 'package_id', rows);
}

/**
 * A lot's or package's location_id is where its stock is: the internal location of its first
 * quant with stock on hand (null when it has none). Kept here, with the quants, so that lists can
 * filter on it; one UPDATE per table for every lot (package) a change touched, none without any.
 */
async function followContents(trx: Trx, table: 'inventories_lots' | 'inventories_packages', column: 'lot_id' | 'package_id', rows: Array<Record<string, any>>): Promise<void> {
  const ids = [...new Set(rows.map((row) => row[column]).filter((id) => id != null))];
  if (ids.length === 0) return;
  const where = `q.?? = ??.\`id\` AND q.\`quantity\` > 0`;
  const location = trx.raw(
    `(SELECT q.\`location_id\` FROM ?? q INNER JOIN \`inventories_locations\` l ON l.\`id\` = q.\`location_id\` AND l.\`type\` = 'internal' WHERE ${where} ORDER BY q.\`id\` LIMIT 1)`,
    [QUANTS, column, table],
  );
  const values: Record<string, unknown> = { location_id: location };
  // A package is packed the day stock first goes into it (its company's day).
  if (table === 'inventories_packages') values.pack_date = trx.raw('COALESCE(??, ?)', ['pack_date', await todayFor(trx, rows.find((row) => row.package_id != null)?.company_id)]);
  await recordsOf(trx)(table === 'inventories_lots' ? 'inventories/lots' : 'inventories/packages').updateMany(ids, values);
}
