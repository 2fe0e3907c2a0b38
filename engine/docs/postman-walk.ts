// Which workflow actions the runnable Postman collection calls, in what order, and on how many
// records: the walks a definition declares (`walkthrough.records`), then, for the actions left out,
// walks planned from each action's `when` (the values it needs) and `to` (the values it leaves).
import type { ActionDef, FieldDef, ResourceDef } from '../definition/types.ts';

export interface Walk {
  actions: string[];
  /** Reference fields of the record's create body set to the run's record of that resource. */
  with: Record<string, string>;
}

/** The possible values of each column the actions look at. */
type State = Map<string, ReadonlySet<string>>;

const MAX_STEPS = 8;

export function planWalks(def: ResourceDef): Walk[] {
  const walks: Walk[] = def.walkthrough.records.map((record) => ({ actions: [...record.actions], with: { ...record.with } }));
  const covered = new Set(walks.flatMap((walk) => walk.actions));
  // A collection action is called once, ahead of the folder's list (engine/docs/postman.ts), not on a record.
  let uncovered = [...def.actions.values()].filter((action) => action.on !== 'collection' && !covered.has(action.name)).map((action) => action.name);
  while (uncovered.length > 0) {
    const actions: string[] = [];
    let state = initialState(def);
    for (;;) {
      const path = shortestPathToOneOf(def, state, uncovered);
      if (!path) break;
      for (const name of path) state = apply(def.actions.get(name)!, state);
      actions.push(...path);
      uncovered = uncovered.filter((name) => !path.includes(name));
    }
    // Not reachable from a new record: called on one anyway, where its refusal shows in the run.
    if (actions.length === 0) actions.push(uncovered.shift()!);
    walks.push({ actions, with: {} });
  }
  return walks;
}

/** A new record: each column at its default, else its first allowed value, else unknown (any). */
function initialState(def: ResourceDef): State {
  const state: State = new Map();
  for (const action of def.actions.values()) {
    for (const column of [...Object.keys(action.when ?? {}), ...Object.keys(action.to ?? {})]) {
      if (state.has(column)) continue;
      const start = startValue(def.fields.get(column));
      state.set(column, new Set(start === undefined ? [] : [start]));
    }
  }
  return state;
}

function startValue(field: FieldDef | undefined): string | undefined {
  if (field?.default !== undefined) return String(field.default);
  if (field?.type === 'boolean') return 'false'; // the column's default
  return field?.enum?.[0];
}

function allows(action: ActionDef, state: State): boolean {
  return Object.entries(action.when ?? {}).every(([column, values]) => {
    const possible = state.get(column);
    return possible !== undefined && possible.size > 0 && [...possible].every((value) => values.map(String).includes(value));
  });
}

function apply(action: ActionDef, state: State): State {
  const next: State = new Map(state);
  for (const [column, values] of Object.entries(action.to ?? {})) next.set(column, new Set(values));
  return next;
}

const keyOf = (state: State) => JSON.stringify([...state].map(([column, values]) => [column, [...values].sort()]).sort());

/** The fewest actions from `state` that end with one of `targets` (the first declared wins a tie). */
function shortestPathToOneOf(def: ResourceDef, start: State, targets: string[]): string[] | undefined {
  let frontier: Array<{ state: State; path: string[] }> = [{ state: start, path: [] }];
  const seen = new Set([keyOf(start)]);
  for (let depth = 0; depth < MAX_STEPS && frontier.length > 0; depth++) {
    for (const { state, path } of frontier) {
      const target = targets.find((name) => allows(def.actions.get(name)!, state));
      if (target) return [...path, target];
    }
    const next: typeof frontier = [];
    for (const { state, path } of frontier) {
      for (const action of def.actions.values()) {
        if (action.on === 'collection' || !allows(action, state)) continue;
        const after = apply(action, state);
        const key = keyOf(after);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ state: after, path: [...path, action.name] });
      }
    }
    frontier = next;
  }
  return undefined;
}
