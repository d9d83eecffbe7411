/**
 * A value axis with round ticks that always includes zero: bars grow from zero, so an axis that
 * started at the smallest value would draw a day of 90 as nine times a day of 10 plus nothing.
 * Ticks are 1, 2, 2.5 or 5 times a power of ten, never finer than a cent.
 */
export interface ChartScale {
  min: number;
  max: number;
  /** Tick values from min to max, each exact to its decimals. */
  ticks: number[];
  /** Decimals a tick label needs: 0 for whole steps, up to 2 for cents. */
  decimals: number;
}

const MANTISSAS = [1, 2, 2.5, 5, 10];

/** The decimals `x` needs, or 3 when it needs more than a cent's two. */
function decimalsOf(x: number): number {
  for (let d = 0; d <= 2; d += 1) {
    const scaled = x * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 3;
}

export function niceScale(values: readonly number[], targetTicks = 5): ChartScale {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  // All zero (or no values at all): an axis from 0 to 1, not a division by zero.
  const span = high - low || 1;
  const rough = Math.max(span / Math.max(1, targetTicks - 1), 0.01);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = MANTISSAS.map((m) => m * power).find((s) => s >= rough * (1 - 1e-9) && decimalsOf(s) <= 2)!;
  const decimals = decimalsOf(step);
  const first = Math.floor(low / step + 1e-9);
  const last = Math.max(first + 1, Math.ceil((high === low ? low + 1 : high) / step - 1e-9));
  const ticks: number[] = [];
  // Each tick from its index, rounded to its decimals: adding the step up would carry float error;
  // `|| 0` turns the -0 of a negative index times zero into 0.
  for (let i = first; i <= last; i += 1) ticks.push(Number((i * step).toFixed(decimals)) || 0);
  return { min: ticks[0]!, max: ticks[ticks.length - 1]!, ticks, decimals };
}
