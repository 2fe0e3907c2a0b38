// The resource that shows operations of each type (the operation type's `type`).
export const OPERATION_RESOURCES: Record<string, string> = {
  incoming: 'inventories/receipts',
  outgoing: 'inventories/deliveries',
  internal: 'inventories/internal-transfers',
  dropship: 'inventories/dropships',
};
