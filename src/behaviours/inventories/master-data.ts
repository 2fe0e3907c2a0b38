// The hooks of the inventories module's master data (locations, operation types, rules, package
// types), by the names resources/inventories/*.yaml use.
import type { Hook } from '../../../engine/index.ts';
import { defaultCompany } from './default-company.ts';
import { prepareLocation, refreshLocationTree } from './location-tree.ts';
import { createOperationTypeSequence, renameOperationTypeSequence } from './operation-type-sequence.ts';
import { prepareRule } from './prepare-rule.ts';

export const inventoryMasterDataHooks: Record<string, Hook> = {
  'inventories.defaultCompany': defaultCompany,
  'inventories.prepareLocation': prepareLocation,
  'inventories.refreshLocationTree': refreshLocationTree,
  'inventories.prepareRule': prepareRule,
  'inventories.createOperationTypeSequence': createOperationTypeSequence,
  'inventories.renameOperationTypeSequence': renameOperationTypeSequence,
};
