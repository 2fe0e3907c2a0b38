// The one place where behaviour names used in resources/*.yaml map to their implementations.
import type { Behaviours } from '../../engine/index.ts';
import { addDefaultDueTerm } from './accounts/add-default-due-term.ts';
import { inventoryMasterDataHooks } from './inventories/master-data.ts';
import { categoryDescendants, categoryNotInUse, categoryPath } from './products/category-path.ts';
import { defaultUnits } from './products/default-units.ts';
import { prepareMove } from './inventories/prepare-move.ts';
import { prepareOperation } from './inventories/prepare-operation.ts';
import { computeOrderTotals } from './sales/compute-order-totals.ts';
import { prepareOrderLine } from './sales/prepare-order-line.ts';
import { prepareOrder } from './sales/prepare-order.ts';
import { accessChanged, keepOwnUserManagement } from './security/access-changed.ts';
import { detachRole, guardRoleGrants, protectAdminRole } from './security/roles.ts';
import { guardUserDelete, guardUserGrants, prepareUser } from './security/users.ts';
import { appendToSortOrder } from './support/append-to-sort-order.ts';
import { inverseRate } from './support/inverse-rate.ts';

export const behaviours: Behaviours = {
  hooks: {
    'support.appendToSortOrder': appendToSortOrder,
    'products.categoryPath': categoryPath,
    'products.defaultUnits': defaultUnits,
    'inventories.prepareOperation': prepareOperation,
    'inventories.prepareMove': prepareMove,
    'sales.prepareOrder': prepareOrder,
    'sales.prepareOrderLine': prepareOrderLine,
    'sales.computeOrderTotals': computeOrderTotals,
    'products.categoryDescendants': categoryDescendants,
    'products.categoryNotInUse': categoryNotInUse,
    'accounts.addDefaultDueTerm': addDefaultDueTerm,
    ...inventoryMasterDataHooks,
    'security.accessChanged': accessChanged,
    'security.keepOwnUserManagement': keepOwnUserManagement,
    'security.guardRoleGrants': guardRoleGrants,
    'security.protectAdminRole': protectAdminRole,
    'security.detachRole': detachRole,
    'security.prepareUser': prepareUser,
    'security.guardUserGrants': guardUserGrants,
    'security.guardUserDelete': guardUserDelete,
  },
  computed: {
    'support.inverseRate': inverseRate,
  },
};
