// A resource's own rows updated with values of their own, set-based (engine/sql/update-each.ts):
// the computed rows of a document (its journal items) and the stock ledger's moves, which are the
// implementation of the resource that writes them. Another resource's records are updated with
// `records(name).updateEach`, which records their changes.
export { updateEach as updateRows } from '../../../engine/index.ts';
