import Big from 'big.js';
import { DAILY_FLOW_SERIES, DailyFlow, DailyFlowSeriesKey } from './daily-flow';

/**
 * The chart's figures as plain data for the accessible table beside it: a screen reader skips the
 * picture (role="img") and reads the table, so both come from the same days and show the same
 * strings. No HTML here: the page kit renders it with its own escaping.
 */
export interface DailyFlowsTable {
  caption: string;
  columns: { key: 'date' | DailyFlowSeriesKey; label: string }[];
  rows: (DailyFlow & { dateLabel: string })[];
  /** Each series summed over the days (big.js, two decimals). */
  totals: Record<DailyFlowSeriesKey, string>;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONEY = /^-?\d+(\.\d+)?$/;

/** `2026-03-10` as `10 Mar 2026`: one fixed form, not the server's locale. */
export function dayLabel(date: string, withYear = true): string {
  const [, year, month, day] = DATE.exec(date) ?? [];
  const name = MONTHS[Number(month) - 1];
  const real =
    !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) &&
    new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
  if (!year || !name || !real)
    throw new RangeError(`a day must be a real YYYY-MM-DD, not ${JSON.stringify(date)}`);
  return withYear ? `${Number(day)} ${name} ${year}` : `${Number(day)} ${name}`;
}

/** Refuses what is not a day of decimal strings: a chart of NaN would draw nothing and say nothing. */
export function checkedDays(days: readonly DailyFlow[]): readonly DailyFlow[] {
  for (const day of days) {
    dayLabel(day.date);
    for (const { key } of DAILY_FLOW_SERIES) {
      if (!MONEY.test(day[key]))
        throw new RangeError(
          `${key} of ${day.date} must be a decimal string, not ${JSON.stringify(day[key])}`,
        );
    }
  }
  return days;
}

export function dailyFlowsTable(days: readonly DailyFlow[], caption: string): DailyFlowsTable {
  checkedDays(days);
  const total = (key: DailyFlowSeriesKey) => {
    const sum = days.reduce((acc, day) => acc.plus(day[key]), new Big(0));
    return sum.eq(0) ? '0.00' : sum.toFixed(2); // never -0.00
  };
  return {
    caption,
    columns: [{ key: 'date', label: 'Day' }, ...DAILY_FLOW_SERIES.map(({ key, label }) => ({ key, label }))],
    rows: days.map((day) => ({ ...day, dateLabel: dayLabel(day.date) })),
    totals: {
      paymentsIn: total('paymentsIn'),
      payoutsOut: total('payoutsOut'),
      settlementsOut: total('settlementsOut'),
    },
  };
}
