// The hooks of the inventories module's master data (locations and operation types), by the names
// resources/inventories/*.yaml use.
import type { Hook } from '../../../engine/index.ts';
import { prepareLocation, refreshLocationTree } from './location-tree.ts';
import { createOperationTypeSequence, renameOperationTypeSequence } from './operation-type-sequence.ts';

export const inventoryMasterDataHooks: Record<string, Hook> = {
  'inventories.prepareLocation': prepareLocation,
  'inventories.refreshLocationTree': refreshLocationTree,
  'inventories.createOperationTypeSequence': createOperationTypeSequence,
  'inventories.renameOperationTypeSequence': renameOperationTypeSequence,
};
