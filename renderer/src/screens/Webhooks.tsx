// Settings' Webhooks panel (docs/webhooks.md): an admin adds an endpoint for some event types and is shown its signing
// secret this once; listing and removing endpoints ask an admin's passphrase; the delivery log shows each delivery's
// attempts (status, duration, the engine's escaped error) with a Redeliver button that sends the same event again.
import { useEffect, useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryView, type WebhookEndpointAdded, type WebhookEndpointView, type WebhookEventType } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { t, tRich, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';

const EVENT_LABELS: Readonly<Record<WebhookEventType, MessageId>> = {
  'deposit.credited': 'payees.webhooks.event.depositCredited',
  'order.final': 'payees.webhooks.event.orderFinal',
  'batch.done': 'payees.webhooks.event.batchDone',
  'approval.waiting': 'payees.webhooks.event.approvalWaiting',
  'sending.frozen': 'payees.webhooks.event.sendingFrozen',
};

const STATE_LABELS: Readonly<Record<WebhookDeliveryView['state'], MessageId>> = {
  pending: 'payees.webhooks.state.pending',
  delivered: 'payees.webhooks.state.delivered',
  failed: 'payees.webhooks.state.failed',
  elsewhere: 'payees.webhooks.state.elsewhere',
};

function lastAttemptText(delivery: WebhookDeliveryView): string {
  const last = delivery.attempts.at(-1);
  if (last === undefined) return t('payees.webhooks.attempt.none');
  const outcome = last.status === null ? (last.error ?? t('payees.webhooks.attempt.noAnswer')) : t('payees.webhooks.attempt.http', { status: String(last.status) });
  return t('payees.webhooks.attempt.took', { outcome, ms: last.durationMs });
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
      title: t('payees.webhooks.show.title'),
      description: t('payees.webhooks.show.description'),
      hint: t('payees.webhooks.show.hint'),
      confirmLabel: t('payees.webhooks.show.confirm'),
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
      title: t('payees.webhooks.add.title'),
      description: t('payees.webhooks.add.description', { events: events.join(', '), url: url.trim() }),
      hint: t('payees.webhooks.signedHint'),
      confirmLabel: t('payees.webhooks.add.confirm'),
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
      title: t('payees.webhooks.remove.title'),
      description: t('payees.webhooks.remove.description', { url: endpoint.url }),
      hint: t('payees.webhooks.signedHint'),
      confirmLabel: t('payees.webhooks.remove.confirm'),
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
      <h2 id="webhooks-title">{t('payees.webhooks.title')}</h2>
      <p className="muted small">{t('payees.webhooks.intro')}</p>
      <form className="stack" onSubmit={(event) => void add(event)} aria-label={t('payees.webhooks.add.title')}>
        <Field label={t('payees.webhooks.url')} error={fieldError(error?.fields, 'url')} testId="@settings/webhook-url">
          {(control) => <input {...control} className="input" type="url" value={url} onChange={(event) => setUrl(event.target.value)} data-testid="@settings/webhook-url" />}
        </Field>
        <fieldset className="fieldset">
          <legend>{t('payees.webhooks.events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox">
              <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} data-testid={`@settings/webhook-event-${type}`} />
              {t(EVENT_LABELS[type])} (<code>{type}</code>)
            </label>
          ))}
        </fieldset>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={url.trim() === '' || events.length === 0} data-testid="@settings/webhook-add">
            {t('payees.webhooks.add.confirm')}
          </button>
          <button type="button" className="button" onClick={() => void showEndpoints()} data-testid="@settings/webhook-show">
            {t('payees.webhooks.showButton')}
          </button>
        </div>
      </form>
      <div role="status" data-testid="@settings/webhook-added">
        {added === null ? null : (
          <div className="stack">
            <p className="small">{t('payees.webhooks.added', { id: String(added.id) })}</p>
            <Field label={t('payees.webhooks.secret')}>
              {(control) => <input {...control} className="input input--mono" readOnly value={added.secret} data-testid="@settings/webhook-secret" />}
            </Field>
          </div>
        )}
      </div>
      <ErrorNotice error={error} />
      {endpoints === null ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@settings/webhook-endpoints">
            <caption className="visually-hidden">{t('payees.webhooks.endpoints.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('payees.webhooks.endpoints.id')}</th>
                <th scope="col">{t('payees.webhooks.endpoints.url')}</th>
                <th scope="col">{t('payees.webhooks.endpoints.events')}</th>
                <th scope="col">{t('payees.webhooks.endpoints.addedBy')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('payees.common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.length === 0 ? (
                <tr>
                  <td colSpan={5}>{t('payees.webhooks.endpoints.empty')}</td>
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
                        {tRich('payees.webhooks.endpoints.remove', { id: String(endpoint.id), hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
                      </button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <h3 id="webhook-deliveries-title">{t('payees.webhooks.deliveries.title')}</h3>
      <div className="actions">
        <button type="button" className="button" onClick={() => void loadDeliveries()} data-testid="@settings/webhook-refresh">
          {t('payees.common.refresh')}
        </button>
      </div>
      <div className="table-wrap">
        <table className="table table--dense" aria-labelledby="webhook-deliveries-title" data-testid="@settings/webhook-deliveries">
          <thead>
            <tr>
              <th scope="col">{t('payees.webhooks.deliveries.delivery')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.endpoint')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.event')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.state')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.attempts')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.lastAttempt')}</th>
              <th scope="col">{t('payees.webhooks.deliveries.queued')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('payees.common.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.length === 0 ? (
              <tr>
                <td colSpan={8}>{t('payees.webhooks.deliveries.empty')}</td>
              </tr>
            ) : (
              deliveries.map((delivery) => (
                <tr key={delivery.id} data-testid="@settings/webhook-delivery" data-id={delivery.id} data-state={delivery.state} data-event={delivery.eventId}>
                  <td>
                    {delivery.id}
                    {delivery.redeliveryOf === null ? null : ` ${t('payees.webhooks.deliveries.again', { id: String(delivery.redeliveryOf) })}`}
                  </td>
                  <td>{delivery.endpointId}</td>
                  <td>
                    {delivery.eventType} <span className="mono small">{delivery.eventId}</span>
                  </td>
                  <td>{t(STATE_LABELS[delivery.state])}</td>
                  <td>{delivery.attempts.length}</td>
                  <td>{lastAttemptText(delivery)}</td>
                  <td>
                    <DateTime at={delivery.createdAt} />
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => void redeliver(delivery)} data-testid="@settings/webhook-redeliver">
                      {tRich('payees.webhooks.deliveries.redeliver', { id: String(delivery.id), hidden: (chunks) => <span className="visually-hidden">{chunks}</span> })}
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
