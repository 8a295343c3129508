// Callbacks of PROTOCOL §10: a persistent outbox of deposit and withdrawal events, delivered by POST to the
// merchant's callback URL with a fresh timestamp, nonce and signature per attempt, retried on the §10.3 schedule
// (scaled by timeScale for tests), and a delivery log. Pending deliveries survive a restart (they live in SQLite).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { encryptBytes } from '../protocol/cipher';
import { successEnvelope, toEscapedJson } from '../protocol/envelope';
import {
  CALLBACK_ACK_BODY,
  CALLBACK_CONTENT_TYPE,
  CALLBACK_RETRY_SCHEDULE_SECONDS,
  CALLBACK_TIMEOUT_MS,
  HEADER,
} from '../protocol/profile';
import { signingInput, signText } from '../protocol/signature';
import { newNonce } from '../protocol/wire';
import type { SandboxClock } from './clock';
import type { MerchantDirectory } from './merchants';
import { sql, type AttemptRow, type CallbackRow, type Db, type GroupCommit } from './store';

export type CallbackKind = CallbackRow['kind'];

/** Deliveries running at once; more wait for the next pump. */
const MAX_CONCURRENT_DELIVERIES = 16;
/** Bytes of a receiver's answer read before judging it (the ack is 7 bytes, §10.2). */
const MAX_ACK_BYTES = 1024;
/** timeScale shortens the §10.2 answer timeout too, but never below this (a loaded test machine needs some slack). */
const MIN_SCALED_TIMEOUT_MS = 1000;

/** §10.2: no answer in 10 s is a failed delivery; divided by timeScale for tests, at least 1 s. */
export function answerTimeoutMs(timeScale: number): number {
  return Math.max(Math.min(CALLBACK_TIMEOUT_MS, MIN_SCALED_TIMEOUT_MS), Math.round(CALLBACK_TIMEOUT_MS / timeScale));
}

/** Real milliseconds after the event at which attempt `index` (0-based) is due (§10.3, scaled). */
export function attemptDueMs(eventAtMs: number, index: number, timeScale: number): number | undefined {
  const seconds = CALLBACK_RETRY_SCHEDULE_SECONDS[index];
  if (seconds === undefined) return undefined;
  return eventAtMs + Math.round((seconds * 1000) / timeScale);
}

/** Puts an event in the outbox, inside the caller's transaction: it is sent only once that commits. */
export function enqueueCallback(db: Db, merchantId: string, kind: CallbackKind, ref: string, record: unknown, eventAtMs: number, timeScale: number): void {
  sql(
    db,
    `INSERT INTO callbacks (merchant_id, kind, ref, payload, event_at, attempts, next_attempt_at, state)
     VALUES (?, ?, ?, ?, ?, 0, ?, 'pending')`,
  ).run(merchantId, kind, ref, JSON.stringify(record), eventAtMs, attemptDueMs(eventAtMs, 0, timeScale) ?? eventAtMs);
}

/**
 * An event whose callback the platform never sends (an admin anomaly, anomalies.ts): logged as failed with no attempt,
 * inside the caller's transaction, so the callback log tells the truth about it.
 */
export function recordLostCallback(db: Db, merchantId: string, kind: CallbackKind, ref: string, record: unknown, eventAtMs: number): void {
  sql(
    db,
    `INSERT INTO callbacks (merchant_id, kind, ref, payload, event_at, attempts, next_attempt_at, state)
     VALUES (?, ?, ?, ?, ?, 0, NULL, 'failed')`,
  ).run(merchantId, kind, ref, JSON.stringify(record), eventAtMs);
}

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly at: number;
  readonly url: string;
  readonly httpStatus: number | null;
  readonly outcome: 'delivered' | 'failed';
  readonly detail: string;
}

export interface CallbackLogEntry {
  readonly id: number;
  readonly merchantId: string;
  readonly kind: CallbackKind;
  /** Deposit: apiOrder; withdrawal: userOrder + ":" + orderStatus (the §10.5 deduplication keys). */
  readonly ref: string;
  readonly state: CallbackRow['state'];
  readonly attempts: number;
  readonly eventAt: number;
  readonly nextAttemptAt: number | null;
  /** The plaintext record that was encrypted into `data`. */
  readonly record: unknown;
  readonly deliveries: readonly DeliveryAttempt[];
}

/** The delivery log, oldest event first, optionally for one merchant. */
export function callbackLog(db: Db, merchantId?: string): CallbackLogEntry[] {
  const rows = (
    merchantId === undefined
      ? sql(db, 'SELECT * FROM callbacks ORDER BY id').all()
      : sql(db, 'SELECT * FROM callbacks WHERE merchant_id = ? ORDER BY id').all(merchantId)
  ) as CallbackRow[];
  const attemptsOf = sql(db, 'SELECT * FROM callback_attempts WHERE callback_id = ? ORDER BY attempt');
  return rows.map((row) => ({
    id: row.id,
    merchantId: row.merchant_id,
    kind: row.kind,
    ref: row.ref,
    state: row.state,
    attempts: row.attempts,
    eventAt: row.event_at,
    nextAttemptAt: row.next_attempt_at,
    record: JSON.parse(row.payload) as unknown,
    deliveries: (attemptsOf.all(row.id) as AttemptRow[]).map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.at,
      url: attempt.url,
      httpStatus: attempt.http_status,
      outcome: attempt.outcome,
      detail: attempt.detail,
    })),
  }));
}

interface PostOutcome {
  readonly status: number | null;
  readonly body: string;
  readonly error?: string;
}

/** One POST on a fresh connection (no keep-alive), answered or failed within `timeoutMs` (§10.2: 10 s). */
function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const request = send(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: false });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, body: '', error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    const onAbort = (): void => {
      request.destroy();
      finish({ status: null, body: '', error: 'the sandbox stopped during delivery' });
    };
    signal.addEventListener('abort', onAbort);
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ACK_BYTES) chunks.push(chunk);
      });
      response.on('end', () => finish({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', (error) => finish({ status: response.statusCode ?? null, body: '', error: error.message }));
    });
    request.on('error', (error) => finish({ status: null, body: '', error: error.message }));
    request.end(body);
  });
}

export interface DispatcherOptions {
  readonly db: Db;
  readonly clock: SandboxClock;
  readonly merchants: MerchantDirectory;
  readonly timeScale: number;
  /** Deliveries wait for the commit of the event they carry (never call back what a crash could undo). */
  readonly commits: GroupCommit;
}

/** Sends due callbacks and schedules the next attempt; one timer for the earliest due delivery. */
export class CallbackDispatcher {
  private readonly inFlight = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private closed = false;
  private pumpQueued = false;

  constructor(private readonly options: DispatcherOptions) {}

  /** Re-derives every pending delivery's due time from the current timeScale (after a restart) and starts sending. */
  start(): void {
    const { db, timeScale } = this.options;
    const pending = sql(db, "SELECT id, event_at, attempts FROM callbacks WHERE state = 'pending'").all() as CallbackRow[];
    const update = sql(db, 'UPDATE callbacks SET next_attempt_at = ? WHERE id = ?');
    this.options.commits.write(() => {
      for (const row of pending) update.run(attemptDueMs(row.event_at, row.attempts, timeScale) ?? row.event_at, row.id);
    });
    this.kick();
  }

  /** Looks for due deliveries soon (after the current transaction has committed). */
  kick(): void {
    if (this.closed || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    if (this.closed) return;
    const { db, clock } = this.options;
    const now = clock.realMs();
    const due = sql(
      db,
      "SELECT * FROM callbacks WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
    ).all(now, MAX_CONCURRENT_DELIVERIES + this.inFlight.size) as CallbackRow[];
    for (const row of due) {
      if (this.inFlight.size >= MAX_CONCURRENT_DELIVERIES) break;
      if (this.inFlight.has(row.id)) continue;
      this.inFlight.add(row.id);
      const delivery = this.deliver(row)
        .catch((error: unknown) => console.error(`sandbox callback ${row.id}: ${(error as Error).message}`))
        .finally(() => {
          this.inFlight.delete(row.id);
          this.running.delete(delivery);
          this.kick();
        });
      this.running.add(delivery);
    }
    this.scheduleNext();
  }

  private scheduleNext(): void {
    const { db, clock } = this.options;
    const ids = [...this.inFlight];
    const next = sql(
      db,
      `SELECT MIN(next_attempt_at) AS due FROM callbacks WHERE state = 'pending'
         AND id NOT IN (SELECT value FROM json_each(?))`,
    ).get(JSON.stringify(ids)) as { due: number | null };
    if (next.due === null) return;
    if (this.timer && this.timerDue <= next.due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = next.due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerDue = Number.POSITIVE_INFINITY;
      this.pump();
    }, Math.max(0, next.due - clock.realMs()));
  }

  private async deliver(row: CallbackRow): Promise<void> {
    const { db, clock, merchants, timeScale, commits } = this.options;
    await commits.settled();
    const merchant = merchants.get(row.merchant_id);
    const url = merchant?.config.callbackUrl ?? null;
    let outcome: PostOutcome;
    if (!merchant || url === null) {
      outcome = { status: null, body: '', error: 'the merchant has no callback URL configured' };
    } else {
      // §10.1: data encrypted to the merchant public key; §3.3 signature over timestamp, nonce, data; fresh per attempt.
      const data = encryptBytes(Buffer.from(row.payload, 'utf8'), merchant.merchantPublicKey);
      const timestamp = String(clock.nowSeconds());
      const nonce = newNonce();
      const headers = {
        'Content-Type': CALLBACK_CONTENT_TYPE,
        [HEADER.appId]: row.merchant_id,
        [HEADER.timestamp]: timestamp,
        [HEADER.nonce]: nonce,
        [HEADER.sign]: signText(signingInput(timestamp, nonce, data), merchant.platformPrivateKey),
      };
      let target: URL | undefined;
      try {
        target = new URL(url);
      } catch {
        target = undefined;
      }
      outcome =
        target && (target.protocol === 'http:' || target.protocol === 'https:')
          ? await postOnce(target, headers, toEscapedJson(successEnvelope(data)), answerTimeoutMs(timeScale), this.abort.signal)
          : { status: null, body: '', error: 'the callback URL is not an http(s) URL' };
    }
    if (this.closed && outcome.status === null) return; // interrupted by close(): the attempt does not count
    // §10.2: only HTTP 200 with the body `success` acknowledges.
    const delivered = outcome.status === 200 && outcome.body === CALLBACK_ACK_BODY;
    const detail = delivered
      ? 'acknowledged'
      : (outcome.error ?? `answered HTTP ${outcome.status ?? '-'} with ${JSON.stringify(outcome.body.slice(0, 64))}, not 200 "${CALLBACK_ACK_BODY}"`);
    const attempt = row.attempts + 1;
    const nextDue = delivered ? undefined : attemptDueMs(row.event_at, attempt, timeScale);
    if (!db.open) return;
    commits.write(() => {
      sql(
        db,
        `INSERT INTO callback_attempts (callback_id, attempt, at, url, http_status, outcome, detail) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(row.id, attempt, clock.realMs(), url ?? '', outcome.status, delivered ? 'delivered' : 'failed', detail);
      sql(db, 'UPDATE callbacks SET attempts = ?, next_attempt_at = ?, state = ? WHERE id = ?').run(
        attempt,
        nextDue ?? null,
        delivered ? 'delivered' : nextDue === undefined ? 'failed' : 'pending',
        row.id,
      );
    });
  }
}
