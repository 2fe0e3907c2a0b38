// The one place where behaviour names used in resources/*.yaml map to their implementations.
import type { Behaviours } from '../../engine/index.ts';
import { syncVariants } from './products/sync-variants.ts';
import { holdOfferedOptions, writeOfferedOptions } from './products/offered-options.ts';
import { productAttributeNotInUse, productAttributeOptions, writeProductAttributeValues } from './products/product-attributes.ts';
import { prepareMoves } from './inventories/prepare-move.ts';
import { guardOperationDelete, prepareOperation } from './inventories/prepare-operation.ts';
import { computeOrderTotals } from './sales/compute-order-totals.ts';
import { prepareOrderLines } from './sales/prepare-order-line.ts';
import { prepareOrder } from './sales/prepare-order.ts';
import { keepOwnUserManagement } from './security/keep-own-user-management.ts';
import { bumpAccessVersion } from '../access/access-version.ts';
import { detachRole, guardRoleGrants, protectAdminRole } from './security/roles.ts';
import { guardUserDelete, guardUserGrants, prepareUser } from './security/users.ts';
import { cancelStockOperation, checkAvailability, returnOperation, todoOperation, validateStockOperation } from './inventories/operation-actions.ts';
import { applyCount, freeQuantity, guardQuantityDelete, prepareQuantity } from './inventories/quantities.ts';
import { prepareScrap } from './inventories/scraps/prepare-scrap.ts';
import { validateScrap } from './inventories/scraps/validate-scrap.ts';
import { cancelOrder, confirmOrder } from './sales/order-actions.ts';
import { inverseRate } from './support/inverse-rate.ts';
import { computeOrderTotals as computePurchaseOrderTotals } from './purchases/compute-order-totals.ts';
import { cancelOrder as cancelPurchaseOrder, confirmOrder as confirmPurchaseOrder } from './purchases/order-actions.ts';
import { prepareOrderLines as preparePurchaseOrderLines } from './purchases/prepare-order-lines.ts';
import { prepareOrder as preparePurchaseOrder } from './purchases/prepare-order.ts';
import { prepareSubscription, queuePing, rotateSecret } from './webhooks/subscriptions.ts';
import { cancelMove, confirmMove, resetMoveToDraft } from './accounts/moves/move-actions.ts';
import { payMove } from './accounts/moves/pay.ts';
import { computeMove, prepareMove } from './accounts/moves/prepare-move.ts';
import { prepareInvoiceLines } from './accounts/moves/prepare-invoice-lines.ts';
import { reverseMove } from './accounts/moves/reverse.ts';
import { createInvoice } from './sales/create-invoice.ts';
import { createBill } from './purchases/create-bill.ts';
import { checkTaxChildren } from './accounts/tax-children.ts';
import { checkEarlyDiscountDueTerm, checkEarlyDiscountTerm } from './accounts/early-discount-terms.ts';

export const behaviours: Behaviours = {
  hooks: {
    'inventories.prepareOperation': prepareOperation,
    'sales.prepareOrder': prepareOrder,
    'sales.computeOrderTotals': computeOrderTotals,
    'security.keepOwnUserManagement': keepOwnUserManagement,
    'security.guardRoleGrants': guardRoleGrants,
    'security.protectAdminRole': protectAdminRole,
    'security.detachRole': detachRole,
    'security.prepareUser': prepareUser,
    'security.guardUserGrants': guardUserGrants,
    'security.guardUserDelete': guardUserDelete,
    'inventories.prepareQuantity': prepareQuantity,
    'inventories.guardOperationDelete': guardOperationDelete,
    'inventories.guardQuantityDelete': guardQuantityDelete,
    'inventories.prepareScrap': prepareScrap,
    'webhooks.prepareSubscription': prepareSubscription,
    'webhooks.queuePing': queuePing,
    'accounts.prepareMove': prepareMove,
    'accounts.computeMove': computeMove,
    'accounts.checkTaxChildren': checkTaxChildren,
    'accounts.checkEarlyDiscountTerm': checkEarlyDiscountTerm,
    'accounts.checkEarlyDiscountDueTerm': checkEarlyDiscountDueTerm,
    'purchases.prepareOrder': preparePurchaseOrder,
    'purchases.computeOrderTotals': computePurchaseOrderTotals,
    'products.holdOfferedOptions': holdOfferedOptions,
    'products.writeOfferedOptions': writeOfferedOptions,
    'products.productAttributeOptions': productAttributeOptions,
    'products.writeProductAttributeValues': writeProductAttributeValues,
    'products.productAttributeNotInUse': productAttributeNotInUse,
  },
  computed: {
    'support.inverseRate': inverseRate,
  },
  batches: {
    'inventories.prepareMoves': prepareMoves,
    'sales.prepareOrderLines': prepareOrderLines,
    'accounts.prepareInvoiceLines': prepareInvoiceLines,
    'purchases.prepareOrderLines': preparePurchaseOrderLines,
  },
  subqueries: {
    'inventories.freeQuantity': freeQuantity,
  },
  actions: {
    'webhooks.rotateSecret': rotateSecret,
    'inventories.todo': todoOperation,
    'inventories.checkAvailability': checkAvailability,
    'inventories.validate': validateStockOperation,
    'inventories.cancel': cancelStockOperation,
    'inventories.return': returnOperation,
    'inventories.applyCount': applyCount,
    'inventories.validateScrap': validateScrap,
    'sales.confirm': confirmOrder,
    'sales.cancel': cancelOrder,
    'sales.createInvoice': createInvoice,
    'purchases.createBill': createBill,
    'accounts.confirmMove': confirmMove,
    'accounts.cancelMove': cancelMove,
    'accounts.payMove': payMove,
    'accounts.reverseMove': reverseMove,
    'accounts.resetMoveToDraft': resetMoveToDraft,
    'purchases.confirm': confirmPurchaseOrder,
    'purchases.cancel': cancelPurchaseOrder,
    'products.syncVariants': syncVariants,
  },
  invalidators: {
    // Roles, grants, users and team members: every process drops its cached permissions on its
    // next request (the bump commits with the write).
    access: bumpAccessVersion,
  },
};
