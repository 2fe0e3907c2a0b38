// The inventories module's standard setup (reference §4): the location tree, the warehouse "WH" of
// the first company with its view and stock locations, the operation types Receipts, Delivery
// Orders, Internal Transfers and Dropship with one numbering sequence each, the one-step reception
// and delivery routes, the dropship route, and the rules that link them.
//
// Differences from the original's seeders, on purpose:
// - Internal Transfers and Dropship are live (the original seeds them soft-deleted, so a fresh
//   installation cannot create an internal transfer or a dropship without naming a type), and so
//   are the Dropship route and its rule;
// - the disabled multi-step setup (transit, input, quality control, output and packing locations;
//   pick, pack, quality control, storage and cross-dock types; MTO, cross-dock and buy routes and
//   their rules) is not seeded at all, rather than seeded soft-deleted; ids are therefore not
//   those of the original (WH/Stock is 10, not 12; Internal Transfers 3, Dropship 4);
// - the warehouse and its routes are named after the company ("My Company: Receive in 1 step
//   (Stock)"), not "Your Company".
//
// Seeded in one transaction, and only while there is no location at all: once installed these are
// the users' data, so a location renamed or a rule deleted must not come back at the next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';
import { operationTypeSequenceCode } from '../behaviours/inventories/operation-type-sequence.ts';

type LocationType = 'view' | 'supplier' | 'customer' | 'internal' | 'inventory' | 'production' | 'transit';

interface LocationSeed {
  name: string;
  type: LocationType;
  /** The parent's full name. */
  parent: string | null;
  /** Belongs to the company (partner and top-level locations are shared by all companies). */
  company: boolean;
  /** Part of the warehouse (its view location and what lies below it). */
  warehouse?: boolean;
  barcode?: string;
  is_scrap?: boolean;
  is_replenish?: boolean;
}

export const WAREHOUSE_CODE = 'WH';

/** In order: parents before their children. */
export const STANDARD_LOCATIONS: LocationSeed[] = [
  { name: 'Physical Locations', type: 'view', parent: null, company: false },
  { name: 'Partners', type: 'view', parent: null, company: false },
  { name: 'Virtual Locations', type: 'view', parent: null, company: false },
  { name: 'Vendors', type: 'supplier', parent: 'Partners', company: false },
  { name: 'Customers', type: 'customer', parent: 'Partners', company: false },
  { name: 'Inventory Adjustment', type: 'inventory', parent: 'Virtual Locations', company: true },
  { name: 'Production', type: 'production', parent: 'Virtual Locations', company: true },
  { name: 'Scrap', type: 'inventory', parent: 'Virtual Locations', company: true, is_scrap: true },
  { name: WAREHOUSE_CODE, type: 'view', parent: 'Physical Locations', company: true, warehouse: true },
  { name: 'Stock', type: 'internal', parent: WAREHOUSE_CODE, company: true, warehouse: true, barcode: 'WHSTOCK', is_replenish: true },
];

interface OperationTypeSeed {
  name: string;
  type: 'incoming' | 'outgoing' | 'internal' | 'dropship';
  sequence_code: string;
  barcode: string;
  /** Full names of the default locations. */
  source: string;
  destination: string;
  /** Bound to the warehouse (its sequence prefix then starts with the warehouse code). */
  warehouse: boolean;
  /** Name of the type its returns use. */
  returnType: string | null;
  use_create_lots: boolean;
  use_existing_lots: boolean;
  print_label: boolean;
}

export const STANDARD_OPERATION_TYPES: OperationTypeSeed[] = [
  {
    name: 'Receipts',
    type: 'incoming',
    sequence_code: 'IN',
    barcode: 'WHIN',
    source: 'Partners/Vendors',
    destination: 'WH/Stock',
    warehouse: true,
    returnType: 'Delivery Orders',
    use_create_lots: true,
    use_existing_lots: true,
    print_label: false,
  },
  {
    name: 'Delivery Orders',
    type: 'outgoing',
    sequence_code: 'OUT',
    barcode: 'WHOUT',
    source: 'WH/Stock',
    destination: 'Partners/Customers',
    warehouse: true,
    returnType: 'Receipts',
    use_create_lots: true,
    use_existing_lots: true,
    print_label: true,
  },
  {
    name: 'Internal Transfers',
    type: 'internal',
    sequence_code: 'INT',
    barcode: 'WHINT',
    source: 'WH/Stock',
    destination: 'WH/Stock',
    warehouse: true,
    returnType: null,
    use_create_lots: false,
    use_existing_lots: true,
    print_label: false,
  },
  {
    name: 'Dropship',
    type: 'dropship',
    sequence_code: 'DS',
    barcode: 'DS',
    source: 'Partners/Vendors',
    destination: 'Partners/Customers',
    warehouse: false,
    returnType: 'Delivery Orders',
    use_create_lots: true,
    use_existing_lots: false,
    print_label: false,
  },
];

interface RouteSeed {
  /** `{warehouse}` stands for the warehouse's name. */
  name: string;
  product_selectable: boolean;
  product_category_selectable: boolean;
  warehouse_selectable: boolean;
  /** Offered for the warehouse (inventories_route_warehouses) and owned by the company. */
  warehouse: boolean;
}

export const STANDARD_ROUTES: RouteSeed[] = [
  { name: '{warehouse}: Receive in 1 step (Stock)', product_selectable: false, product_category_selectable: true, warehouse_selectable: true, warehouse: true },
  { name: '{warehouse}: Deliver in 1 step (Ship)', product_selectable: false, product_category_selectable: true, warehouse_selectable: true, warehouse: true },
  { name: 'Dropship', product_selectable: true, product_category_selectable: true, warehouse_selectable: false, warehouse: false },
];

interface RuleSeed {
  name: string;
  action: 'pull' | 'push' | 'pull_push' | 'buy' | 'manufacture';
  source: string;
  destination: string;
  /** Index in STANDARD_ROUTES. */
  route: number;
  operationType: string;
  route_sort: number;
  propagate_carrier: boolean;
}

export const STANDARD_RULES: RuleSeed[] = [
  {
    name: 'WH: Vendors → Stock',
    action: 'pull',
    source: 'Partners/Vendors',
    destination: 'WH/Stock',
    route: 0,
    operationType: 'Receipts',
    route_sort: 9,
    propagate_carrier: false,
  },
  {
    name: 'WH: Stock → Customers',
    action: 'pull',
    source: 'WH/Stock',
    destination: 'Partners/Customers',
    route: 1,
    operationType: 'Delivery Orders',
    route_sort: 10,
    propagate_carrier: true,
  },
  {
    name: 'Vendors → Customers',
    action: 'buy',
    source: 'Partners/Vendors',
    destination: 'Partners/Customers',
    route: 2,
    operationType: 'Dropship',
    route_sort: 14,
    propagate_carrier: false,
  },
];

const SEQUENCE_PADDING = 5;

/** Seeds the setup on an installation without locations; returns how many rows it added. */
export async function seedInventories(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('inventories_locations').first('id')) return 0;
  const company = await knex('companies').orderBy('id').first('id', 'name');
  if (!company) return 0;
  const now = nowTimestamp();
  const stamps = { creator_id: creatorId, created_at: now, updated_at: now };
  let added = 0;

  await knex.transaction(async (trx) => {
    const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
      const [id] = await trx(table).insert(row);
      added++;
      return Number(id);
    };
    const partner = await trx('partners_partners').where({ name: company.name, account_type: 'company' }).orderBy('id').first('id');
    const warehouseId = await insert('inventories_warehouses', {
      name: company.name,
      code: WAREHOUSE_CODE,
      sort: 1,
      reception_steps: 'one_step',
      delivery_steps: 'ship_only',
      company_id: company.id,
      partner_address_id: partner?.id ?? null,
      ...stamps,
    });

    const locations = new Map<string, number>();
    for (const seed of STANDARD_LOCATIONS) {
      const parentId = seed.parent === null ? null : locations.get(seed.parent)!;
      // As the location behaviours compute it: a view location shows its own name only.
      const fullName = seed.parent !== null && seed.type !== 'view' ? `${seed.parent}/${seed.name}` : seed.name;
      const id = await insert('inventories_locations', {
        name: seed.name,
        type: seed.type,
        full_name: fullName,
        barcode: seed.barcode ?? null,
        is_scrap: seed.is_scrap ?? false,
        is_replenish: seed.is_replenish ?? false,
        parent_id: parentId,
        warehouse_id: seed.warehouse ? warehouseId : null,
        company_id: seed.company ? company.id : null,
        ...stamps,
      });
      const parentPath = parentId === null ? '' : (await trx('inventories_locations').where('id', parentId).first('parent_path')).parent_path;
      await trx('inventories_locations')
        .where('id', id)
        .update({ parent_path: `${parentPath}${id}/` });
      locations.set(fullName, id);
    }

    const operationTypes = new Map<string, number>();
    for (const [index, seed] of STANDARD_OPERATION_TYPES.entries()) {
      const id = await insert('inventories_operation_types', {
        name: seed.name,
        type: seed.type,
        sort: index + 1,
        sequence_code: seed.sequence_code,
        reservation_method: 'at_confirm',
        product_label_format: '2x7xprice',
        lot_label_format: '4x12_lots',
        package_label_to_print: 'pdf',
        barcode: seed.barcode,
        create_backorder: 'ask',
        move_type: 'direct',
        use_create_lots: seed.use_create_lots,
        use_existing_lots: seed.use_existing_lots,
        print_label: seed.print_label,
        source_location_id: locations.get(seed.source)!,
        destination_location_id: locations.get(seed.destination)!,
        warehouse_id: seed.warehouse ? warehouseId : null,
        company_id: company.id,
        ...stamps,
      });
      operationTypes.set(seed.name, id);
      await insert('sequences', {
        code: operationTypeSequenceCode(id),
        company_id: company.id,
        prefix: seed.warehouse ? `${WAREHOUSE_CODE}/${seed.sequence_code}/` : `${seed.sequence_code}/`,
        padding: SEQUENCE_PADDING,
        next_number: 1,
        created_at: now,
        updated_at: now,
      });
    }
    for (const seed of STANDARD_OPERATION_TYPES) {
      if (seed.returnType === null) continue;
      await trx('inventories_operation_types')
        .where('id', operationTypes.get(seed.name)!)
        .update({ return_operation_type_id: operationTypes.get(seed.returnType)! });
    }

    const routes: number[] = [];
    for (const [index, seed] of STANDARD_ROUTES.entries()) {
      const id = await insert('inventories_routes', {
        name: seed.name.replace('{warehouse}', company.name),
        sort: index + 1,
        product_selectable: seed.product_selectable,
        product_category_selectable: seed.product_category_selectable,
        warehouse_selectable: seed.warehouse_selectable,
        packaging_selectable: false,
        company_id: seed.warehouse ? company.id : null,
        ...stamps,
      });
      routes.push(id);
      if (seed.warehouse) {
        await trx('inventories_route_warehouses').insert({ warehouse_id: warehouseId, route_id: id });
        added++;
      }
    }

    for (const [index, seed] of STANDARD_RULES.entries()) {
      const operationTypeId = operationTypes.get(seed.operationType)!;
      const operationType = STANDARD_OPERATION_TYPES.find((type) => type.name === seed.operationType)!;
      await insert('inventories_rules', {
        name: seed.name,
        sort: index + 1,
        route_sort: seed.route_sort,
        delay: 0,
        group_propagation_option: 'propagate',
        action: seed.action,
        procure_method: 'make_to_stock',
        auto: 'manual',
        propagate_carrier: seed.propagate_carrier,
        source_location_id: locations.get(seed.source)!,
        destination_location_id: locations.get(seed.destination)!,
        route_id: routes[seed.route]!,
        operation_type_id: operationTypeId,
        warehouse_id: operationType.warehouse ? warehouseId : null,
        company_id: company.id,
        ...stamps,
      });
    }

    await trx('inventories_warehouses')
      .where('id', warehouseId)
      .update({
        view_location_id: locations.get(WAREHOUSE_CODE)!,
        lot_stock_location_id: locations.get(`${WAREHOUSE_CODE}/Stock`)!,
        in_type_id: operationTypes.get('Receipts')!,
        out_type_id: operationTypes.get('Delivery Orders')!,
        internal_type_id: operationTypes.get('Internal Transfers')!,
        reception_route_id: routes[0]!,
        delivery_route_id: routes[1]!,
      });
  });
  return added;
}
