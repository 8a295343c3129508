// The merchant's webhook endpoints: an admin adds one (https, or http to this machine's loopback only) with the event
// types it gets, and is shown its signing secret once; the secret is kept in the desk's secret store (keychain or
// private file) and in this process's memory, never in SQLite, a log or any answer but the one to `add`. Adding and
// removing are signed actions of the admin (audited).
import { randomBytes } from 'node:crypto';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { DeskSecretStore } from '../secrets';
import type { ReadableDB } from '../store/database';
import { actingAs, signAction, type OperatorCredentials } from '../operators';
import { DeskError } from '../kernel/errors';
import { registerSecret } from '../log';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointAdded, type WebhookEndpointView, type WebhookEventType } from '../../contract';
import { isWebhookEventType } from './events';
import { type WebhookSeal, webhookSealName } from './seal';
import { getWebhookEndpoint, insertWebhookEndpoint, listWebhookEndpoints, liveWebhookEndpointIds, markWebhookEndpointRemoved, sealWebhookEndpoint, type WebhookEndpointRow } from './webhooks-table';

export type WebhooksContext = Kernel & AuditRecorder & ProfileSelection;

/** The name under which desk `deskId`'s endpoint `id` keeps its signing secret in the desk's secret store. */
export function webhookSecretName(deskId: string, id: number): string {
  return `webhook-secret-${id}/${deskId}`;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The url as the desk will call it, or a refusal: https anywhere, http only to loopback, no credentials inside. */
export function checkWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DeskError('invalidInput', 'the webhook url is not a url', { url: 'not a url' });
  }
  if (url.username !== '' || url.password !== '') throw new DeskError('invalidInput', 'a webhook url may not carry a user name or password (it would be stored in plain text)', { url: 'credentials in the url' });
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return url.href;
  if (url.protocol === 'http:') throw new DeskError('invalidInput', 'a webhook url must use https (plain http is allowed only to this machine: 127.0.0.1, ::1 or localhost)', { url: 'http to another machine' });
  throw new DeskError('invalidInput', 'a webhook url must be https', { url: 'not http(s)' });
}

function checkEvents(events: readonly string[]): WebhookEventType[] {
  if (events.length === 0) throw new DeskError('invalidInput', `name at least one event: ${WEBHOOK_EVENT_TYPES.join(', ')}`, { events: 'none' });
  const unknown = events.filter((event) => !isWebhookEventType(event));
  if (unknown.length > 0) throw new DeskError('invalidInput', `unknown event ${JSON.stringify(unknown[0]?.slice(0, 40))}: the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`, { events: 'unknown event' });
  return [...new Set(events)].filter(isWebhookEventType);
}

function viewOf(endpoint: WebhookEndpointRow): WebhookEndpointView {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled, createdBy: endpoint.createdBy, createdAt: endpoint.createdAt };
}

/**
 * The entries this module keeps in desk `deskId`'s secret store: the sealing key and each live endpoint's signing
 * secret (a move between the keychain and the file carries them with the desk key, audit/anchor-store.ts).
 */
export function webhookDeskSecretNames(db: ReadableDB, deskId: string): string[] {
  return [webhookSealName(deskId), ...liveWebhookEndpointIds(db).map((id) => webhookSecretName(deskId, id))];
}

/** The signing secrets this process has read or made, by endpoint id (main-process memory only). */
export class WebhookSecrets {
  readonly #known = new Map<number, string>();
  constructor(
    private readonly store: DeskSecretStore,
    private readonly deskId: string,
  ) {}

  async get(id: number): Promise<string | null> {
    const known = this.#known.get(id);
    if (known !== undefined) return known;
    const stored = await this.store.read(webhookSecretName(this.deskId, id));
    if (stored !== null) this.#remember(id, stored);
    return stored;
  }

  async put(id: number, secret: string): Promise<void> {
    this.#remember(id, secret);
    await this.store.write(webhookSecretName(this.deskId, id), secret);
  }

  /** Known to the log's redactor from the moment this process holds it, so no log or diagnostics file shows it. */
  #remember(id: number, secret: string): void {
    registerSecret(secret, 'secretField');
    this.#known.set(id, secret);
  }

  async forget(id: number): Promise<void> {
    this.#known.delete(id);
    await this.store.remove(webhookSecretName(this.deskId, id));
  }
}

/** Adds an endpoint for the active profile; the answer holds its signing secret, shown this once. */
export async function addWebhookEndpoint(
  context: WebhooksContext,
  secrets: WebhookSecrets,
  seal: WebhookSeal,
  request: { url: string; events: readonly string[]; as: OperatorCredentials },
): Promise<WebhookEndpointAdded> {
  const url = checkWebhookUrl(request.url);
  const events = checkEvents(request.events);
  const acting = await actingAs(context, request.as, 'manageSettings');
  let id = 0;
  await signAction(acting, 'webhooks/add', url, { events }, () => {
    id = insertWebhookEndpoint(context.db, acting.profile, url, events, acting.name, context.now());
    sealWebhookEndpoint(context.db, id, seal.ofEndpoint({ id, profile: acting.profile, url, events }));
  });
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  try {
    await secrets.put(id, secret);
  } catch (error) {
    // An endpoint without its secret could never sign: it is withdrawn again before the failure is told.
    markWebhookEndpointRemoved(context.db, acting.profile, id, context.now());
    throw error;
  }
  const endpoint = getWebhookEndpoint(context.db, id);
  if (endpoint === undefined) throw new DeskError('internal', 'the webhook endpoint was not recorded');
  return { ...viewOf(endpoint), secret };
}

export async function removeWebhookEndpoint(context: WebhooksContext, secrets: WebhookSecrets, request: { id: number; as: OperatorCredentials }): Promise<void> {
  const acting = await actingAs(context, request.as, 'manageSettings');
  const endpoint = getWebhookEndpoint(context.db, request.id);
  if (endpoint?.profile !== acting.profile) throw new DeskError('notFound', `no webhook endpoint ${request.id} in this profile`);
  await signAction(acting, 'webhooks/remove', endpoint.url, { id: endpoint.id }, () => {
    markWebhookEndpointRemoved(context.db, acting.profile, endpoint.id, context.now());
  });
  await secrets.forget(endpoint.id);
}

/** The active profile's endpoints (never a secret), for an admin. */
export async function listWebhookEndpointViews(context: WebhooksContext, as: OperatorCredentials): Promise<WebhookEndpointView[]> {
  const acting = await actingAs(context, as, 'manageSettings');
  return listWebhookEndpoints(context.db, acting.profile).map(viewOf);
}
