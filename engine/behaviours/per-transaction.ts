// A value kept for each unit of writing's transaction (its change set, its record writers), for
// helpers deep in a behaviour that are handed only the transaction. Weakly held: it goes with the
// transaction.

/** `attach` keeps a value for a transaction; `of` gives it back, or throws `missing` for a transaction no unit attached. */
export function perTransaction<T>(missing: string): { attach(trx: object, value: T): void; of(trx: object): T } {
  const byTransaction = new WeakMap<object, T>();
  return {
    attach: (trx, value) => void byTransaction.set(trx, value),
    of(trx) {
      const value = byTransaction.get(trx);
      if (value === undefined) throw new Error(missing);
      return value;
    },
  };
}
