import type { DailyFlow } from './daily-flow';
import { dailyFlowsChart, tickLabel } from './daily-flows-chart';
import { niceScale } from './chart-scale';
import { dailyFlowsTable } from './daily-flows-table';
import { escapeXml } from './svg-text';

const day = (date: string, paymentsIn = '0.00', payoutsOut = '0.00', settlementsOut = '0.00'): DailyFlow => ({
  date,
  paymentsIn,
  payoutsOut,
  settlementsOut,
});

/** 30 days from 9 February 2026; `figures` sets some of them. */
function month(figures: Record<number, [string, string, string]> = {}): DailyFlow[] {
  return Array.from({ length: 30 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 1, 9 + i)).toISOString().slice(0, 10);
    const f = figures[i];
    return f ? day(date, ...f) : day(date);
  });
}

const OPTIONS = { id: 'home-chart', title: 'Last 30 days', currency: 'USD' };

/**
 * A small well-formedness check: tags nest and close, attributes are name="value" with no raw
 * `<` or `&` outside an entity. Enough to catch an unescaped text breaking out of its element.
 */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < svg.length) {
    const next = svg.indexOf('<', i);
    const text = svg.slice(i, next === -1 ? svg.length : next);
    if (/&(?!(amp|lt|gt|quot|#39);)/.test(text) || text.includes('>'))
      throw new Error(`bad text ${JSON.stringify(text)}`);
    if (next === -1) break;
    tag.lastIndex = next;
    const m = tag.exec(svg);
    if (!m) throw new Error(`bad tag at ${next}: ${svg.slice(next, next + 60)}`);
    const [, closing, name, attributes, selfClosing] = m;
    if (/&(?!(amp|lt|gt|quot|#39);)/.test(attributes!)) throw new Error(`bad attribute in ${m[0]}`);
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
    } else if (!selfClosing) stack.push(name!);
    i = tag.lastIndex;
  }
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(', ')}`);
}

/** The bars as numbers: [class, y, height]. */
const bars = (svg: string) =>
  [
    ...svg.matchAll(/<rect class="bar ([\w-]+)" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g),
  ].map((m) => ({
    series: m[1],
    y: Number(m[2]),
    height: Number(m[3]),
  }));

const zeroLine = (svg: string) => Number(/<line class="zero"[^>]* y1="([\d.]+)"/.exec(svg)![1]);

describe('dailyFlowsChart', () => {
  it('is one labelled image: role img, labelled by its own title and description', () => {
    const svg = dailyFlowsChart(month({ 29: ['14.55', '20.50', '40.00'] }), OPTIONS);
    assertWellFormed(svg);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-labelledby="home-chart-title home-chart-desc"/,
    );
    expect(svg).toContain('<title id="home-chart-title">Last 30 days</title>');
    expect(svg).toMatch(
      /<desc id="home-chart-desc">Payments in, Payouts out, Settlements out per day in USD, 9 Feb 2026 to 10 Mar 2026\. Totals: payments in 14\.55, payouts out 20\.50, settlements out 40\.00\./,
    );
  });

  it('has nothing a strict CSP blocks: no script, handler, style, link or foreign content', () => {
    const svg = dailyFlowsChart(month({ 3: ['1.00', '2.00', '3.00'] }), {
      ...OPTIONS,
      title: '<script>alert(1)</script>',
    });
    expect(svg).not.toMatch(/<script|<style|\sstyle=|\son\w+=|href=|<foreignObject|<image|url\(/i);
  });

  it('draws a legend of the three series and one bar per non-zero figure, grouped by day', () => {
    const svg = dailyFlowsChart(
      month({ 0: ['5.00', '0.00', '0.00'], 29: ['14.55', '20.50', '40.00'] }),
      OPTIONS,
    );
    expect(
      [
        ...svg.matchAll(
          /<g class="legend-item"><rect class="swatch (series-[\w-]+)"[^>]*\/><text[^>]*>([^<]+)<\/text><\/g>/g,
        ),
      ].map((m) => [m[1], m[2]]),
    ).toEqual([
      ['series-payments-in', 'Payments in'],
      ['series-payouts-out', 'Payouts out'],
      ['series-settlements-out', 'Settlements out'],
    ]);
    expect(bars(svg).map((b) => b.series)).toEqual([
      'series-payments-in',
      'series-payments-in',
      'series-payouts-out',
      'series-settlements-out',
    ]);
    expect(svg.match(/<g class="day" data-date="[\d-]+">/g)).toHaveLength(30);
    // Each bar says its exact figure when pointed at.
    expect(svg).toContain('<title>10 Mar 2026: Payouts out 20.50 USD</title>');
  });

  it('scales bar heights in proportion to the figures, from a zero line', () => {
    const svg = dailyFlowsChart(month({ 29: ['10.00', '20.00', '40.00'] }), OPTIONS);
    const [a, b, c] = bars(svg);
    expect(b!.height / a!.height).toBeCloseTo(2, 2);
    expect(c!.height / a!.height).toBeCloseTo(4, 2);
    for (const bar of [a!, b!, c!]) expect(bar.y + bar.height).toBeCloseTo(zeroLine(svg), 1);
  });

  it('draws a negative figure below the zero line and gives the axis negative ticks', () => {
    const svg = dailyFlowsChart(month({ 29: ['30.00', '-10.00', '0.00'] }), OPTIONS);
    const [up, down] = bars(svg);
    const zero = zeroLine(svg);
    expect(up!.y + up!.height).toBeCloseTo(zero, 1);
    expect(down!.y).toBeCloseTo(zero, 1);
    expect(up!.height / down!.height).toBeCloseTo(3, 2);
    expect(svg).toMatch(/<text class="tick"[^>]*>-10<\/text>/);
  });

  it('labels the value axis of large figures in K, M and B, and keeps exact figures in the bar titles', () => {
    const svg = dailyFlowsChart(month({ 29: ['1234567890.12', '0.00', '0.00'] }), OPTIONS);
    expect(svg).toMatch(/<text class="tick"[^>]*>1\.5B<\/text>/);
    expect(svg).toContain('Payments in 1234567890.12 USD');
  });

  it('draws an all-zero month as an empty axis from 0 to 1, with no bars and no NaN', () => {
    const svg = dailyFlowsChart(month(), OPTIONS);
    assertWellFormed(svg);
    expect(bars(svg)).toEqual([]);
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(svg).toMatch(/<text class="tick"[^>]*>1\.00<\/text>/);
  });

  it('says there is no data when there are no days, still as a labelled image', () => {
    const svg = dailyFlowsChart([], OPTIONS);
    assertWellFormed(svg);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('No data for this period');
    expect(svg).toContain('<desc id="home-chart-desc">No days to show in USD.</desc>');
    expect(svg).not.toContain('<rect');
  });

  it('labels at most six days, the last always', () => {
    const svg = dailyFlowsChart(month(), OPTIONS);
    const labels = [...svg.matchAll(/<g class="day-axis">(.*?)<\/g>/g)][0]![1]!.match(/>[^<]+</g);
    expect(labels).toEqual(['>13 Feb<', '>18 Feb<', '>23 Feb<', '>28 Feb<', '>5 Mar<', '>10 Mar<']);
  });

  it('escapes every text it is given, in content and in attributes', () => {
    const svg = dailyFlowsChart(month({ 29: ['1.00', '0.00', '0.00'] }), {
      ...OPTIONS,
      title: 'Tom & "Jerry" <b>',
      description: "it's </desc><script>",
      currency: '<U>',
      xAxisLabel: 'Day (Europe/London) & more',
    });
    assertWellFormed(svg);
    expect(svg).toContain('<title id="home-chart-title">Tom &amp; &quot;Jerry&quot; &lt;b&gt;</title>');
    expect(svg).toContain('<desc id="home-chart-desc">it&#39;s &lt;/desc&gt;&lt;script&gt;</desc>');
    expect(svg).toContain('Amount (&lt;U&gt;)');
    expect(svg).toContain('Day (Europe/London) &amp; more');
  });

  it('refuses an id that cannot be an element id, a malformed day and a size too small to draw', () => {
    expect(() => dailyFlowsChart([], { ...OPTIONS, id: 'x" onload="alert(1)' })).toThrow(RangeError);
    expect(() => dailyFlowsChart([], { ...OPTIONS, id: '1chart' })).toThrow(RangeError);
    expect(() => dailyFlowsChart([day('2026-03-10', 'NaN')], OPTIONS)).toThrow(
      /paymentsIn of 2026-03-10 must be a decimal string/,
    );
    expect(() => dailyFlowsChart([day('2026-02-30')], OPTIONS)).toThrow(/YYYY-MM-DD/);
    expect(() => dailyFlowsChart([day('10/03/2026')], OPTIONS)).toThrow(/YYYY-MM-DD/);
    expect(() => dailyFlowsChart(month(), { ...OPTIONS, width: 100 })).toThrow(/too small/);
  });
});

describe('dailyFlowsTable', () => {
  it('gives the same figures as plain data, with day labels and big.js totals', () => {
    const days = [day('2026-03-09', '0.10', '0.00', '0.00'), day('2026-03-10', '0.20', '20.50', '-0.00')];
    expect(dailyFlowsTable(days, 'Last 2 days')).toEqual({
      caption: 'Last 2 days',
      columns: [
        { key: 'date', label: 'Day' },
        { key: 'paymentsIn', label: 'Payments in' },
        { key: 'payoutsOut', label: 'Payouts out' },
        { key: 'settlementsOut', label: 'Settlements out' },
      ],
      rows: [
        { ...days[0], dateLabel: '9 Mar 2026' },
        { ...days[1], dateLabel: '10 Mar 2026' },
      ],
      // 0.1 + 0.2 is 0.30 exactly, and a sum of -0.00 is 0.00.
      totals: { paymentsIn: '0.30', payoutsOut: '20.50', settlementsOut: '0.00' },
    });
  });

  it('refuses a figure that is not a decimal string', () => {
    expect(() => dailyFlowsTable([day('2026-03-10', '1e3')], '')).toThrow(RangeError);
  });
});

describe('niceScale and tick labels', () => {
  it.each([
    [[0, 0], [0, 0.25, 0.5, 0.75, 1], 2],
    [[96.8], [0, 25, 50, 75, 100], 0],
    [[0.03], [0, 0.01, 0.02, 0.03], 2],
    [[-10, 30], [-10, 0, 10, 20, 30], 0],
    [[1234567890.12], [0, 500000000, 1000000000, 1500000000], 0],
  ])('gives round ticks from zero for %j', (values, ticks, decimals) => {
    expect(niceScale(values)).toEqual({ min: ticks[0], max: ticks[ticks.length - 1], ticks, decimals });
  });

  it('labels ticks with their decimals, or in K, M and B', () => {
    expect([
      tickLabel(0.25, 2),
      tickLabel(-10, 0),
      tickLabel(12500, 0),
      tickLabel(2500000, 0),
      tickLabel(1.5e9, 0),
    ]).toEqual(['0.25', '-10', '1.25K', '2.5M', '1.5B']);
  });

  it('escapes the five XML specials and drops characters XML cannot hold', () => {
    expect(escapeXml(`<a href="x">&'\u0001\u0008\u000B`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(escapeXml('tab\tand\nnewline')).toBe('tab\tand\nnewline');
  });
});
