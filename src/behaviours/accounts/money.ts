// Rounding money the way a bookkeeper does: half away from zero, at a currency's precision,
// without binary floating-point surprises (1.005 → 1.01).

export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  // toPrecision(15) strips the representation error before rounding.
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / factor;
}

/** The decimal places a rounding step is written with: 2 for 0.01 and 0.05, 1 for 0.5, 0 for 1 or 5. */
export function decimalsOf(step: number): number {
  if (!(step > 0)) return 0;
  const written = step.toFixed(12).replace(/0+$/, '');
  return written.length - written.indexOf('.') - 1;
}

/**
 * `value` rounded half away from zero to a multiple of `step`, a currency's rounding (0.01 for the
 * dollar, 1 for the yen, 0.05 for a currency paid in five-cent coins), as Odoo's float_round with
 * precision_rounding; a step of 0 (or less) leaves the value as it is.
 */
export function roundStep(value: number, step: number): number {
  if (!Number.isFinite(value) || !(step > 0)) return value;
  const decimals = decimalsOf(step);
  // A power of ten is its decimal places; any other step counts its multiples.
  if (roundTo(10 ** -decimals, 12) === roundTo(step, 12)) return roundTo(value, decimals);
  const steps = Number((Math.abs(value) / step).toPrecision(15));
  return roundTo(Math.sign(value) * Math.round(steps) * step, decimals);
}

/** A currency's rounding step from its row: `rounding`, else 10^-decimal_places. */
export function stepOf(currency: { rounding?: unknown; decimal_places?: unknown } | undefined): number {
  const rounding = Number(currency?.rounding);
  if (rounding > 0) return rounding;
  const places = Number(currency?.decimal_places ?? 2);
  return Number.isFinite(places) ? roundTo(10 ** -places, places) : 0.01;
}

/**
 * A cash rounding (accounts/cash-roundings): `value` to a multiple of `step` by `method`, `UP`
 * (away from zero), `DOWN` (toward zero) or `HALF-UP` (the nearest, a half away from zero).
 */
export function roundCash(value: number, step: number, method: string): number {
  if (!Number.isFinite(value) || !(step > 0)) return value;
  const steps = Number((Math.abs(value) / step).toPrecision(12));
  const whole = method === 'UP' ? Math.ceil(steps) : method === 'DOWN' ? Math.floor(steps) : Math.round(steps);
  return roundTo(Math.sign(value) * whole * step, Math.max(decimalsOf(step), 0));
}
