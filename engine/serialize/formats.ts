// Value formats of the contract: timestamps with microseconds and Z, decimals as fixed strings.

/** `2025-01-31 09:30:00.123` (as stored, UTC) or a Date → `2025-01-31T09:30:00.123000Z`. */
export function formatTimestamp(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return `${value.toISOString().slice(0, 23)}000Z`;
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/.exec(String(value));
  if (!match) return String(value);
  const fraction = (match[3] ?? '').padEnd(6, '0').slice(0, 6);
  return `${match[1]}T${match[2] ?? '00:00:00'}.${fraction}Z`;
}

/** A date column is returned as midnight UTC of that day. */
export function formatDate(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return `${value.toISOString().slice(0, 10)}T00:00:00.000000Z`;
  return `${String(value).slice(0, 10)}T00:00:00.000000Z`;
}

/**
 * A decimal as a string with exactly `scale` places. MySQL returns DECIMAL as a string
 * ("0.0100"), SQLite as a number (0.01): both come out the same.
 */
export function formatDecimal(value: unknown, scale: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'number' ? value.toFixed(scale) : String(value);
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return Number(text).toFixed(scale);
  const fraction = match[3] ?? '';
  if (fraction.length > scale) return Number(text).toFixed(scale);
  return `${match[1]}${match[2] || '0'}${scale > 0 ? `.${fraction.padEnd(scale, '0')}` : ''}`;
}

/** Now, as the engine stores timestamps: UTC, microsecond precision, sortable as text. */
export function nowTimestamp(): string {
  return `${new Date().toISOString().slice(0, 23).replace('T', ' ')}000`;
}
