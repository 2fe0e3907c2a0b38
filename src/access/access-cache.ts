// Each process keeps users' access in memory, valid for one access version: the authentication
// query reads the current version with the user, and a change anywhere (another process
// included) empties the cache on the next request. So a permission check costs no query.
import type { Access } from './principal.ts';

const MAX_ENTRIES = 10_000;

export class AccessCache {
  private version = -1;
  private readonly entries = new Map<string, Access>();

  /** The cached access for this key at this version, or what `load` reads (then cached). */
  async get(key: string, version: number, load: () => Promise<Access>): Promise<Access> {
    if (version > this.version) {
      this.entries.clear();
      this.version = version;
    } else if (version < this.version) {
      return load(); // a request that read the version just before a change: not worth caching
    }
    const cached = this.entries.get(key);
    if (cached) return cached;
    const access = await load();
    // A newer version may have arrived while loading: that request already cleared the cache.
    if (version === this.version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, access);
    }
    return access;
  }
}
