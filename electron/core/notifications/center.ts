// The desk's notifications: watches the engine's changes (withdrawal requests, deposits, the connection, the
// withdrawal watchdog) for the active profile and raises a `notification/raised` event once per occurrence, for the
// operators it concerns who want it. Each occurrence is claimed in the store before it is raised, so it is never
// raised twice, across restarts or by two processes sharing the desk; what already happened before the desk started
// notifying for a profile (its history) is claimed silently and never raised. Runs in the desktop app's engine only:
// a CLI command must not claim what the app would show.
import { isFinalOrderStatus } from '../../protocol';
import type { DeskNotification, NotificationKind, NotificationPreferences, NotificationTarget } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { appLog } from '../log';
import { intentFingerprint, type Roster } from '../ledger';
import { lastDepositId, lastDepositIdSeenBefore, listDepositsStoredAfter, normalizeSenderKey, poisoningAlerts, type Deposit } from '../deposits';
import {
  claimNotification,
  getNotificationCursor,
  isNotificationClaimed,
  setNotificationCursor,
} from './notifications-table';
import {
  batchLineRef,
  getPayoutBatchByHash,
  getWithdrawalRequest,
  judgeForView,
  listPayoutLines,
  listWithdrawalRequestsChangedSince,
  nextStepsFor,
  type StuckOrder,
  type WithdrawalRequest,
  type WithdrawalWatchdog,
} from '../withdrawals';
import { batchViewOf } from '../payouts';
import { queueWebhookEvent, webhookWanted, type WebhookEventDraft, type WebhookSeal } from '../webhooks';
import { pendingChanges } from '../operators';
import { depositWanted, preferencesOf } from './preferences';
import {
  activeOperators,
  approvalCandidates,
  batchApprovalCandidates,
  batchesAwaitingApproval,
  judgedBatchLines,
  requestsAwaitingApproval,
} from './recipients';
import {
  approvalWaitingText,
  batchApprovalWaitingText,
  batchFinalText,
  depositText, looseningScheduledText, offlineText, onlineText, orderFinalText, orderStuckText, poisoningSuspectedText,
  type BatchLineOutcome,
  type NotificationText,
} from './texts';

export interface NotificationOptions {
  /** Between reviews when no event comes (requests made by the CLI, the offline delay). */
  readonly reviewIntervalMs: number;
  /** How long the desk must stay offline before anyone is told (a blip that heals on the next sync says nothing). */
  readonly offlineNoticeDelayMs: number;
}

export const DEFAULT_NOTIFICATION_OPTIONS: NotificationOptions = Object.freeze({ reviewIntervalMs: 60_000, offlineNoticeDelayMs: 60_000 });

/** How many records one review reads at a time. */
const PAGE = 200;

/** How a batch payout's line ended, or null while it is still under way. */
function lineOutcome(request: WithdrawalRequest): BatchLineOutcome | null {
  if (request.state === 'rejected' || request.state === 'cancelled') return request.state;
  if (request.state === 'completed' && request.orderStatus !== null && isFinalOrderStatus(request.orderStatus)) return request.orderStatus;
  return null;
}

export class DeskNotifications {
  readonly #options: NotificationOptions;
  readonly #startedAt: number;
  #running = false;
  #reviewQueued = false;
  #timer: NodeJS.Timeout | undefined;
  #offlineTimer: NodeJS.Timeout | undefined;
  readonly #unsubscribe: (() => void)[] = [];
  /** The outage seen at the end of a sync (or a tick): since when, and whether its offline notice was raised. */
  #outage: { readonly profile: string; readonly since: number; raised: boolean } | null = null;
  /** A sync is running: the connection flips while its steps run (public calls succeed before signed ones fail). */
  #syncing = false;

  constructor(
    private readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection,
    private readonly watchdog: WithdrawalWatchdog,
    options: Partial<NotificationOptions> = {},
    /** Seals the webhook events queued as occurrences are claimed; none: no webhook event is queued (tests). */
    private readonly webhookSeal: WebhookSeal | null = null,
  ) {
    this.#options = { ...DEFAULT_NOTIFICATION_OPTIONS, ...options };
    this.#startedAt = context.now();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unsubscribe.push(
      this.context.onEvent((event) => {
        switch (event.type) {
          case 'withdrawals/changed':
          case 'deposits/changed':
          case 'operators/changed':
          case 'session/changed':
            this.#queueReview();
            return;
          case 'sync/progress':
            this.#syncing = event.progress !== null;
            // A finished sync says where the connection stands.
            if (!this.#syncing) this.#quietly(() => this.checkConnection());
            return;
          default:
            return;
        }
      }),
      this.watchdog.onStuck((profile, stuck) => this.#quietly(() => this.stuck(profile, stuck))),
    );
    this.#timer = setInterval(() => {
      this.#quietly(() => this.review());
      if (!this.#syncing) this.#quietly(() => this.checkConnection());
    }, this.#options.reviewIntervalMs);
    this.#timer.unref();
    this.#queueReview();
  }

  stop(): void {
    this.#running = false;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#offlineTimer !== undefined) clearTimeout(this.#offlineTimer);
    this.#timer = undefined;
    this.#offlineTimer = undefined;
  }

  /** Looks at the active profile's requests and deposits and raises what is new. Synchronous. */
  review(): void {
    const profile = this.context.activeProfileName();
    if (profile === undefined) return;
    const since = this.#since(profile);
    const roster = this.context.trail.roster(profile, { cached: true });
    this.#reviewApprovals(profile, roster, since);
    this.#reviewBatchApprovals(profile, roster, since);
    this.#reviewChangedRequests(profile, roster, since);
    this.#reviewDeposits(profile, roster, since);
    this.#reviewScheduledChanges(profile, roster);
    this.#reviewRadar(profile, roster);
    this.#reviewFreeze(profile, roster, since);
  }

  /**
   * A freeze of all sending in force: told to the merchant's webhook endpoints once per freeze (operators see it on
   * the desk itself, so no notice is raised); one from before the desk started notifying is history.
   */
  #reviewFreeze(profile: string, roster: Roster, since: number): void {
    const frozen = roster.frozenAt(this.context.now());
    if (frozen === null || !webhookWanted(this.context.db, profile, 'sending.frozen')) return;
    const occurrence = `freeze:${frozen.since}`;
    if (isNotificationClaimed(this.context.db, profile, occurrence)) return;
    if (frozen.since < since) {
      claimNotification(this.context.db, profile, occurrence, 'sendingFrozen', false, this.context.now());
      return;
    }
    this.#claim(profile, occurrence, 'sendingFrozen', { type: 'sending.frozen', data: { by: frozen.by, since: frozen.since, reason: frozen.reason } });
  }

  /** What the radar last looked at (profile, newest deposit, book in force): it looks again only when one changed. */
  #radarLooked = '';

  /**
   * The poisoning radar: each flagged sender not cleared is told once to every active operator (claimed per sender, so
   * not per deposit, and never twice across restarts); history included, so a desk that upgrades hears of it too.
   */
  #reviewRadar(profile: string, roster: Roster): void {
    const now = this.context.now();
    const looked = `${profile}\n${lastDepositId(this.context.db)}\n${roster.bookEntries(now).map((entry) => entry.id).join(',')}`;
    if (looked === this.#radarLooked) return;
    const everyone = activeOperators(roster).map((operator) => operator.name);
    for (const alert of poisoningAlerts(this.context.db, profile, roster, now)) {
      if (alert.cleared !== null) continue;
      const target = { kind: 'deposit', id: String(alert.firstDeposit.id), txid: alert.firstDeposit.txid } as const;
      this.#raise(profile, `radar:${normalizeSenderKey(alert)}`, 'poisoningSuspected', everyone, poisoningSuspectedText(alert), target);
    }
    this.#radarLooked = looked;
  }

  /**
   * Every loosening change still waiting for its delay is told once to every active admin (not a preference: any one
   * of them may veto it); on a team desk each workstation sees it once its roster replayed the row.
   */
  #reviewScheduledChanges(profile: string, roster: Roster): void {
    const admins = activeOperators(roster).filter((operator) => operator.role === 'admin').map((operator) => operator.name);
    for (const change of pendingChanges(roster, this.context.now())) {
      this.#raise(profile, `loosening:${change.id}`, 'looseningScheduled', admins, looseningScheduledText(change), { kind: 'governance' });
    }
  }

  /**
   * Where the connection stands, between syncs: offline for longer than the delay raises one notice per outage (a blip
   * that heals by the next sync says nothing); online again after such a notice raises one more.
   */
  checkConnection(): void {
    const profile = this.context.activeProfileName();
    const connection = this.context.connection.current;
    const now = this.context.now();
    if (profile === undefined || (this.#outage !== null && this.#outage.profile !== profile)) {
      this.#outage = null;
      if (profile === undefined) return;
    }
    const roster = (): Roster => this.context.trail.roster(profile, { cached: true });
    const wanting = (): string[] => this.#wanting(profile, roster(), (preferences) => preferences.connection);
    if (!connection.online) {
      this.#outage ??= { profile, since: connection.since ?? now, raised: false };
      const outage = this.#outage;
      if (outage.raised) return;
      const due = outage.since + this.#options.offlineNoticeDelayMs;
      if (now < due) {
        this.#scheduleConnectionCheck(due - now);
        return;
      }
      outage.raised = true;
      this.#emit(profile, `offline:${outage.since}`, 'offline', wanting(), offlineText({ ...connection, since: outage.since }, now), { kind: 'connection' });
      return;
    }
    const outage = this.#outage;
    this.#outage = null;
    if (outage?.raised === true) this.#emit(profile, `online:${outage.since}`, 'online', wanting(), onlineText(outage.since, now), { kind: 'connection' });
  }

  /** The watchdog's finding: each order stuck in a status is raised once (silently when it was stuck before `since`). */
  stuck(profile: string, stuck: readonly StuckOrder[]): void {
    if (stuck.length === 0) return;
    const since = this.#since(profile);
    const roster = this.context.trail.roster(profile, { cached: true });
    for (const order of stuck) {
      const occurrence = `stuck:${order.request.id}:${order.status}`;
      if (order.since + order.thresholdMs < since) {
        claimNotification(this.context.db, profile, occurrence, 'orderStuck', false, this.context.now());
        continue;
      }
      const recipients = this.#wanting(profile, roster, (preferences) => preferences.orderStuck);
      this.#raise(profile, occurrence, 'orderStuck', recipients, orderStuckText(order.request, order, nextStepsFor(order.request, order.status).slice(1)), { kind: 'withdrawal', id: String(order.request.id) });
    }
  }

  // ---- the parts of a review --------------------------------------------------------------------------------------

  /** Since when this desk notifies for `profile`: set at the first look, to when the engine started. */
  #since(profile: string): number {
    const stored = getNotificationCursor(this.context.db, profile, 'since');
    if (stored !== undefined) return stored;
    const since = Math.min(this.#startedAt, this.context.now());
    setNotificationCursor(this.context.db, profile, 'since', since, this.context.now());
    return since;
  }

  #reviewApprovals(profile: string, roster: Roster, since: number): void {
    for (const request of requestsAwaitingApproval(this.context, profile)) {
      const occurrence = `approval:${request.id}`;
      if (isNotificationClaimed(this.context.db, profile, occurrence)) continue;
      if (request.createdAt < since) {
        claimNotification(this.context.db, profile, occurrence, 'approvalWaiting', false, this.context.now());
        continue;
      }
      const evidence = judgeForView(this.context, roster, request);
      // A request whose statements do not verify asks nobody to approve it (the desk would refuse any approval).
      if (evidence.intent === null || evidence.initiator === null) {
        claimNotification(this.context.db, profile, occurrence, 'approvalWaiting', false, this.context.now());
        continue;
      }
      const candidates = new Set(approvalCandidates(roster, request, evidence, this.context.activeProfile().merchantId).map((name) => name.toLowerCase()));
      const recipients = this.#wanting(profile, roster, (preferences, name) => preferences.approvalWaiting && candidates.has(name.toLowerCase()));
      const text = approvalWaitingText(request, {
        initiator: evidence.initiator,
        fingerprint: intentFingerprint(evidence.intent),
        counted: evidence.verification.countedApprovals,
        required: evidence.verification.requiredApprovals,
      });
      const event: WebhookEventDraft = {
        type: 'approval.waiting',
        data: { kind: 'withdrawal', requestId: String(request.id), userOrder: request.userOrder, currency: request.currency, amount: request.amount, counted: evidence.verification.countedApprovals, required: evidence.verification.requiredApprovals },
      };
      this.#raise(profile, occurrence, 'approvalWaiting', recipients, text, { kind: 'withdrawal', id: String(request.id) }, event);
    }
  }

  /** Each batch payout waiting for approval: one notice for the whole batch (its lines are never notified one by one). */
  #reviewBatchApprovals(profile: string, roster: Roster, since: number): void {
    for (const batch of batchesAwaitingApproval(this.context, profile)) {
      const occurrence = `approval:batch:${batch.id}`;
      if (isNotificationClaimed(this.context.db, profile, occurrence)) continue;
      const judged = batch.createdAt < since ? null : judgedBatchLines(this.context, batch, roster);
      // History, or a batch whose statements do not verify: it asks nobody (the desk would refuse any approval).
      if (judged === null || judged.some((line) => line.evidence.intent === null || line.evidence.initiator === null)) {
        claimNotification(this.context.db, profile, occurrence, 'approvalWaiting', false, this.context.now());
        continue;
      }
      const candidates = new Set(batchApprovalCandidates(roster, judged, this.context.activeProfile().merchantId).map((name) => name.toLowerCase()));
      const recipients = this.#wanting(profile, roster, (preferences, name) => preferences.approvalWaiting && candidates.has(name.toLowerCase()));
      const event: WebhookEventDraft = { type: 'approval.waiting', data: { kind: 'payoutBatch', batchId: String(batch.id), lines: judged.length } };
      this.#raise(profile, occurrence, 'approvalWaiting', recipients, batchApprovalWaitingText(batchViewOf(this.context, batch, judged)), { kind: 'payoutBatch', id: String(batch.id) }, event);
    }
  }

  /** Requests changed since the last review: those that reached a final state (paid out, refunded, failed, rejected). */
  #reviewChangedRequests(profile: string, roster: Roster, since: number): void {
    const from = getNotificationCursor(this.context.db, profile, 'withdrawals') ?? since;
    let after: { at: number; id: number } | null = null;
    let last = from;
    const changedBatches = new Set<string>();
    for (;;) {
      const page = listWithdrawalRequestsChangedSince(this.context.db, profile, from, PAGE, after);
      for (const request of page) {
        // A batch payout's lines end as one notice for the batch, once all of them have.
        if (request.batchHash === null) this.#finalOccurrence(profile, roster, request, since);
        else changedBatches.add(request.batchHash);
        last = Math.max(last, request.updatedAt);
      }
      const tail = page.at(-1);
      if (page.length < PAGE || tail === undefined) break;
      after = { at: tail.updatedAt, id: tail.id };
    }
    for (const batchHash of changedBatches) this.#batchFinalOccurrence(profile, roster, batchHash, since);
    // Changes in the same millisecond as the last one are looked at again next time (claims make that harmless).
    setNotificationCursor(this.context.db, profile, 'withdrawals', last, this.context.now());
  }

  /** A batch payout all of whose lines have ended (rejected, cancelled, or final at the platform): one notice, claimed once. */
  #batchFinalOccurrence(profile: string, roster: Roster, batchHash: string, since: number): void {
    const batch = getPayoutBatchByHash(this.context.db, profile, batchHash);
    if (batch === undefined) return;
    const occurrence = `final:batch:${batch.id}`;
    if (isNotificationClaimed(this.context.db, profile, occurrence)) return;
    const lines = listPayoutLines(this.context.db, batch.id).map(({ requestId }) => getWithdrawalRequest(this.context.db, requestId));
    const ended = lines.flatMap((line) => (line === undefined ? [] : [{ request: line, outcome: lineOutcome(line) }]));
    const [first] = ended;
    // Still under way, or rows altered so that not every line is found: nothing to say yet.
    if (first === undefined || ended.length !== lines.length || ended.some((line) => line.outcome === null)) return;
    if (Math.max(...ended.map((line) => line.request.updatedAt)) < since) {
      claimNotification(this.context.db, profile, occurrence, 'orderFinal', false, this.context.now());
      return;
    }
    // The lines share the batch's statements: who requested and who rejected it are read from them once.
    const evidence = judgeForView(this.context, roster, first.request);
    const outcomes = ended.map((line) => line.outcome).filter((outcome) => outcome !== null);
    const rejection = evidence.approvals.find((approval) => approval.decision === 'reject');
    const text = batchFinalText(
      { id: String(batch.id), fingerprint: batchLineRef(this.context.db, first.request)?.fingerprint ?? null },
      outcomes,
      outcomes.includes('rejected') ? { by: rejection?.operator ?? 'an approver', reason: rejection?.reason ?? null } : null,
    );
    const counts = new Map<string, number>();
    for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    const event: WebhookEventDraft = { type: 'batch.done', data: { batchId: String(batch.id), lines: ended.length, ...Object.fromEntries(counts) } };
    this.#raise(profile, occurrence, 'orderFinal', this.#finalRecipients(profile, roster, evidence.initiator ?? batch.initiator), text, { kind: 'payoutBatch', id: String(batch.id) }, event);
  }

  /** Who hears that a request (or a batch) by `initiator` ended: those who want every final notice, and the initiator if they want theirs. */
  #finalRecipients(profile: string, roster: Roster, initiator: string): string[] {
    return this.#wanting(
      profile,
      roster,
      (preferences, name) => preferences.orderFinal === 'all' || (preferences.orderFinal === 'mine' && name.toLowerCase() === initiator.toLowerCase()),
    );
  }

  #finalOccurrence(profile: string, roster: Roster, request: WithdrawalRequest, since: number): void {
    const completed = request.state === 'completed' && request.orderStatus !== null && isFinalOrderStatus(request.orderStatus);
    if (!completed && request.state !== 'rejected') return;
    const occurrence = `final:${request.id}`;
    if (isNotificationClaimed(this.context.db, profile, occurrence)) return;
    if (request.updatedAt < since) {
      claimNotification(this.context.db, profile, occurrence, 'orderFinal', false, this.context.now());
      return;
    }
    const evidence = judgeForView(this.context, roster, request);
    const rejection = request.state === 'rejected' ? (evidence.approvals.find((approval) => approval.decision === 'reject') ?? null) : null;
    const recipients = this.#finalRecipients(profile, roster, evidence.initiator ?? request.initiator);
    const text = orderFinalText(request, request.state === 'rejected' ? { by: rejection?.operator ?? 'an approver', reason: rejection?.reason ?? null } : null);
    const event: WebhookEventDraft = {
      type: 'order.final',
      data: { requestId: String(request.id), userOrder: request.userOrder, currency: request.currency, amount: request.amount, state: request.state, orderStatus: request.orderStatus },
    };
    this.#raise(profile, occurrence, 'orderFinal', recipients, text, { kind: 'withdrawal', id: String(request.id) }, event);
  }

  /** Deposits stored since the last review, each above the thresholds of whoever wants it. */
  #reviewDeposits(profile: string, roster: Roster, since: number): void {
    let position = getNotificationCursor(this.context.db, profile, 'deposits') ?? lastDepositIdSeenBefore(this.context.db, profile, since);
    const operators = activeOperators(roster).map((operator) => ({ ...operator, ...preferencesOf(this.context, profile, operator.name, operator.role) }));
    const hooked = webhookWanted(this.context.db, profile, 'deposit.credited');
    if (hooked || operators.some((operator) => Object.keys(operator.preferences.depositThresholds).length > 0)) {
      for (;;) {
        const page = listDepositsStoredAfter(this.context.db, profile, position, PAGE);
        for (const deposit of page) this.#depositOccurrence(profile, deposit, operators, hooked);
        const tail = page.at(-1);
        if (tail !== undefined) position = tail.id;
        if (page.length < PAGE) break;
      }
    } else {
      // Nobody wants deposit notices: skip what arrived (a first sync may bring a whole history) without reading it.
      position = Math.max(position, lastDepositId(this.context.db));
    }
    setNotificationCursor(this.context.db, profile, 'deposits', position, this.context.now());
  }

  #depositOccurrence(profile: string, deposit: Deposit, operators: readonly { name: string; preferences: NotificationPreferences }[], hooked: boolean): void {
    const recipients = operators.filter((operator) => depositWanted(operator.preferences, deposit.currency, deposit.amount)).map((operator) => operator.name);
    if (recipients.length === 0 && !hooked) return;
    const event: WebhookEventDraft = { type: 'deposit.credited', data: { depositId: String(deposit.id), txid: deposit.txid, currency: deposit.currency, amount: deposit.amount } };
    this.#raise(profile, `deposit:${deposit.id}`, 'depositCredited', recipients, depositText(deposit), { kind: 'deposit', id: String(deposit.id), txid: deposit.txid }, event);
  }

  #scheduleConnectionCheck(waitMs: number): void {
    if (this.#offlineTimer !== undefined || !this.#running) return;
    this.#offlineTimer = setTimeout(() => {
      this.#offlineTimer = undefined;
      if (!this.#syncing) this.#quietly(() => this.checkConnection());
    }, waitMs + 10);
    this.#offlineTimer.unref();
  }

  // ---- raising --------------------------------------------------------------------------------------------------

  /** The active operators of `profile` whose preferences (stored, or their role's defaults) accept. */
  #wanting(profile: string, roster: Roster, accepts: (preferences: NotificationPreferences, name: string) => boolean): string[] {
    return activeOperators(roster)
      .filter((operator) => accepts(preferencesOf(this.context, profile, operator.name, operator.role).preferences, operator.name))
      .map((operator) => operator.name);
  }

  /**
   * Claims the occurrence and, when this call claimed it, queues its webhook event (in the claim's transaction) and,
   * when someone wants it, raises the notice.
   */
  #raise(profile: string, occurrence: string, kind: NotificationKind, recipients: readonly string[], text: NotificationText, target: NotificationTarget, event?: WebhookEventDraft): void {
    if (!this.#claim(profile, occurrence, kind, event)) return;
    this.#emit(profile, occurrence, kind, recipients, text, target);
  }

  /** Claims the occurrence and queues its webhook event in the same transaction: true when this call claimed it. */
  #claim(profile: string, occurrence: string, kind: string, event?: WebhookEventDraft): boolean {
    const now = this.context.now();
    return this.context.db.transaction(() => {
      if (!claimNotification(this.context.db, profile, occurrence, kind, true, now)) return false;
      if (event !== undefined && this.webhookSeal !== null) queueWebhookEvent(this.context.db, this.webhookSeal, profile, this.context.activeProfile().merchantId, occurrence, event, now);
      return true;
    })();
  }

  #emit(profile: string, occurrence: string, kind: NotificationKind, recipients: readonly string[], text: NotificationText, target: NotificationTarget): void {
    if (recipients.length === 0) return;
    const notification: DeskNotification = { id: `${profile}:${occurrence}`, kind, profile, ...text, recipients, target, at: this.context.now() };
    this.context.emit({ type: 'notification/raised', notification });
  }

  #queueReview(): void {
    if (this.#reviewQueued || !this.#running) return;
    this.#reviewQueued = true;
    // After the event's own work (often inside a transaction) has finished.
    setImmediate(() => {
      this.#reviewQueued = false;
      if (this.#running) this.#quietly(() => this.review());
    });
  }

  #quietly(work: () => void): void {
    try {
      work();
    } catch (error) {
      // A failed review (a closed database at shutdown) is retried by the next event or tick; the app keeps running.
      appLog.warn('notifications: could not be reviewed', { error });
    }
  }
}
