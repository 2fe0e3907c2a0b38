// Rounding money the way a bookkeeper does: half away from zero, at a currency's precision,
// without binary floating-point surprises (1.005 → 1.01).

export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  // toPrecision(15) strips the representation error before rounding.
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / factor;
}
