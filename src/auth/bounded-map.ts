// A Map that keeps at most `limit` entries: past it, the oldest entry goes. For the per-process
// caches of tokens (signatures verified, tokens checked), which a client cannot grow unbounded.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
