// Database errors a client can cause (a race past validation), mapped to client errors.
import type { ResourceDef } from '../definition/types.ts';
import { ConflictError, ValidationError, type HttpError } from './http-errors.ts';

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
}

/** Returns the client error for a constraint violation, or undefined for a real server fault. */
export function clientErrorFromDb(error: unknown, def: ResourceDef, deleting = false): HttpError | undefined {
  const e = error as DriverError;
  const message = e?.message ?? '';
  if (e?.code === 'ER_DUP_ENTRY' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const field = uniqueField(message, def);
    if (field) return new ValidationError({ [field]: [`The ${def.fields.get(field)!.label} has already been taken.`] });
    return new ConflictError(`The ${def.label} conflicts with an existing record.`);
  }
  // SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint.
  const sqliteRestrict = e?.code === 'SQLITE_CONSTRAINT_TRIGGER' && /FOREIGN KEY/i.test(message);
  const foreignKey = ['ER_ROW_IS_REFERENCED_2', 'ER_ROW_IS_REFERENCED', 'ER_NO_REFERENCED_ROW_2', 'SQLITE_CONSTRAINT_FOREIGNKEY'];
  if ((foreignKey.includes(e?.code ?? '') || sqliteRestrict) && deleting) {
    return new ConflictError(`The ${def.label} cannot be deleted because other records still refer to it.`);
  }
  if (foreignKey.includes(e?.code ?? '')) {
    return new ConflictError(`The ${def.label} refers to a record that no longer exists.`);
  }
  return undefined;
}

// MySQL names the index (`<table>_<column>_unique`), SQLite the columns (`table.column, ...`). A key
// of several columns names no one field: a conflict with an existing record.
function uniqueField(message: string, def: ResourceDef): string | undefined {
  const sqliteColumns = /UNIQUE constraint failed: (.*)$/.exec(message)?.[1]?.split(', ');
  for (const field of def.fields.values()) {
    if (message.includes(`${def.table}_${field.name}_unique`)) return field.name;
    if (sqliteColumns?.length === 1 && sqliteColumns[0] === `${def.table}.${field.name}`) return field.name;
  }
  return undefined;
}
