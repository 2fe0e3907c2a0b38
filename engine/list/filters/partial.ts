// filter[f]=ab → case-insensitive substring match. %, _ and the escape character match literally.
import type { FilterKind } from './types.ts';

const ESCAPE = '!';

export const partial: FilterKind<string> = {
  parse: (raw) => ({ value: raw }),
  condition(value, column) {
    const pattern = `%${value.toLowerCase().replace(/[!%_]/g, (c) => ESCAPE + c)}%`;
    return { sql: `LOWER(${column}) LIKE ? ESCAPE '${ESCAPE}'`, params: [pattern] };
  },
};
