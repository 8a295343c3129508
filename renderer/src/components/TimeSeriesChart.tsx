// A small line chart over time (uPlot, canvas): a picture for the eye, never the record. Its values are JavaScript
// numbers, converted by the caller for plotting only; the legend under it names each line and, under the pointer,
// shows the time (in the desk's reporting time zone, the zone named) and each line's exact text as the caller gives it
// (a decimal string, never the plotted number); the axes are labelled in the person's locale and the value axis is as
// wide as its longest label. Every screen that shows one puts the exact figures in a table beside it, and the chart
// carries a text alternative naming what it shows (assistive technology reads the table).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { displayLocale, formatDateTime } from '../format';
import { t } from '../i18n';
import { useReportingTimeZone } from './DateTime';

export interface ChartSeries {
  readonly label: string;
  /** One value per time, for the picture only; null leaves a gap. */
  readonly values: readonly (number | null)[];
  /** What the legend shows at each time (the exact figure, grouped for reading); without it, the plotted number. */
  readonly texts?: readonly string[];
  /** A CSS colour for the line. */
  readonly stroke: string;
}

interface TimeSeriesChartProps {
  /** What the chart shows, in one sentence: its text alternative. */
  readonly description: string;
  /** Milliseconds since the epoch, ascending, one per value. */
  readonly times: readonly number[];
  readonly series: readonly ChartSeries[];
  /** Draw steps (a balance holds until it changes) instead of straight lines between points. */
  readonly stepped?: boolean;
  readonly height?: number;
  readonly testId?: string;
}

const DEFAULT_WIDTH = 640;
const MINUTE_SECONDS = 60;
const DAY_SECONDS = 86_400;
/** The axes' labels (the e2e test measures the value labels in it). */
const AXIS_FONT = '12px system-ui, sans-serif';
/** Shown in the legend while the pointer is not over the chart. */
const NO_VALUE = '–';

/** Tick labels of the time axis, in the reporting zone: seconds, minutes or dates, by how far apart the ticks are. */
function timeTickFormatter(locale: string, timeZone: string): (splits: readonly number[], increment: number) => string[] {
  const seconds = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const clock = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit' });
  const date = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short' });
  const formatFor = (increment: number): Intl.DateTimeFormat => (increment < MINUTE_SECONDS ? seconds : increment < DAY_SECONDS ? clock : date);
  return (splits, increment) => splits.map((at) => formatFor(increment).format(at * 1000));
}

/** The value axis's width: its tick length, gap and longest label as drawn (uPlot's canvas font), so no label is cut. */
function valueAxisSize(self: uPlot, values: string[] | undefined, axisIndex: number, cycle: number): number {
  const axis = self.axes[axisIndex];
  // uPlot keeps the size it settled on; after two passes take it, as its auto-size example does.
  const settled = (axis as { _size?: number } | undefined)?._size;
  if (cycle > 1 && settled !== undefined) return settled;
  const longest = (values ?? []).reduce((widest, value) => (value.length > widest.length ? value : widest), '');
  // uPlot keeps the font scaled to the device's pixel ratio as the first item of `font` once the chart is built.
  self.ctx.font = (axis?.font as unknown as readonly [string] | undefined)?.[0] ?? AXIS_FONT;
  const ticks = typeof axis?.ticks === 'object' ? (axis.ticks.size ?? 10) : 10;
  const gap = axis?.gap ?? 5;
  return Math.ceil(ticks + gap * 2 + self.ctx.measureText(longest).width / (window.devicePixelRatio || 1));
}

export function TimeSeriesChart({ description, times, series, stepped = false, height = 180, testId }: TimeSeriesChartProps): React.JSX.Element {
  const container = useRef<HTMLDivElement>(null);
  const timeZone = useReportingTimeZone();
  useEffect(() => {
    const element = container.current;
    if (element === null) return undefined;
    const locale = displayLocale();
    const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 8 });
    const timeTicks = timeTickFormatter(locale, timeZone);
    const width = (): number => Math.max(240, element.clientWidth || DEFAULT_WIDTH);
    const paths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
    const chart = new uPlot(
      {
        width: width(),
        height,
        legend: { show: true, live: true },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: true } },
        // uPlot's time axis counts seconds; its own date arithmetic runs in the reporting zone.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
        axes: [
          { font: AXIS_FONT, values: (_self, splits, _axis, _space, increment) => timeTicks(splits, increment) },
          {
            font: AXIS_FONT,
            values: (_self, splits) => {
              const labels = splits.map((value) => numbers.format(value));
              // The labels drawn, for a reader of the page's structure (the e2e test checks that the axis fits them).
              element.dataset['valueTicks'] = JSON.stringify(labels);
              return labels;
            },
            size: valueAxisSize,
          },
        ],
        series: [
          { label: t('history.chart.time'), value: (_self, seconds) => (seconds === null ? NO_VALUE : formatDateTime(seconds * 1000, timeZone, locale)) },
          ...series.map((line) => ({
            label: line.label,
            stroke: line.stroke,
            width: 2,
            value: (_self: uPlot, raw: number | null, _index: number, at: number | null): string => {
              if (at === null || raw === null) return NO_VALUE;
              return line.texts?.[at] ?? numbers.format(raw);
            },
            ...(paths === undefined ? {} : { paths }),
          })),
        ],
      },
      [times.map((ms) => ms / 1000), ...series.map((line) => [...line.values])],
      element,
    );
    const resize = (): void => chart.setSize({ width: width(), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [times, series, stepped, height, timeZone]);
  return <div ref={container} className="chart" role="img" aria-label={description} data-testid={testId} />;
}
