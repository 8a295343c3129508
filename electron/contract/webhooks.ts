// What the webhook methods answer (webhooks/*): the merchant's endpoints (never their signing secret, except in the
// one answer to webhooks/add) and the delivery log, with each attempt's status, duration and escaped error text.
export const WEBHOOK_EVENT_TYPES = ['deposit.credited', 'order.final', 'batch.done', 'approval.waiting', 'sending.frozen'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEndpointView {
  readonly id: number;
  readonly url: string;
  readonly events: readonly string[];
  readonly enabled: boolean;
  readonly createdBy: string;
  readonly createdAt: number;
}

/** The answer to webhooks/add: the endpoint and its signing secret, shown this once. */
export interface WebhookEndpointAdded extends WebhookEndpointView {
  readonly secret: string;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed' | 'elsewhere';

export interface WebhookAttemptView {
  readonly at: number;
  /** The receiver's HTTP status, or null when it did not answer (the error says why). */
  readonly status: number | null;
  readonly durationMs: number;
  /** Escaped single-line text. */
  readonly error: string | null;
  /** The start of the receiver's answer (at most 200 characters, escaped). */
  readonly snippet: string | null;
}

export interface WebhookDeliveryView {
  readonly id: number;
  readonly endpointId: number;
  readonly eventId: string;
  readonly eventType: string;
  /** The delivery this one sends again (webhooks/redeliver), or null. */
  readonly redeliveryOf: number | null;
  /** elsewhere: another workstation of the team desk sends it. */
  readonly state: WebhookDeliveryState;
  readonly attempts: readonly WebhookAttemptView[];
  readonly nextAttemptAt: number | null;
  readonly createdAt: number;
}
