/** The Home chart: its data type, the SVG renderer and the accessible table's data. */
export * from './daily-flow';
export { dailyFlowsChart, SERIES_COLOURS } from './daily-flows-chart';
export type { DailyFlowsChartOptions } from './daily-flows-chart';
export { dailyFlowsTable, dayLabel } from './daily-flows-table';
export type { DailyFlowsTable } from './daily-flows-table';
