// The events the desk sends to the merchant's endpoints: their types, their id (the same on every workstation of a
// team desk, so a receiver and the team's claim see one event), their body (amounts as decimal strings), and the
// queueing of one delivery per subscribed endpoint, in the caller's transaction (the one that claims the occurrence).
import { createHash, createHmac } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../contract';
import type { WritableDB, ReadableDB } from '../store/database';
import type { WebhookSeal } from './seal';
import { insertWebhookDelivery, listWebhookEndpoints } from './webhooks-table';

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const SIGNATURE_HEADER = 'Treasury-Desk-Signature';
export const EVENT_ID_HEADER = 'Treasury-Desk-Event-Id';

/** What a webhook event says: its `data` holds only strings, numbers, booleans and nulls (amounts as decimal strings). */
export interface WebhookEventDraft {
  readonly type: WebhookEventType;
  readonly data: Readonly<Record<string, string | number | boolean | null>>;
}

/** The event id of `occurrence` on the merchant account `merchantId`: every workstation derives the same. */
export function webhookEventId(merchantId: string, occurrence: string): string {
  return `evt_${createHash('sha256').update(`${merchantId}\n${occurrence}`).digest('hex').slice(0, 32)}`;
}

/** The signature header's value for `body` sent at `unixSeconds`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** Whether an enabled endpoint of `profile` wants events of `type`. */
export function webhookWanted(db: ReadableDB, profile: string, type: WebhookEventType): boolean {
  return listWebhookEndpoints(db, profile).some((endpoint) => endpoint.enabled && endpoint.events.includes(type));
}

/**
 * Queues the event for every enabled endpoint of `profile` subscribed to its type (once per endpoint: a second call
 * for the same occurrence queues nothing). Run it in the transaction that records the occurrence.
 */
export function queueWebhookEvent(db: WritableDB, seal: WebhookSeal, profile: string, merchantId: string, occurrence: string, event: WebhookEventDraft, now: number): number {
  // An endpoint row edited since it was added (its url, its events) gets nothing.
  const endpoints = listWebhookEndpoints(db, profile).filter((endpoint) => endpoint.enabled && endpoint.events.includes(event.type) && seal.endpointHolds(endpoint));
  if (endpoints.length === 0) return 0;
  const id = webhookEventId(merchantId, occurrence);
  const body = JSON.stringify({ id, type: event.type, created: Math.floor(now / 1000), data: event.data });
  let queued = 0;
  for (const endpoint of endpoints) {
    const sealed = seal.of({ endpointId: endpoint.id, url: endpoint.url, eventId: id, body });
    if (insertWebhookDelivery(db, { endpoint: endpoint.id, eventId: id, type: event.type, body, seal: sealed, redeliveryOf: null }, now) !== null) queued += 1;
  }
  return queued;
}
