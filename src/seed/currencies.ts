// ISO 4217 currencies from the currency-codes package (names, numeric codes, minor units) with
// symbols from currency-symbol-map. USD comes first (id 1) and is the only active one, as in the
// original installation.
import currencyCodes from 'currency-codes';
import getSymbolFromCurrency from 'currency-symbol-map';
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';
import { insertMissing } from './insert-missing.ts';

export async function seedCurrencies(knex: Knex): Promise<number> {
  const now = nowTimestamp();
  const rows = currencyCodes.data
    .filter((currency) => /^[A-Z]{3}$/.test(currency.code))
    .sort((a, b) => (a.code === 'USD' ? -1 : b.code === 'USD' ? 1 : a.code.localeCompare(b.code)))
    .map((currency) => ({
      name: currency.code,
      symbol: getSymbolFromCurrency(currency.code) ?? currency.code,
      iso_numeric: currency.number || null,
      decimal_places: currency.digits,
      full_name: currency.currency,
      rounding: currency.digits > 0 ? Number((10 ** -currency.digits).toFixed(currency.digits)) : 1,
      active: currency.code === 'USD',
      created_at: now,
      updated_at: now,
    }));
  return insertMissing(knex, 'currencies', 'name', rows);
}
