// The webhooks' records: the merchant's endpoints per profile (never their signing secret), the deliveries queued for
// each (one per endpoint and event; a redelivery is a new row naming the one it repeats) and every attempt made.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { parseJsonColumn } from '../store/json';
import type { WebhookAttemptView, WebhookDeliveryState } from '../../contract';

export interface WebhookEndpointRow {
  readonly id: number;
  readonly profile: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly enabled: boolean;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly seal: string;
}

export type { WebhookDeliveryState };

export interface WebhookDeliveryRow {
  readonly id: number;
  readonly endpointId: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly body: string;
  readonly seal: string;
  readonly redeliveryOf: number | null;
  readonly state: WebhookDeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type WebhookAttemptRow = WebhookAttemptView;

interface EndpointDbRow {
  id: number;
  profile: string;
  url: string;
  events_json: string;
  enabled: number;
  created_by: string;
  created_at: number;
  seal: string;
}

interface DeliveryDbRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  body: string;
  seal: string;
  redelivery_of: number | null;
  state: WebhookDeliveryState;
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

const statements = perDatabase((db) => ({
  addEndpoint: db.prepare(
    `INSERT INTO webhook_endpoints (profile, url, events_json, enabled, created_by, created_at) VALUES (@profile, @url, @events, 1, @by, @now)`,
  ),
  sealEndpoint: db.prepare('UPDATE webhook_endpoints SET seal = ? WHERE id = ?'),
  removeEndpoint: db.prepare('UPDATE webhook_endpoints SET enabled = 0, removed_at = ? WHERE id = ? AND profile = ? AND removed_at IS NULL'),
  endpoint: db.prepare('SELECT * FROM webhook_endpoints WHERE id = ? AND removed_at IS NULL'),
  endpoints: db.prepare('SELECT * FROM webhook_endpoints WHERE profile = ? AND removed_at IS NULL ORDER BY id'),
  liveEndpointIds: db.prepare('SELECT id FROM webhook_endpoints WHERE removed_at IS NULL ORDER BY id').pluck(),
  queue: db.prepare(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body, seal, redelivery_of, state, attempts, next_attempt_at, created_at, updated_at)
     VALUES (@endpoint, @eventId, @type, @body, @seal, @redeliveryOf, 'pending', 0, @now, @now, @now)
     ON CONFLICT DO NOTHING`,
  ),
  delivery: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
  due: db.prepare(
    `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND e.profile = ? ORDER BY d.next_attempt_at, d.id LIMIT ?`,
  ),
  postpone: db.prepare(`UPDATE webhook_deliveries SET next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'pending'`),
  deliveries: db.prepare(
    `SELECT d.* FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE e.profile = @profile AND (@endpoint IS NULL OR d.endpoint_id = @endpoint) ORDER BY d.id DESC LIMIT @limit`,
  ),
  settle: db.prepare('UPDATE webhook_deliveries SET state = @state, attempts = @attempts, next_attempt_at = @next, updated_at = @now WHERE id = @id'),
  attempt: db.prepare('INSERT INTO webhook_attempts (delivery_id, at, status, duration_ms, error, snippet) VALUES (?, ?, ?, ?, ?, ?)'),
  attempts: db.prepare('SELECT at, status, duration_ms, error, snippet FROM webhook_attempts WHERE delivery_id = ? ORDER BY id'),
}));

function endpointOf(row: EndpointDbRow): WebhookEndpointRow {
  const events = parseJsonColumn(row.events_json);
  return {
    id: row.id,
    profile: row.profile,
    url: row.url,
    events: Array.isArray(events) ? events.filter((event): event is string => typeof event === 'string') : [],
    enabled: row.enabled === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    seal: row.seal,
  };
}

function deliveryOf(row: DeliveryDbRow): WebhookDeliveryRow {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    body: row.body,
    seal: row.seal,
    redeliveryOf: row.redelivery_of,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function insertWebhookEndpoint(db: WritableDB, profile: string, url: string, events: readonly string[], by: string, now: number): number {
  return Number(statements(db).addEndpoint.run({ profile, url, events: JSON.stringify(events), by, now }).lastInsertRowid);
}

export function sealWebhookEndpoint(db: WritableDB, id: number, seal: string): void {
  statements(db).sealEndpoint.run(seal, id);
}

export function markWebhookEndpointRemoved(db: WritableDB, profile: string, id: number, now: number): boolean {
  return statements(db).removeEndpoint.run(now, id, profile).changes === 1;
}

export function getWebhookEndpoint(db: ReadableDB, id: number): WebhookEndpointRow | undefined {
  const row = statements(db).endpoint.get(id) as EndpointDbRow | undefined;
  return row === undefined ? undefined : endpointOf(row);
}

/** The ids of every profile's endpoints not removed (their secrets are the desk's to keep). */
export function liveWebhookEndpointIds(db: ReadableDB): number[] {
  return (statements(db).liveEndpointIds.all() as unknown[]).map(Number);
}

export function listWebhookEndpoints(db: ReadableDB, profile: string): WebhookEndpointRow[] {
  return (statements(db).endpoints.all(profile) as EndpointDbRow[]).map(endpointOf);
}

/** Queues one delivery; false when this endpoint already has the event (an occurrence is queued once). */
export function insertWebhookDelivery(
  db: WritableDB,
  delivery: { endpoint: number; eventId: string; type: string; body: string; seal: string; redeliveryOf: number | null },
  now: number,
): number | null {
  const result = statements(db).queue.run({ ...delivery, now });
  return result.changes === 1 ? Number(result.lastInsertRowid) : null;
}

export function getWebhookDelivery(db: ReadableDB, id: number): WebhookDeliveryRow | undefined {
  const row = statements(db).delivery.get(id) as DeliveryDbRow | undefined;
  return row === undefined ? undefined : deliveryOf(row);
}

/** The pending deliveries of `profile`'s endpoints whose next attempt is due, oldest due first. */
export function dueWebhookDeliveries(db: ReadableDB, profile: string, now: number, limit: number): WebhookDeliveryRow[] {
  return (statements(db).due.all(now, profile, limit) as DeliveryDbRow[]).map(deliveryOf);
}

/** Moves a pending delivery's next attempt to `at` without counting an attempt (it could not be tried now). */
export function postponeWebhookDelivery(db: WritableDB, id: number, at: number, now: number): void {
  statements(db).postpone.run(at, now, id);
}

export function listWebhookDeliveries(db: ReadableDB, profile: string, endpoint: number | null, limit: number): WebhookDeliveryRow[] {
  return (statements(db).deliveries.all({ profile, endpoint, limit }) as DeliveryDbRow[]).map(deliveryOf);
}

export function settleWebhookDelivery(
  db: WritableDB,
  id: number,
  change: { state: WebhookDeliveryState; attempts: number; next: number | null },
  now: number,
): void {
  statements(db).settle.run({ id, ...change, now });
}

export function recordWebhookAttempt(db: WritableDB, deliveryId: number, attempt: WebhookAttemptRow): void {
  statements(db).attempt.run(deliveryId, attempt.at, attempt.status, attempt.durationMs, attempt.error, attempt.snippet);
}

export function listWebhookAttempts(db: ReadableDB, deliveryId: number): WebhookAttemptRow[] {
  return (statements(db).attempts.all(deliveryId) as { at: number; status: number | null; duration_ms: number; error: string | null; snippet: string | null }[]).map(
    (row) => ({ at: row.at, status: row.status, durationMs: row.duration_ms, error: row.error, snippet: row.snippet }),
  );
}
