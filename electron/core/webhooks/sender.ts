// The webhook sender: a background worker that sends the queued deliveries, signed, with a timeout, retrying with
// backoff, and records every attempt. Nothing waits for it (the engine queues a delivery in SQLite and goes on), and
// it sends only from a workstation that holds the merchant credentials. On a team desk each event is claimed in the
// team database first (the submission claim), so two workstations never both send it; a redelivery asked by an
// operator is sent by the workstation asked.
import { createHash } from 'node:crypto';
import { escapeSingleLine, type WebhookDeliveryView } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { appLog } from '../log';
import { DeskError } from '../kernel/errors';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, webhookSignature } from './events';
import type { WebhookSecrets } from './endpoints';
import type { WebhookSeal } from './seal';
import {
  dueWebhookDeliveries,
  getWebhookDelivery,
  getWebhookEndpoint,
  insertWebhookDelivery,
  listWebhookAttempts,
  listWebhookDeliveries,
  postponeWebhookDelivery,
  recordWebhookAttempt,
  settleWebhookDelivery,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookDeliveryState,
} from './webhooks-table';

export interface WebhookSenderOptions {
  /** How long one attempt may take before it counts as failed. */
  readonly timeoutMs: number;
  /** The waits before each retry: a delivery gets 1 + retryDelaysMs.length attempts. */
  readonly retryDelaysMs: readonly number[];
  /** Between looks at the queue. */
  readonly pollIntervalMs: number;
  /** How many deliveries may be in flight at once. */
  readonly concurrency: number;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookSenderOptions = Object.freeze({
  timeoutMs: 10_000,
  retryDelaysMs: Object.freeze([10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000]),
  pollIntervalMs: 1_000,
  concurrency: 8,
});

/** The longest response text kept in the log. */
const SNIPPET_CHARACTERS = 200;
/** A team claim on an event lasts this long, renewed at each attempt (the team database's longest lease). */
const CLAIM_LEASE_MS = 60 * 60 * 1000;
/** How long a delivery that could not be tried (no credentials here, the team database unreachable) waits to be looked at again. */
const NOT_NOW_MS = 60_000;

export type WebhooksSenderContext = Kernel & AuditRecorder & ProfileSelection & MerchantConnection;

/** The key of the team claim on sending event `eventId` to `url`. */
function claimKey(eventId: string, url: string): string {
  return `webhook:${eventId}:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

/** Reads at most SNIPPET_CHARACTERS of a response body, then stops reading. */
async function snippetOf(response: Response): Promise<string | null> {
  if (response.body === null) return null;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < SNIPPET_CHARACTERS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text === '' ? null : escapeSingleLine(text.slice(0, SNIPPET_CHARACTERS)).slice(0, SNIPPET_CHARACTERS);
}

function errorText(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no answer in time';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return escapeSingleLine(`${error instanceof Error ? error.message : String(error)}${cause}`).slice(0, 500);
}

export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #inFlight = new Map<number, Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(
    private readonly context: WebhooksSenderContext,
    private readonly secrets: WebhookSecrets,
    private readonly seal: WebhookSeal,
    options: Partial<WebhookSenderOptions> = {},
  ) {
    this.#options = { ...DEFAULT_WEBHOOK_OPTIONS, ...options };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#timer = setInterval(() => this.kick(), this.#options.pollIntervalMs);
    this.#timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.#running = false;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.all(this.#inFlight.values());
  }

  /** Looks at the queue now and starts what is due (never waits for a send). */
  kick(): void {
    if (!this.#running) return;
    try {
      const room = this.#options.concurrency - this.#inFlight.size;
      const profile = this.context.activeProfileName();
      if (room <= 0 || profile === undefined) return;
      for (const delivery of dueWebhookDeliveries(this.context.db, profile, this.context.now(), room + this.#inFlight.size)) {
        if (this.#inFlight.has(delivery.id) || this.#inFlight.size >= this.#options.concurrency) continue;
        const sending = this.#attempt(delivery)
          .catch((error: unknown) => appLog.warn('webhooks: a delivery could not be attempted', { error }))
          .finally(() => this.#inFlight.delete(delivery.id));
        this.#inFlight.set(delivery.id, sending);
      }
    } catch (error) {
      // A closed database at shutdown: the next look tries again.
      appLog.warn('webhooks: the queue could not be read', { error });
    }
  }

  /** Queues delivery `id`'s event again for its endpoint (same event id, same body), now. */
  redeliver(id: number): WebhookDeliveryView {
    const profile = this.context.activeProfileName();
    const original = getWebhookDelivery(this.context.db, id);
    const endpoint = original === undefined ? undefined : getWebhookEndpoint(this.context.db, original.endpointId);
    if (original === undefined || endpoint === undefined || endpoint.profile !== profile) throw new DeskError('notFound', `no webhook delivery ${id} in this profile`);
    if (!this.seal.endpointHolds(endpoint) || !this.#sealHolds(original, endpoint.url)) throw new DeskError('unverified', `webhook delivery ${id} was altered in the desk database since it was queued: it is not sent again`);
    const redelivery = insertWebhookDelivery(
      this.context.db,
      { endpoint: endpoint.id, eventId: original.eventId, type: original.eventType, body: original.body, seal: original.seal, redeliveryOf: original.redeliveryOf ?? original.id },
      this.context.now(),
    );
    const queued = redelivery === null ? undefined : getWebhookDelivery(this.context.db, redelivery);
    if (queued === undefined) throw new DeskError('internal', 'the redelivery was not queued');
    this.kick();
    return this.view(queued);
  }

  /** The delivery log of the active profile, newest first (one endpoint's when given). */
  deliveries(endpoint: number | null, limit = 100): WebhookDeliveryView[] {
    const profile = this.context.activeProfileName();
    if (profile === undefined) return [];
    return listWebhookDeliveries(this.context.db, profile, endpoint, limit).map((delivery) => this.view(delivery));
  }

  view(delivery: WebhookDeliveryRow): WebhookDeliveryView {
    return {
      id: delivery.id,
      endpointId: delivery.endpointId,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      redeliveryOf: delivery.redeliveryOf,
      state: delivery.state,
      attempts: listWebhookAttempts(this.context.db, delivery.id),
      nextAttemptAt: delivery.nextAttemptAt,
      createdAt: delivery.createdAt,
    };
  }

  #sealHolds(delivery: WebhookDeliveryRow, url: string): boolean {
    return this.seal.holds({ endpointId: delivery.endpointId, url, eventId: delivery.eventId, body: delivery.body }, delivery.seal);
  }

  /** Whether this workstation holds the merchant credentials of the active profile (only such a workstation sends). */
  async #holdsCredentials(profile: string): Promise<boolean> {
    if (this.context.activeProfileName() !== profile) return false;
    try {
      await this.context.keys();
      return true;
    } catch {
      return false;
    }
  }

  async #attempt(delivery: WebhookDeliveryRow): Promise<void> {
    const endpoint = getWebhookEndpoint(this.context.db, delivery.endpointId);
    if (endpoint === undefined || !endpoint.enabled) {
      settleWebhookDelivery(this.context.db, delivery.id, { state: 'failed', attempts: delivery.attempts, next: null }, this.context.now());
      return;
    }
    if (!this.seal.endpointHolds(endpoint) || !this.#sealHolds(delivery, endpoint.url)) {
      // An edited row (its body, its event, or the endpoint's url since it was queued): never sent with the secret.
      const error = 'not sent: the delivery or its endpoint was altered in the desk database since the event was queued';
      appLog.warn(`webhooks: delivery ${delivery.id} ${error}`);
      this.context.db.transaction(() => {
        recordWebhookAttempt(this.context.db, delivery.id, { at: this.context.now(), status: null, durationMs: 0, error, snippet: null });
        settleWebhookDelivery(this.context.db, delivery.id, { state: 'failed', attempts: delivery.attempts, next: null }, this.context.now());
      })();
      return;
    }
    const notNow = (): void => postponeWebhookDelivery(this.context.db, delivery.id, this.context.now() + NOT_NOW_MS, this.context.now());
    // Not this workstation's to send (no credentials here, or another profile is open): it waits, unattempted.
    if (!(await this.#holdsCredentials(endpoint.profile))) {
      notNow();
      return;
    }
    const team = this.context.trail.team;
    const key = claimKey(delivery.eventId, endpoint.url);
    if (team !== null && delivery.redeliveryOf === null) {
      let holder: string | null;
      try {
        holder = await team.claimOnce(key, CLAIM_LEASE_MS);
      } catch (error) {
        // The team database is unreachable: nobody can tell whether another workstation sends it, so it waits.
        appLog.warn('webhooks: the team claim on a delivery could not be taken; it waits', { error });
        notNow();
        return;
      }
      if (holder !== null) {
        settleWebhookDelivery(this.context.db, delivery.id, { state: 'elsewhere', attempts: delivery.attempts, next: null }, this.context.now());
        return;
      }
    }
    const secret = await this.secrets.get(endpoint.id);
    const at = this.context.now();
    const attempts = delivery.attempts + 1;
    let attempt: WebhookAttemptRow;
    if (secret === null) {
      attempt = { at, status: null, durationMs: 0, error: 'the signing secret is missing from the secret store: remove the endpoint and add it again', snippet: null };
    } else {
      const started = performance.now();
      try {
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Treasury-Desk-Webhooks',
            [SIGNATURE_HEADER]: webhookSignature(secret, Math.floor(at / 1000), delivery.body),
            [EVENT_ID_HEADER]: delivery.eventId,
          },
          body: delivery.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.#options.timeoutMs),
        });
        const snippet = await snippetOf(response).catch(() => null);
        attempt = { at, status: response.status, durationMs: Math.round(performance.now() - started), error: null, snippet };
      } catch (error) {
        attempt = { at, status: null, durationMs: Math.round(performance.now() - started), error: errorText(error), snippet: null };
      }
    }
    const delivered = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    const delay = this.#options.retryDelaysMs[attempts - 1];
    const state: WebhookDeliveryState = delivered ? 'delivered' : delay === undefined || secret === null ? 'failed' : 'pending';
    const now = this.context.now();
    this.context.db.transaction(() => {
      recordWebhookAttempt(this.context.db, delivery.id, attempt);
      settleWebhookDelivery(this.context.db, delivery.id, { state, attempts, next: state === 'pending' && delay !== undefined ? now + delay : null }, now);
    })();
    if (team !== null && delivery.redeliveryOf === null && state !== 'pending') team.submissionSettled(key, state === 'delivered' ? `delivered (${attempt.status})` : 'failed');
  }
}
