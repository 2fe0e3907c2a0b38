// Runs the named behaviours a definition lists for one phase, inside the write's transaction.
import type { Behaviours as PhaseNames } from '../definition/types.ts';
import type { HookContext } from '../behaviours/types.ts';
import type { ResourceRuntime } from './runtime.ts';

export async function runHooks(runtime: ResourceRuntime, phase: keyof PhaseNames, context: HookContext): Promise<void> {
  for (const name of runtime.def.behaviours[phase]) await runtime.deps.behaviours.hooks[name]!(context);
}
