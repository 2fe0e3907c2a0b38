// filter[f]=ab → case-insensitive substring match. %, _ and the escape character match literally.
// The reference writes it LOWER(f) LIKE '%ab%'. SQLite's LIKE already ignores the case of ASCII
// letters and its LOWER() folds nothing else, so there the LOWER() would only cost a string per row.
import type { FilterKind } from './types.ts';

const ESCAPE = '!';

export const partial: FilterKind<string> = {
  parse: (raw) => ({ value: raw }),
  condition(value, column, _filter, dialect) {
    const pattern = `%${value.toLowerCase().replace(/[!%_]/g, (c) => ESCAPE + c)}%`;
    const folded = dialect === 'sqlite' ? column : `LOWER(${column})`;
    return { sql: `${folded} LIKE ? ESCAPE '${ESCAPE}'`, params: [pattern] };
  },
};
