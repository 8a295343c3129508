// A small line chart over time (uPlot, canvas): a picture for the eye, never the record. Its values are JavaScript
// numbers, converted by the caller for plotting only; every screen that shows one puts the exact figures in a table
// beside it, and the chart carries a text alternative naming what it shows (assistive technology reads the table).
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  readonly label: string;
  /** One value per time; null leaves a gap. */
  readonly values: readonly (number | null)[];
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

export function TimeSeriesChart({ description, times, series, stepped = false, height = 180, testId }: TimeSeriesChartProps): React.JSX.Element {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return undefined;
    const width = (): number => Math.max(240, element.clientWidth || DEFAULT_WIDTH);
    const paths = stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined;
    const chart = new uPlot(
      {
        width: width(),
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true } },
        series: [{}, ...series.map((line) => ({ label: line.label, stroke: line.stroke, width: 2, ...(paths === undefined ? {} : { paths }) }))],
      },
      // uPlot's time axis counts seconds.
      [times.map((ms) => ms / 1000), ...series.map((line) => [...line.values])],
      element,
    );
    const resize = (): void => chart.setSize({ width: width(), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [times, series, stepped, height]);
  return <div ref={container} className="chart" role="img" aria-label={description} data-testid={testId} />;
}
