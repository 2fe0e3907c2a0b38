// filter[f]=<low>..<high>: the records whose number lies between the two, both included; either
// end may be left open (1000.., ..99.99), and one number alone is that number. The syntax of the
// date filter's ranges (./date.ts), on integers, numbers and decimals: the invoices over 1,000,
// the orders between 100 and 500.
import { within } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';
import { parseTypedValue } from './typed-value.ts';

export interface NumberSpan {
  low?: number;
  high?: number;
}

export const range: FilterKind<NumberSpan> = {
  parse(raw, filter) {
    const error = `The filter[${filter.name}] value must be a number or a range of two (low..high, either end open) that does not end below its start.`;
    const parts = raw.split('..').map((part) => part.trim());
    if (parts.length > 2 || parts.every((part) => part === '')) return { error };
    const [low, high] = parts.map((part): number | undefined | null => {
      if (part === '') return undefined;
      const parsed = parseTypedValue(part, filter);
      return 'error' in parsed ? null : (parsed.value as number);
    });
    if (low === null || high === null) return { error };
    if (parts.length === 1) return { value: { low, high: low } };
    if (low !== undefined && high !== undefined && high < low) return { error };
    return { value: { ...(low !== undefined && { low }), ...(high !== undefined && { high }) } };
  },
  condition: ({ low, high }, column) => within(column, low, high),
};
