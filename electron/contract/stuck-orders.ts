// Stuck withdrawal orders (issue 11, item 3) as the faces see them: the platform statuses the watchdog times, their
// default thresholds and the range an admin may set, the thresholds in force, and the flag an order carries while it is
// stuck, with what to do next. Times and durations are milliseconds.

/** The platform's pending statuses the watchdog times (PROTOCOL §10.5); other pending names are not timed. */
export const WATCHED_ORDER_STATUSES = ['pendingConfirm', 'pendingTransfer', 'pendingFinancialConfirmation', 'pendingCallback'] as const;
export type WatchedOrderStatus = (typeof WATCHED_ORDER_STATUSES)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long an order may stay in each watched status before it counts as stuck (ms). */
export type StuckThresholds = Readonly<Record<WatchedOrderStatus, number>>;

export const DEFAULT_STUCK_THRESHOLDS: StuckThresholds = Object.freeze({
  pendingConfirm: 30 * MINUTE_MS,
  pendingTransfer: 2 * HOUR_MS,
  pendingFinancialConfirmation: 24 * HOUR_MS,
  pendingCallback: 2 * HOUR_MS,
});

/** The bounds a threshold must keep: at least a minute, at most 30 days (whole milliseconds). */
export const STUCK_THRESHOLD_RANGE_MS = Object.freeze({ min: MINUTE_MS, max: 30 * 24 * HOUR_MS });

/** What each watched status means, for the faces' labels. */
export const WATCHED_STATUS_TEXT: Readonly<Record<WatchedOrderStatus, string>> = {
  pendingConfirm: 'waiting for the platform to confirm the order',
  pendingTransfer: 'waiting for the platform to make the transfer',
  pendingFinancialConfirmation: 'waiting for the finance side to confirm it at the platform',
  pendingCallback: 'transfer made, the platform’s final status still pending',
};

export interface StuckThresholdsView {
  /** In force: the defaults, with the desk's overrides. */
  readonly thresholds: StuckThresholds;
  readonly defaults: StuckThresholds;
  readonly range: { readonly min: number; readonly max: number };
}

/** What a request's view carries while its order is stuck. */
export interface StuckFlagView {
  readonly status: WatchedOrderStatus;
  /** Since when the order has been in `status`. */
  readonly since: number;
  readonly thresholdMs: number;
  readonly stuckForMs: number;
  /** What to do next, most useful first: the status explained, checkTransfer on the txid, the platform with the apiOrder. */
  readonly nextSteps: readonly string[];
}
