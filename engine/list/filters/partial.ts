// filter[f]=ab → case-insensitive substring match. %, _ and the escape character match literally.
import type { FilterKind } from './types.ts';

const ESCAPE = '!';

export const partial: FilterKind<string> = {
  parse: (raw) => ({ value: raw }),
  apply(query, value, filter, def) {
    const pattern = `%${value.toLowerCase().replace(/[!%_]/g, (c) => ESCAPE + c)}%`;
    query.whereRaw(`LOWER(??) LIKE ? ESCAPE '${ESCAPE}'`, [`${def.table}.${filter.fieldName}`, pattern]);
  },
};
