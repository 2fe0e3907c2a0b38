// The hooks of the inventories module's master data (operation types; the location tree is declared), by the names
// resources/inventories/*.yaml use.
import type { Hook } from '../../../engine/index.ts';
import { createOperationTypeSequence, renameOperationTypeSequence } from './operation-type-sequence.ts';

export const inventoryMasterDataHooks: Record<string, Hook> = {
  'inventories.createOperationTypeSequence': createOperationTypeSequence,
  'inventories.renameOperationTypeSequence': renameOperationTypeSequence,
};
