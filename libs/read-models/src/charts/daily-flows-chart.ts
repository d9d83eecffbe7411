import { niceScale } from './chart-scale';
import { DAILY_FLOW_SERIES, DailyFlow, DailyFlowSeriesKey } from './daily-flow';
import { dailyFlowsTable, dayLabel } from './daily-flows-table';
import { escapeXml } from './svg-text';

/**
 * The Home chart as SVG markup, rendered on the server: grouped bars, one group a day, one bar a
 * series (payments in, payouts out, settlements out), a legend, a value axis from zero with round
 * ticks and day labels. Pages carry a strict Content-Security-Policy, so the markup has no script,
 * no event handler, no `style` attribute or element and nothing fetched: colours and fonts are
 * presentation attributes, which CSP does not govern, and each element has a class for the page's
 * stylesheet to restyle. Every text is escaped (svg-text.ts). `role="img"` with a title and a
 * description makes the picture one labelled image to a screen reader; the figures themselves are
 * for the table beside it (dailyFlowsTable), built from the same days.
 */
export interface DailyFlowsChartOptions {
  /** Prefix of the chart's element ids; unique on the page (two charts must not share ids). */
  id: string;
  title: string;
  currency: string;
  /** The accessible description; by default the window and each series' total. */
  description?: string;
  /** The day axis's label, e.g. `Day (Europe/London)`. */
  xAxisLabel?: string;
  width?: number;
  height?: number;
}

/** Okabe and Ito's colour-blind-safe palette: blue, orange, bluish green. */
export const SERIES_COLOURS: Record<DailyFlowSeriesKey, string> = {
  paymentsIn: '#0072B2',
  payoutsOut: '#E69F00',
  settlementsOut: '#009E73',
};

const SERIES_CLASS: Record<DailyFlowSeriesKey, string> = {
  paymentsIn: 'series-payments-in',
  payoutsOut: 'series-payouts-out',
  settlementsOut: 'series-settlements-out',
};

const ID = /^[A-Za-z][\w-]*$/;
const MARGIN = { top: 40, right: 12, bottom: 56, left: 76 };
const TEXT_COLOUR = '#333333';
const GRID_COLOUR = '#DDDDDD';
const MAX_DAY_LABELS = 6;

const px = (n: number): string => String(Math.round(n * 100) / 100);

/** A tick label: cents for small figures, K, M or B beyond ten thousand so the axis stays narrow. */
export function tickLabel(value: number, decimals: number): string {
  const size = Math.abs(value);
  for (const [divisor, suffix] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e4, 'K'],
  ] as const) {
    if (size >= divisor) return `${Number((value / divisor).toFixed(2))}${suffix}`;
  }
  return value.toFixed(decimals);
}

function defaultDescription(days: readonly DailyFlow[], currency: string): string {
  if (days.length === 0) return `No days to show in ${currency}.`;
  const { totals } = dailyFlowsTable(days, '');
  const sums = DAILY_FLOW_SERIES.map(({ key, label }) => `${label.toLowerCase()} ${totals[key]}`).join(', ');
  return `${DAILY_FLOW_SERIES.map((s) => s.label).join(', ')} per day in ${currency}, ${dayLabel(days[0]!.date)} to ${dayLabel(days[days.length - 1]!.date)}. Totals: ${sums}. The table lists every day.`;
}

export function dailyFlowsChart(days: readonly DailyFlow[], options: DailyFlowsChartOptions): string {
  if (!ID.test(options.id))
    throw new RangeError(
      `a chart id must be a letter then letters, digits, _ or -, not ${JSON.stringify(options.id)}`,
    );
  dailyFlowsTable(days, ''); // refuses a malformed day before anything is drawn
  const width = options.width ?? 720;
  const height = options.height ?? 320;
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top,
    right: width - MARGIN.right,
    bottom: height - MARGIN.bottom,
  };
  if (plot.right - plot.left < 60 || plot.bottom - plot.top < 60)
    throw new RangeError(`a chart of ${width}×${height} is too small to draw`);
  const titleId = `${options.id}-title`;
  const descId = `${options.id}-desc`;
  const description = options.description ?? defaultDescription(days, options.currency);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="daily-flows-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${titleId} ${descId}" font-family="system-ui, sans-serif" font-size="12" fill="${TEXT_COLOUR}">`,
    `<title id="${titleId}">${escapeXml(options.title)}</title>`,
    `<desc id="${descId}">${escapeXml(description)}</desc>`,
  ];
  if (days.length === 0) {
    parts.push(
      `<text class="empty" x="${px(width / 2)}" y="${px(height / 2)}" text-anchor="middle">No data for this period</text>`,
      '</svg>',
    );
    return parts.join('');
  }

  parts.push(legend(plot.left));
  const values = days.flatMap((day) => DAILY_FLOW_SERIES.map(({ key }) => Number(day[key])));
  const scale = niceScale(values);
  const y = (value: number) =>
    plot.bottom - ((value - scale.min) / (scale.max - scale.min)) * (plot.bottom - plot.top);

  parts.push('<g class="value-axis">');
  for (const tick of scale.ticks) {
    parts.push(
      `<line class="grid" x1="${plot.left}" x2="${plot.right}" y1="${px(y(tick))}" y2="${px(y(tick))}" stroke="${GRID_COLOUR}" stroke-width="1"/>`,
      `<text class="tick" x="${plot.left - 6}" y="${px(y(tick) + 4)}" text-anchor="end">${escapeXml(tickLabel(tick, scale.decimals))}</text>`,
    );
  }
  parts.push('</g>');

  const groupWidth = (plot.right - plot.left) / days.length;
  const barWidth = (groupWidth * 0.8) / DAILY_FLOW_SERIES.length;
  const zero = y(0);
  parts.push('<g class="bars">');
  days.forEach((day, i) => {
    parts.push(`<g class="day" data-date="${escapeXml(day.date)}">`);
    DAILY_FLOW_SERIES.forEach(({ key, label }, s) => {
      const value = Number(day[key]);
      if (value === 0) return; // a zero bar has no height; the table still lists the zero
      const top = Math.min(y(value), zero);
      const x = plot.left + i * groupWidth + groupWidth * 0.1 + s * barWidth;
      parts.push(
        `<rect class="bar ${SERIES_CLASS[key]}" x="${px(x)}" y="${px(top)}" width="${px(barWidth)}" height="${px(Math.abs(y(value) - zero))}" fill="${SERIES_COLOURS[key]}">`,
        `<title>${escapeXml(`${dayLabel(day.date)}: ${label} ${day[key]} ${options.currency}`)}</title></rect>`,
      );
    });
    parts.push('</g>');
  });
  parts.push('</g>');
  parts.push(
    `<line class="zero" x1="${plot.left}" x2="${plot.right}" y1="${px(zero)}" y2="${px(zero)}" stroke="${TEXT_COLOUR}" stroke-width="1"/>`,
  );

  // At most six day labels, counted back from the last day so today is always labelled.
  const every = Math.ceil(days.length / MAX_DAY_LABELS);
  parts.push('<g class="day-axis">');
  days.forEach((day, i) => {
    if ((days.length - 1 - i) % every !== 0) return;
    const x = plot.left + (i + 0.5) * groupWidth;
    parts.push(
      `<text class="tick" x="${px(x)}" y="${plot.bottom + 16}" text-anchor="middle">${escapeXml(dayLabel(day.date, false))}</text>`,
    );
  });
  parts.push('</g>');

  const middleY = (plot.top + plot.bottom) / 2;
  parts.push(
    `<text class="axis-label" x="${px((plot.left + plot.right) / 2)}" y="${height - 12}" text-anchor="middle">${escapeXml(options.xAxisLabel ?? 'Day')}</text>`,
    `<text class="axis-label" x="16" y="${px(middleY)}" text-anchor="middle" transform="rotate(-90 16 ${px(middleY)})">${escapeXml(`Amount (${options.currency})`)}</text>`,
    '</svg>',
  );
  return parts.join('');
}

/** One swatch and name a series, in a row above the plot. */
function legend(left: number): string {
  const items = DAILY_FLOW_SERIES.map(({ key, label }, i) => {
    const x = left + i * 150;
    return (
      `<g class="legend-item">` +
      `<rect class="swatch ${SERIES_CLASS[key]}" x="${x}" y="12" width="12" height="12" fill="${SERIES_COLOURS[key]}"/>` +
      `<text x="${x + 18}" y="22">${escapeXml(label)}</text></g>`
    );
  });
  return `<g class="legend">${items.join('')}</g>`;
}
