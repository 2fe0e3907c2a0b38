// The registry: every resource definition, loaded, normalized and linked once at boot
// (load-registry.ts), looked up by name.
import type { ResourceDef } from './types.ts';
export class Registry {
  constructor(readonly resources: ReadonlyMap<string, ResourceDef>) {}

  get(name: string): ResourceDef {
    const def = this.resources.get(name);
    if (!def) throw new Error(`Unknown resource ${name}`);
    return def;
  }

  all(): ResourceDef[] {
    return [...this.resources.values()];
  }
}
