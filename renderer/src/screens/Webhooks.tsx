// Settings' Webhooks panel (docs/webhooks.md): an admin adds an endpoint for some event types and is shown its signing
// secret this once; listing and removing endpoints ask an admin's passphrase; the delivery log shows each delivery's
// attempts (status, duration, the engine's escaped error) with a Redeliver button that sends the same event again.
import { useEffect, useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryView, type WebhookEndpointAdded, type WebhookEndpointView, type WebhookEventType } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { askOperator } from '../stores/operator-prompt';

const EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'deposit.credited': 'A deposit is credited',
  'order.final': 'A withdrawal reaches its final state',
  'batch.done': 'A batch payout is done',
  'approval.waiting': 'A withdrawal or batch waits for approval',
  'sending.frozen': 'An admin freezes all sending',
};

const STATE_LABELS: Readonly<Record<WebhookDeliveryView['state'], string>> = {
  pending: 'pending',
  delivered: 'delivered',
  failed: 'failed',
  elsewhere: 'sent by another workstation',
};

function lastAttemptText(delivery: WebhookDeliveryView): string {
  const last = delivery.attempts.at(-1);
  if (last === undefined) return 'not attempted yet';
  return `${last.status === null ? (last.error ?? 'no answer') : `HTTP ${last.status}`} in ${last.durationMs} ms`;
}

export function Webhooks(): React.JSX.Element {
  const [endpoints, setEndpoints] = useState<readonly WebhookEndpointView[] | null>(null);
  const [deliveries, setDeliveries] = useState<readonly WebhookDeliveryView[]>([]);
  const [added, setAdded] = useState<WebhookEndpointAdded | null>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<readonly WebhookEventType[]>(['order.final']);
  const [error, setError] = useState<ContractError | null>(null);

  async function loadDeliveries(): Promise<void> {
    const result = await call('webhooks/deliveries', {});
    if (result.ok) setDeliveries(result.value);
    else setError(result.error);
  }
  useEffect(() => {
    void loadDeliveries();
  }, []);

  async function showEndpoints(): Promise<void> {
    const result = await askOperator({
      title: 'Show the webhook endpoints',
      description: 'The endpoints this desk sends events to (never their secrets).',
      hint: 'An admin types their passphrase.',
      confirmLabel: 'Show',
      run: (as) => call('webhooks/list', { as }),
    });
    if (result === null) return;
    if (result.ok) setEndpoints(result.value as readonly WebhookEndpointView[]);
    setError(result.ok ? null : result.error);
  }

  async function add(event: FormEvent): Promise<void> {
    event.preventDefault();
    setAdded(null);
    const result = await askOperator({
      title: 'Add a webhook endpoint',
      description: `The desk will POST signed events (${events.join(', ')}) to ${url.trim()}.`,
      hint: 'An admin signs it with their passphrase; it is recorded in the audit log.',
      confirmLabel: 'Add endpoint',
      run: (as) => call('webhooks/add', { url: url.trim(), events: [...events], as }),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (!result.ok) return;
    const endpoint = result.value as WebhookEndpointAdded;
    setAdded(endpoint);
    setUrl('');
    const { secret: _shownOnce, ...view } = endpoint;
    setEndpoints((shown) => (shown === null ? null : [...shown, view]));
  }

  async function remove(endpoint: WebhookEndpointView): Promise<void> {
    const result = await askOperator({
      title: 'Remove a webhook endpoint',
      description: `The desk stops sending events to ${endpoint.url} and forgets its secret.`,
      hint: 'An admin signs it with their passphrase; it is recorded in the audit log.',
      confirmLabel: 'Remove endpoint',
      danger: true,
      run: (as) => call('webhooks/remove', { id: endpoint.id, as }),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) setEndpoints((shown) => (shown ?? []).filter((candidate) => candidate.id !== endpoint.id));
  }

  async function redeliver(delivery: WebhookDeliveryView): Promise<void> {
    const result = await call('webhooks/redeliver', { id: delivery.id });
    setError(result.ok ? null : result.error);
    await loadDeliveries();
  }

  function toggle(type: WebhookEventType, on: boolean): void {
    setEvents((chosen) => (on ? WEBHOOK_EVENT_TYPES.filter((candidate) => candidate === type || chosen.includes(candidate)) : chosen.filter((candidate) => candidate !== type)));
  }

  return (
    <section className="card" aria-labelledby="webhooks-title" data-testid="@settings/webhooks">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted small">
        Signed events to your own systems, sent by this app in the background and retried when your endpoint does not answer. Each endpoint has its own
        signing secret, shown once when it is added.
      </p>
      <form className="stack" onSubmit={(event) => void add(event)} aria-label="Add a webhook endpoint">
        <Field label="Endpoint URL (https, or http to this computer)" error={fieldError(error?.fields, 'url')} testId="@settings/webhook-url">
          {(control) => <input {...control} className="input" type="url" value={url} onChange={(event) => setUrl(event.target.value)} data-testid="@settings/webhook-url" />}
        </Field>
        <fieldset className="fieldset">
          <legend>Events to send</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox">
              <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} data-testid={`@settings/webhook-event-${type}`} />
              {EVENT_LABELS[type]} (<code>{type}</code>)
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={url.trim() === '' || events.length === 0} data-testid="@settings/webhook-add">
            Add endpoint
          </button>
          <button type="button" className="button" onClick={() => void showEndpoints()} data-testid="@settings/webhook-show">
            Show endpoints
          </button>
        </div>
      </form>
      <div role="status" data-testid="@settings/webhook-added">
        {added === null ? null : (
          <div className="stack">
            <p className="small">
              Endpoint {added.id} added. Its signing secret is shown this once: put it in the receiving system now.
            </p>
            <Field label="Signing secret">
              {(control) => <input {...control} className="input input--mono" readOnly value={added.secret} data-testid="@settings/webhook-secret" />}
            </Field>
          </div>
        )}
      </div>
      <ErrorNotice error={error} />
      {endpoints === null ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@settings/webhook-endpoints">
            <caption className="visually-hidden">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Added by</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.length === 0 ? (
                <tr>
                  <td colSpan={5}>No endpoints.</td>
                </tr>
              ) : (
                endpoints.map((endpoint) => (
                  <tr key={endpoint.id} data-testid="@settings/webhook-endpoint" data-id={endpoint.id}>
                    <td>{endpoint.id}</td>
                    <td className="mono">{endpoint.url}</td>
                    <td>{endpoint.events.join(', ')}</td>
                    <td>{endpoint.createdBy}</td>
                    <td>
                      <button type="button" className="button button--small" onClick={() => void remove(endpoint)} data-testid="@settings/webhook-remove">
                        Remove<span className="visually-hidden"> endpoint {endpoint.id}</span>
                      </button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <h3 id="webhook-deliveries-title">Delivery log</h3>
      <div className="actions">
        <button type="button" className="button" onClick={() => void loadDeliveries()} data-testid="@settings/webhook-refresh">
          Refresh
        </button>
      </div>
      <div className="table-wrap">
        <table className="table table--dense" aria-labelledby="webhook-deliveries-title" data-testid="@settings/webhook-deliveries">
          <thead>
            <tr>
              <th scope="col">Delivery</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last attempt</th>
              <th scope="col">Queued</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.length === 0 ? (
              <tr>
                <td colSpan={8}>No deliveries yet.</td>
              </tr>
            ) : (
              deliveries.map((delivery) => (
                <tr key={delivery.id} data-testid="@settings/webhook-delivery" data-id={delivery.id} data-state={delivery.state} data-event={delivery.eventId}>
                  <td>
                    {delivery.id}
                    {delivery.redeliveryOf === null ? null : ` (again, of ${delivery.redeliveryOf})`}
                  </td>
                  <td>{delivery.endpointId}</td>
                  <td>
                    {delivery.eventType} <span className="mono small">{delivery.eventId}</span>
                  </td>
                  <td>{STATE_LABELS[delivery.state]}</td>
                  <td>{delivery.attempts.length}</td>
                  <td>{lastAttemptText(delivery)}</td>
                  <td>
                    <DateTime at={delivery.createdAt} />
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => void redeliver(delivery)} data-testid="@settings/webhook-redeliver">
                      Redeliver<span className="visually-hidden"> delivery {delivery.id}</span>
                    </button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
