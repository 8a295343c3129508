// The withdrawal watchdog: the ONE place that decides an order is stuck. An order handed to the platform is stuck when
// it has stayed in one pending status longer than that status's threshold (defaults in contract/stuck-orders.ts,
// overridden per desk by the `withdrawals.stuckThresholds` setting an admin edits). A request left `submitting` (its
// create not confirmed yet) is watched as pendingConfirm. Checked on a timer and after every sync, and by any face that
// lists stuck orders; each order stuck in a status is recorded once in the audit log (signed by the desk key), and
// every timed check tells its subscribers (the notifications) which orders are stuck now. A stuck order's flag says
// what to do next: checkTransfer on its txid when it has one, and the platform with its apiOrder.
import { z } from 'zod';
import {
  DEFAULT_STUCK_THRESHOLDS,
  STUCK_THRESHOLD_RANGE_MS,
  WATCHED_ORDER_STATUSES,
  WATCHED_STATUS_TEXT,
  type StuckFlagView,
  type StuckThresholds,
  type StuckThresholdsView,
  type WatchedOrderStatus,
} from '../../contract/stuck-orders';
import { isInFlight, isUnconfirmed } from '../../contract/withdrawal-lifecycle';
import type { Kernel } from '../kernel/kernel';
import { type AuditRecorder, auditRowsBySubject } from '../audit';
import { getSetting, type ProfileSelection, setSetting } from '../profiles';
import { DeskError } from '../kernel/errors';
import { appLog } from '../log';
import { parseStatement } from '../ledger';
import { listUnsettledWithdrawalRequests, type WithdrawalRequest } from './withdrawals-table';

export { DEFAULT_STUCK_THRESHOLDS, STUCK_THRESHOLD_RANGE_MS, WATCHED_ORDER_STATUSES, type StuckThresholds, type WatchedOrderStatus };

const MINUTE_MS = 60_000;

/** The settings key of the desk's overrides (`{status: ms}`, only the statuses changed from the defaults). */
export const STUCK_THRESHOLDS_SETTING = 'withdrawals.stuckThresholds';

/** How often the watchdog looks when nothing else makes it (a sync ending makes it look too). */
export const WATCHDOG_INTERVAL_MS = MINUTE_MS;

const thresholdMs = z.number().int().min(STUCK_THRESHOLD_RANGE_MS.min).max(STUCK_THRESHOLD_RANGE_MS.max);
const overridesSchema = z.partialRecord(z.enum(WATCHED_ORDER_STATUSES), thresholdMs);

/** The thresholds in force: the defaults, with each valid stored override in place of its default. */
export function stuckThresholds(context: Pick<(Kernel & AuditRecorder & ProfileSelection), 'db'>): StuckThresholds {
  const stored = getSetting(context.db, STUCK_THRESHOLDS_SETTING);
  const thresholds: Record<WatchedOrderStatus, number> = { ...DEFAULT_STUCK_THRESHOLDS };
  if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const status of WATCHED_ORDER_STATUSES) {
      const value = thresholdMs.safeParse((stored as Record<string, unknown>)[status]);
      if (value.success) thresholds[status] = value.data;
    }
  }
  return thresholds;
}

/**
 * Changes some thresholds (the rest stay as they are); a value equal to the default removes the override. Refuses
 * an unknown status or a value out of STUCK_THRESHOLD_RANGE_MS and then changes nothing. Answers the thresholds in force.
 */
export function setStuckThresholds(context: Pick<(Kernel & AuditRecorder & ProfileSelection), 'db' | 'now'>, changes: Readonly<Record<string, unknown>>): StuckThresholds {
  const parsed = overridesSchema.safeParse(changes);
  if (!parsed.success || Object.keys(changes).some((key) => !(WATCHED_ORDER_STATUSES as readonly string[]).includes(key))) {
    throw new DeskError(
      'invalidInput',
      `stuck thresholds are whole milliseconds from ${STUCK_THRESHOLD_RANGE_MS.min} to ${STUCK_THRESHOLD_RANGE_MS.max}, for ${WATCHED_ORDER_STATUSES.join(', ')}`,
    );
  }
  const next = { ...stuckThresholds(context), ...parsed.data };
  const overrides: Partial<Record<WatchedOrderStatus, number>> = {};
  for (const status of WATCHED_ORDER_STATUSES) if (next[status] !== DEFAULT_STUCK_THRESHOLDS[status]) overrides[status] = next[status];
  setSetting(context.db, STUCK_THRESHOLDS_SETTING, overrides, context.now());
  return next;
}

export interface StuckOrder {
  readonly request: WithdrawalRequest;
  readonly status: WatchedOrderStatus;
  /** Since when the order has been in `status` (ms). */
  readonly since: number;
  readonly thresholdMs: number;
  readonly stuckForMs: number;
}

/** The watched status an unsettled request is in, with since when; null when the watchdog does not time it. */
export function watchedStatusOf(request: WithdrawalRequest): { readonly status: WatchedOrderStatus; readonly since: number } | null {
  // Sent, or answered with an unsigned failure (submitUnknown), and not confirmed yet: timed like pendingConfirm.
  if (isUnconfirmed(request.state) && request.orderStatus === null) return { status: 'pendingConfirm', since: request.updatedAt };
  if (!isInFlight(request.state)) return null;
  const status = request.orderStatus;
  if (status === null || !(WATCHED_ORDER_STATUSES as readonly string[]).includes(status)) return null;
  return { status: status as WatchedOrderStatus, since: request.orderStatusAt ?? request.updatedAt };
}

/** The requests stuck at `now`: in a watched status for longer than its threshold (pure). */
export function findStuckOrders(requests: readonly WithdrawalRequest[], thresholds: StuckThresholds, now: number): StuckOrder[] {
  const stuck: StuckOrder[] = [];
  for (const request of requests) {
    const watched = watchedStatusOf(request);
    if (watched === null) continue;
    const limit = thresholds[watched.status];
    const stuckForMs = now - watched.since;
    if (stuckForMs > limit) stuck.push({ request, status: watched.status, since: watched.since, thresholdMs: limit, stuckForMs });
  }
  return stuck;
}

/** The active profile's stuck orders now (what a face shows; what the watchdog checks). */
export function stuckOrders(context: Kernel & AuditRecorder & ProfileSelection, profile: string): StuckOrder[] {
  return findStuckOrders(listUnsettledWithdrawalRequests(context.db, profile), stuckThresholds(context), context.now());
}

/** The thresholds in force, the defaults and the range, as the faces show them. */
export function stuckThresholdsView(context: Pick<(Kernel & AuditRecorder & ProfileSelection), 'db'>): StuckThresholdsView {
  return { thresholds: stuckThresholds(context), defaults: DEFAULT_STUCK_THRESHOLDS, range: { min: STUCK_THRESHOLD_RANGE_MS.min, max: STUCK_THRESHOLD_RANGE_MS.max } };
}

/** What to do about a stuck order, most useful first (pure). */
export function nextStepsFor(request: WithdrawalRequest, status: WatchedOrderStatus): string[] {
  const steps = [`The order is ${status}: ${WATCHED_STATUS_TEXT[status]}.`];
  if (status === 'pendingFinancialConfirmation') steps.push('Ask the person who confirms financial-confirmation orders at the platform to confirm or reject it.');
  if (request.txid !== null && request.txid !== '') steps.push(`Check the transfer on chain: run checkTransfer on txid ${request.txid} (${request.currency}).`);
  steps.push(
    request.apiOrder === null
      ? `The desk has no platform order number yet: run a sync so checkWithdrawOrder can confirm the order; if it stays unknown, contact the platform with userOrder ${request.userOrder}.`
      : `Contact the platform with apiOrder ${request.apiOrder} (userOrder ${request.userOrder}).`,
  );
  return steps;
}

/** The flag a request's view carries while its order is stuck at `now`, or null. */
export function stuckFlag(request: WithdrawalRequest, thresholds: StuckThresholds, now: number): StuckFlagView | null {
  const [stuck] = findStuckOrders([request], thresholds, now);
  if (stuck === undefined) return null;
  return { status: stuck.status, since: stuck.since, thresholdMs: stuck.thresholdMs, stuckForMs: stuck.stuckForMs, nextSteps: nextStepsFor(request, stuck.status) };
}

export const STUCK_AUDIT_ACTION = 'withdrawals/stuck';

/** Whether the audit log already records `order` stuck in its current status. */
function alreadyRecorded(context: Kernel & AuditRecorder & ProfileSelection, order: StuckOrder): boolean {
  return auditRowsBySubject(context.db, order.request.profile, order.request.userOrder).some((row) => {
    if (row.action !== STUCK_AUDIT_ACTION) return false;
    const details = parseStatement(row.statement)?.body['details'];
    return details !== null && typeof details === 'object' && !Array.isArray(details) && (details as Record<string, unknown>)['status'] === order.status;
  });
}

/** Records each order of `stuck` in the audit log, once per order and status (signed by the desk key). */
export function recordStuckOrders(context: Kernel & AuditRecorder & ProfileSelection, profile: string, stuck: readonly StuckOrder[]): void {
  for (const order of stuck) {
    if (alreadyRecorded(context, order)) continue;
    context.audit({
      profile,
      action: STUCK_AUDIT_ACTION,
      subject: order.request.userOrder,
      details: { id: order.request.id, status: order.status, since: order.since, thresholdMs: order.thresholdMs },
    });
  }
}

export type StuckListener = (profile: string, stuck: readonly StuckOrder[]) => void;

/** Checks the active profile's orders on a timer and after every sync (`start`), or when asked (`check`). */
export class WithdrawalWatchdog {
  readonly #listeners = new Set<StuckListener>();
  #timer: NodeJS.Timeout | undefined;
  #stopEvents: (() => void) | undefined;

  constructor(
    private readonly context: Kernel & AuditRecorder & ProfileSelection,
    private readonly intervalMs: number = WATCHDOG_INTERVAL_MS,
  ) {}

  onStuck(listener: StuckListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#checkQuietly(), this.intervalMs);
    this.#timer.unref();
    this.#stopEvents = this.context.onEvent((event) => {
      // A sync run ends with its progress cleared: the statuses it fetched are in the store now.
      if (event.type === 'sync/progress' && event.progress === null) this.#checkQuietly();
    });
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stopEvents?.();
    this.#stopEvents = undefined;
  }

  /** The active profile's stuck orders; records each newly stuck one in the audit log and tells the subscribers. */
  check(): StuckOrder[] {
    const profile = this.context.activeProfileName();
    if (profile === undefined) return [];
    const stuck = stuckOrders(this.context, profile);
    recordStuckOrders(this.context, profile, stuck);
    for (const listener of this.#listeners) {
      try {
        listener(profile, stuck);
      } catch {
        // one subscriber failing must not stop the others or the watchdog
      }
    }
    return stuck;
  }

  #checkQuietly(): void {
    try {
      this.check();
    } catch (error) {
      appLog.warn('watchdog: could not check the unsettled withdrawals', { error });
    }
  }
}
