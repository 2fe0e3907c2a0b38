// filter[f]=ab → case-insensitive substring match. %, _ and the escape character match literally.
// The reference writes it LOWER(f) LIKE '%ab%'. Where the column's LIKE already ignores case (a
// `_ci` collation; SQLite, whose LIKE and LOWER() both fold only ASCII letters) the same rows
// match without LOWER(), which would cost a string per row scanned and the database's CPU.
import { matchesPattern } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';

const ESCAPE = '!';

export const partial: FilterKind<string> = {
  parse: (raw) => ({ value: raw }),
  condition(value, column, _filter, { likeIgnoresCase }) {
    const pattern = `%${value.toLowerCase().replace(/[!%_]/g, (c) => ESCAPE + c)}%`;
    return matchesPattern(column, pattern, ESCAPE, likeIgnoresCase);
  },
};
