// Withdrawals: the request form, the approvals queue (approve / reject / send behind the operator's passphrase), all
// orders, and the selected order's detail with its status timeline (withdrawals/get history). Every decision shows
// the request's fingerprint to compare, and each order says what its signed statements support: which approvals
// count toward four-eyes (and why one does not) and any problem found. The detail shows the platform's remark on the
// order (escaped, labelled as the service's text) and every field of the order record the service reported. Orders
// carry their label (edited in place) and can be found by it. A batch payout's lines are never decided on here: the
// queue shows each batch once (opening it in Batch payouts), All orders marks each line with its batch. The approve
// dialog and the detail show everything an approver signs (withdrawals/review, components/ApproverReview).
import { useEffect, useState } from 'react';
import { CURRENCIES } from '../../../electron/chains';
import type { ApproverView, BatchLineRef, PayoutBatchQueueEntry, WithdrawalView } from '../../../electron/contract';
import { decisionsOpen } from '../../../electron/contract/withdrawal-lifecycle';
import { call, type ContractError } from '../api';
import { Amount } from '../components/Amount';
import { ApproverReview } from '../components/ApproverReview';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { ExportButton } from '../components/ExportButton';
import { ExplorerLink } from '../components/ExplorerLink';
import { Field } from '../components/Field';
import { Fingerprint } from '../components/Fingerprint';
import { RecordFields } from '../components/RecordFields';
import { RecordLabel } from '../components/RecordLabel';
import { StuckFlag } from '../components/StuckFlag';
import { currencyLabel, groupAmount, shorten, timeAgo } from '../format';
import { useDebounced, useNow } from '../hooks';
import { t, tRich } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore, type WithdrawalsTab } from '../stores/withdrawals';
import { BatchPayouts } from './BatchPayouts';
import { WithdrawalRequest } from './WithdrawalRequest';
import {
  batchStateName,
  financialConfirmationText,
  orderStatusText,
  orderStatusTitle,
  outcomeLabel,
  outcomeTone,
  stateLabel,
  STATE_TONES,
  statusSourceText,
} from './withdrawal-labels';

export function Withdrawals(): React.JSX.Element {
  const tab = useWithdrawalsStore((state) => state.tab);
  const setTab = useWithdrawalsStore((state) => state.showTab);
  // A batch counts once, however many lines it has.
  const waiting = useWithdrawalsStore((state) => state.queue.length + state.queueBatches.length);
  const detail = useWithdrawalsStore((state) => state.detail);
  useEffect(() => {
    void useWithdrawalsStore.getState().refreshAll();
    // Back on the queue when the screen is left: it opens there next time, unless it is opened to show a batch.
    return () => setTab('queue');
  }, [setTab]);
  const tabs: ReadonlyArray<[WithdrawalsTab, string]> = [
    ['queue', t('withdrawals.tabs.queue', { count: waiting })],
    ['request', t('withdrawals.tabs.request')],
    ['orders', t('withdrawals.tabs.orders')],
    ['batches', t('withdrawals.tabs.batches')],
  ];
  const wide = tab === 'request' || tab === 'batches';
  return (
    <div className={wide ? undefined : 'split'}>
      <div className={wide ? undefined : 'split__main'}>
        <div role="tablist" aria-label={t('withdrawals.tabs.label')} className="tabs__list">
          {tabs.map(([id, label]) => (
            <button
              key={id}
              id={`withdrawals-tab-${id}`}
              type="button"
              role="tab"
              aria-selected={tab === id}
              aria-controls="withdrawals-panel"
              tabIndex={tab === id ? 0 : -1}
              className="tabs__tab"
              onClick={() => setTab(id)}
              onKeyDown={(event) => {
                if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
                const index = tabs.findIndex(([candidate]) => candidate === tab);
                const next = tabs[(index + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
                if (next !== undefined) {
                  setTab(next[0]);
                  document.getElementById(`withdrawals-tab-${next[0]}`)?.focus();
                }
              }}
              data-testid={`@withdrawals/tab-${id}`}
            >
              {label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="withdrawals-panel" aria-labelledby={`withdrawals-tab-${tab}`} className="tabs__panel">
          {tab === 'queue' ? <ApprovalsQueue /> : null}
          {tab === 'request' ? <WithdrawalRequest /> : null}
          {tab === 'orders' ? <AllOrders /> : null}
          {tab === 'batches' ? <BatchPayouts /> : null}
        </div>
      </div>
      {wide ? null : (
      <aside className="split__side" aria-label={t('withdrawals.side.label')}>
        {detail === null ? (
          <section className="card">
            <h2>{t('withdrawals.side.title')}</h2>
            <p className="muted">{t('withdrawals.side.empty')}</p>
          </section>
        ) : (
          <WithdrawalDetail view={detail} />
        )}
      </aside>
      )}
    </div>
  );
}

function StateBadge({ view }: { readonly view: WithdrawalView }): React.JSX.Element {
  const state =
    view.outcome !== null ? (
      <span className={`badge badge--${outcomeTone(view.outcome)}`} data-testid="@withdrawals/outcome">
        {outcomeLabel(view.outcome)}
      </span>
    ) : (
      <span className={`badge badge--${STATE_TONES[view.state]}`} data-testid="@withdrawals/state">
        {stateLabel(view.state)}
        {view.state === 'submitted' && view.orderStatus !== null ? `: ${view.orderStatus}` : ''}
      </span>
    );
  if (view.stuck === null) return state;
  return (
    <>
      {state}{' '}
      <span className="badge badge--warn" title={t('withdrawals.badge.stuckTitle', { status: view.stuck.status })} data-testid="@withdrawals/stuck-badge">
        {t('withdrawals.badge.stuck')}
      </span>
    </>
  );
}

/** "1,250.5 USDT on TRON to T…": the amount grouped as on every screen, never the raw string. */
function decisionSummary(view: WithdrawalView): string {
  return t('withdrawals.decision.summary', { amount: groupAmount(view.amount), currency: currencyLabel(view.currency), address: view.toAddress });
}

/** The fingerprint block of every decision on a request: the person deciding compares it with the initiator's. */
function decisionFingerprint(view: WithdrawalView): { label: string; value: string | null; compare: string } {
  return {
    label: t('withdrawals.decision.fingerprint'),
    value: view.fingerprint,
    compare: t('withdrawals.decision.fingerprintCompare', { initiator: view.initiator }),
  };
}

/**
 * An approved request whose approvals no longer suffice because one expired (issue 20): it is approved again, by the same
 * approver or another (the engine's rule in withdrawals/desk.ts; the review names who expired and what is still needed).
 */
function mayApproveAgain(view: WithdrawalView): boolean {
  return view.state === 'approved' && view.batch === null && !view.verification.ok && view.approvals.some((approval) => approval.decision === 'approve' && approval.expired === true);
}

async function approve(view: WithdrawalView): Promise<ContractError | null> {
  // The approver sees everything they sign, from the signed intent (withdrawals/review), before the passphrase.
  const review = await call('withdrawals/review', { id: view.id });
  if (!review.ok) return review.error;
  const result = await askOperator({
    title: mayApproveAgain(view) ? t('withdrawals.decision.approve.titleAgain') : t('withdrawals.decision.approve.title'),
    fingerprint: decisionFingerprint(view),
    description: t('withdrawals.decision.approve.description', { summary: decisionSummary(view), initiator: view.initiator }),
    review: review.value,
    hint: t('withdrawals.decision.approve.hint', { initiator: view.initiator }),
    confirmLabel: t('withdrawals.action.approve'),
    run: (as) => useWithdrawalsStore.getState().approve(view.id, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function reject(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: t('withdrawals.decision.reject.title'),
    fingerprint: decisionFingerprint(view),
    description: t('withdrawals.decision.reject.description', { summary: decisionSummary(view), initiator: view.initiator }),
    confirmLabel: t('withdrawals.action.reject'),
    danger: true,
    reason: { label: t('withdrawals.decision.reasonForAudit'), required: true },
    run: (as, reason) => useWithdrawalsStore.getState().reject(view.id, reason, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function cancel(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: t('withdrawals.decision.cancel.title'),
    fingerprint: decisionFingerprint(view),
    description: t('withdrawals.decision.cancel.description', { summary: decisionSummary(view) }),
    confirmLabel: t('withdrawals.action.cancelRequest'),
    danger: true,
    reason: { label: t('withdrawals.decision.reasonOptional'), required: false },
    run: (as, reason) => useWithdrawalsStore.getState().cancel(view.id, reason, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function submit(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: t('withdrawals.decision.submit.title'),
    fingerprint: decisionFingerprint(view),
    description: t('withdrawals.decision.submit.description', { summary: decisionSummary(view), initiator: view.initiator }),
    hint: t('withdrawals.decision.submit.hint'),
    confirmLabel: t('withdrawals.action.send'),
    run: (as) => useWithdrawalsStore.getState().submit(view.id, as),
  });
  return result === null || result.ok ? null : result.error;
}

/** "1 of 2 independent approvals": what the signed statements count, not what the state column says. */
function countedText(view: WithdrawalView): string {
  return countedApprovalsText(view.verification.countedApprovals, view.verification.requiredApprovals);
}

/** "1 of 2 independent approvals", for a request or a whole batch. */
function countedApprovalsText(counted: number, required: number): string {
  return t('withdrawals.counted', { counted, required });
}

/** "Batch 3, line 2": which batch a line belongs to, opening it in Batch payouts. */
function BatchLineButton({ batch, testId }: { readonly batch: BatchLineRef; readonly testId: string }): React.JSX.Element {
  if (batch.id === null) return <span className="badge badge--bad" data-testid={testId}>{t('withdrawals.batchLine.gone')}</span>;
  const id = batch.id;
  const title = batch.fingerprint === null ? t('withdrawals.batchLine.fingerprintUnverified') : t('withdrawals.batchLine.fingerprint', { fingerprint: batch.fingerprint });
  return (
    <button type="button" className="button button--link" onClick={() => useWithdrawalsStore.getState().openBatch(id)} title={title} data-testid={testId}>
      {batch.line === null ? t('withdrawals.batchLine.button', { id }) : t('withdrawals.batchLine.buttonWithLine', { id, line: batch.line })}
    </button>
  );
}

/** One entry for a whole batch payout: what its approvers compare and count; deciding happens in Batch payouts. */
function QueueBatch({ batch, now }: { readonly batch: PayoutBatchQueueEntry; readonly now: number }): React.JSX.Element {
  const payouts = t('withdrawals.queue.batch.payouts', { count: batch.lineCount });
  return (
    <li className="queue__item" data-testid="@withdrawals/queue-batch" data-id={batch.id}>
      <div className="queue__main">
        <p className="queue__amount">
          {tRich('withdrawals.queue.batch.title', { payouts: <span data-testid="@withdrawals/queue-batch-lines">{payouts}</span> })}
        </p>
        <p className="small" data-testid="@withdrawals/queue-batch-totals">
          {t('withdrawals.queue.batch.totals', {
            totals:
              batch.totals.length === 0
                ? t('withdrawals.queue.batch.totalsUnverified')
                : batch.totals.map((total) => `${total.total} ${currencyLabel(total.currency)}`).join(', '),
          })}
        </p>
        <p className="small">
          {tRich('withdrawals.queue.fingerprint', {
            fingerprint: (
              <strong className="mono" data-testid="@withdrawals/queue-batch-fingerprint">
                {batch.fingerprint}
              </strong>
            ),
          })}
        </p>
        <p className="small muted">
          {tRich('withdrawals.queue.batch.imported', {
            source: batch.source,
            initiator: batch.initiator,
            ago: timeAgo(batch.requestedAt, now),
            counted: <span data-testid="@withdrawals/queue-batch-counted">{countedApprovalsText(batch.countedApprovals, batch.requiredApprovals)}</span>,
          })}
        </p>
      </div>
      <div className="queue__actions">
        <span className={`badge badge--${batch.state === 'awaitingApproval' ? 'info' : 'neutral'}`} data-testid="@withdrawals/queue-batch-state">
          {batch.state === 'awaitingApproval' ? t('withdrawals.badge.awaitingApproval') : batchStateName(batch.state)}
        </span>
        {batch.verified || batch.state === 'awaitingApproval' ? null : (
          <span className="badge badge--bad" title={batch.problems.join('; ')}>
            {t('withdrawals.badge.statementsDoNotHold')}
          </span>
        )}
        <button type="button" className="button button--primary button--small" onClick={() => useWithdrawalsStore.getState().openBatch(batch.id)} aria-label={t('withdrawals.queue.batch.openLabel', { id: batch.id, payouts })} data-testid="@withdrawals/open-batch-button">
          {t('withdrawals.queue.batch.open')}
        </button>
      </div>
    </li>
  );
}

function ApprovalsQueue(): React.JSX.Element {
  const queue = useWithdrawalsStore((state) => state.queue);
  const batches = useWithdrawalsStore((state) => state.queueBatches);
  const [error, setError] = useState<ContractError | null>(null);
  const now = useNow(30_000);
  return (
    <section className="card" aria-labelledby="queue-title">
      <h2 id="queue-title">{t('withdrawals.queue.title')}</h2>
      <SentNotice />
      <ErrorNotice error={error} testId="@withdrawals/queue-error" />
      {queue.length === 0 && batches.length === 0 ? (
        <p className="muted" data-testid="@withdrawals/queue-empty">
          {t('withdrawals.queue.empty')}
        </p>
      ) : (
        <ul className="queue" data-testid="@withdrawals/queue">
          {batches.map((batch) => (
            <QueueBatch key={`batch:${batch.id}`} batch={batch} now={now} />
          ))}
          {queue.map((view) => (
            <li key={view.id} className="queue__item" data-testid="@withdrawals/queue-item" data-id={view.id}>
              <div className="queue__main">
                <p className="queue__amount">
                  <Amount value={view.amount} currency={view.currency} /> <span className="muted small">{currencyLabel(view.currency)}</span>
                </p>
                <p className="mono small" title={view.toAddress}>
                  {t('withdrawals.toAddress', { address: view.toAddress })}
                </p>
                {(view.payee ?? null) === null ? null : (
                  <p className="small">
                    {tRich('withdrawals.queue.payee', { payee: <strong data-testid="@withdrawals/queue-payee">{view.payee}</strong> })}
                  </p>
                )}
                <p className="small">
                  {tRich('withdrawals.queue.fingerprint', {
                    fingerprint: (
                      <strong className="mono" data-testid="@withdrawals/queue-fingerprint">
                        {view.fingerprint ?? t('withdrawals.queue.fingerprintNone')}
                      </strong>
                    ),
                  })}
                </p>
                <p className="small muted">
                  {tRich('withdrawals.queue.requested', {
                    initiator: view.initiator,
                    ago: timeAgo(view.createdAt, now),
                    counted: <span data-testid="@withdrawals/queue-counted">{countedText(view)}</span>,
                  })}
                  {view.withdrawType === 'financialConfirmation' ? ` · ${t('withdrawals.queue.financialConfirmation')}` : ''}
                </p>
              </div>
              <div className="queue__actions">
                <StateBadge view={view} />
                {!view.verification.ok && !decisionsOpen(view.state).approve ? (
                  <span className="badge badge--bad" title={view.verification.problems.join('; ')} data-testid="@withdrawals/queue-unverified">
                    {t('withdrawals.badge.statementsDoNotHold')}
                  </span>
                ) : null}
                {decisionsOpen(view.state).approve ? (
                  <>
                    <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/approve-button">
                      {t('withdrawals.action.approve')}
                    </button>
                    <button type="button" className="button button--danger button--small" onClick={() => void reject(view).then(setError)} data-testid="@withdrawals/reject-button">
                      {t('withdrawals.action.reject')}
                    </button>
                  </>
                ) : null}
                {mayApproveAgain(view) ? (
                  <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/approve-again-button">
                    {t('withdrawals.action.approveAgain')}
                  </button>
                ) : null}
                {decisionsOpen(view.state).submit ? <SubmitButton view={view} onError={setError} /> : null}
                <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} data-testid="@withdrawals/details-button">
                  {t('withdrawals.action.details')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** After "Send to the service" the order leaves the queue: say where it went, and lead to it. */
function SentNotice(): React.JSX.Element | null {
  const sent = useWithdrawalsStore((state) => state.lastSent);
  if (sent === null) return null;
  return (
    <div className="notice notice--ok" role="status" data-testid="@withdrawals/sent-notice">
      <p>
        {tRich(sent.sentBy === null ? 'withdrawals.sent.anonymous' : 'withdrawals.sent.by', {
          operator: sent.sentBy?.operator ?? '',
          amount: <Amount value={sent.amount} currency={sent.currency} />,
          address: <span className="mono">{sent.toAddress}</span>,
          order: <span className="mono">{sent.userOrder}</span>,
          state: stateLabel(sent.state),
        })}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button--small"
          data-testid="@withdrawals/sent-show"
          onClick={() => {
            useWithdrawalsStore.getState().showTab('orders');
            void useWithdrawalsStore.getState().select(sent.id);
            useWithdrawalsStore.getState().dismissLastSent();
          }}
        >
          {t('withdrawals.sent.show')}
        </button>
        <button type="button" className="button button--small" onClick={() => useWithdrawalsStore.getState().dismissLastSent()}>
          {t('withdrawals.action.dismiss')}
        </button>
      </div>
    </div>
  );
}

function SubmitButton({ view, onError }: { readonly view: WithdrawalView; readonly onError: (error: ContractError | null) => void }): React.JSX.Element {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="button button--primary button--small"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void submit(view).then((error) => {
          setBusy(false);
          onError(error);
        });
      }}
      data-testid="@withdrawals/submit-button"
    >
      {busy ? t('withdrawals.action.sending') : t('withdrawals.action.send')}
    </button>
  );
}

/** The orders list's search by label (withdrawals/list `label`), applied as the person stops typing. */
function LabelSearch(): React.JSX.Element {
  const [text, setText] = useState(useWithdrawalsStore.getState().labelFilter);
  const debounced = useDebounced(text, 300);
  useEffect(() => {
    if (debounced !== useWithdrawalsStore.getState().labelFilter) void useWithdrawalsStore.getState().setLabelFilter(debounced);
  }, [debounced]);
  return (
    <form className="inline-form" role="search" aria-label={t('withdrawals.orders.search.label')} onSubmit={(event) => event.preventDefault()}>
      <Field label={t('withdrawals.orders.search.field')}>
        {(control) => <input {...control} className="input" type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder={t('withdrawals.orders.search.placeholder')} data-testid="@withdrawals/label-search" />}
      </Field>
    </form>
  );
}

function AllOrders(): React.JSX.Element {
  const orders = useWithdrawalsStore((state) => state.orders);
  const labelFilter = useWithdrawalsStore((state) => state.labelFilter);
  const nextCursor = useWithdrawalsStore((state) => state.nextCursor);
  const loading = useWithdrawalsStore((state) => state.loading);
  const error = useWithdrawalsStore((state) => state.error);
  const selectedId = useWithdrawalsStore((state) => state.selectedId);
  return (
    <section className="card" aria-labelledby="orders-title">
      <h2 id="orders-title">{t('withdrawals.orders.title')}</h2>
      <ExportButton
        groupLabel={t('withdrawals.orders.export.group')}
        label={t('withdrawals.orders.export.button')}
        action={() => call('desktop/exportWithdrawalsCsv', labelFilter.trim() === '' ? {} : { label: labelFilter })}
        written={(value) => t('withdrawals.orders.export.written', { rows: value.rows })}
        testId="@withdrawals/export"
      />
      <LabelSearch />
      <ErrorNotice error={error} />
      {orders.length === 0 && !loading ? <p className="muted" data-testid="@withdrawals/orders-empty">{labelFilter.trim() === '' ? t('withdrawals.orders.empty') : t('withdrawals.orders.emptyFiltered')}</p> : null}
      {orders.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@withdrawals/orders">
            <thead>
              <tr>
                <th scope="col">{t('withdrawals.orders.column.created')}</th>
                <th scope="col" className="num">
                  {t('withdrawals.field.amount')}
                </th>
                <th scope="col">{t('withdrawals.field.currency')}</th>
                <th scope="col">{t('withdrawals.field.to')}</th>
                <th scope="col">{t('withdrawals.field.status')}</th>
                <th scope="col">{t('withdrawals.orders.column.batch')}</th>
                <th scope="col">{t('withdrawals.orders.column.label')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('withdrawals.action.details')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((view) => (
                <tr key={view.id} className={view.id === selectedId ? 'is-selected' : undefined} aria-current={view.id === selectedId ? 'true' : undefined} data-testid="@withdrawals/order-row" data-id={view.id}>
                  <td className="small"><DateTime at={view.createdAt} /></td>
                  <td className="num">
                    <Amount value={view.amount} />
                  </td>
                  <td>{view.currency}</td>
                  <td className="mono" title={view.toAddress}>
                    {shorten(view.toAddress, 8)}
                    {(view.payee ?? null) === null ? null : (
                      <span className="small" data-testid="@withdrawals/order-payee">
                        {' '}
                        ({view.payee})
                      </span>
                    )}
                  </td>
                  <td>
                    <StateBadge view={view} />
                  </td>
                  <td>{view.batch === null ? <span className="muted">—</span> : <BatchLineButton batch={view.batch} testId="@withdrawals/order-batch" />}</td>
                  <td>
                    <RecordLabel type="withdrawal" refValue={view.userOrder} what={t('withdrawals.orders.labelWhat', { userOrder: view.userOrder })} testId="@withdrawals/label" />
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} aria-label={t('withdrawals.orders.detailsOf', { userOrder: view.userOrder })}>
                      {t('withdrawals.action.details')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor === null ? null : (
        <button type="button" className="button" disabled={loading} onClick={() => void useWithdrawalsStore.getState().loadMore()}>
          {loading ? t('withdrawals.orders.loading') : t('withdrawals.orders.loadMore')}
        </button>
      )}
    </section>
  );
}

interface TimelineEntry {
  readonly at: number;
  readonly title: string;
  readonly detail: string;
  readonly tone: 'neutral' | 'good' | 'bad' | 'info';
}

function timelineOf(view: WithdrawalView): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      at: view.createdAt,
      title: t('withdrawals.timeline.requested'),
      detail: t('withdrawals.timeline.requestedDetail', { initiator: view.initiator, required: view.requiredApprovals }),
      tone: 'neutral',
    },
  ];
  for (const approval of view.approvals) {
    entries.push({
      at: approval.at,
      title: approval.decision === 'approve' ? t('withdrawals.timeline.approved') : t('withdrawals.timeline.rejected'),
      detail: t('withdrawals.timeline.decidedDetail', {
        operator: approval.operator,
        hasReason: approval.reason === null ? 'no' : 'yes',
        reason: approval.reason ?? '',
        notCounted: approval.decision === 'approve' && !approval.counts ? 'yes' : 'no',
      }),
      tone: approval.decision === 'approve' ? 'good' : 'bad',
    });
  }
  if (view.sentBy !== null) {
    entries.push({ at: view.sentBy.at, title: t('withdrawals.timeline.sent'), detail: t('withdrawals.timeline.sentDetail', { operator: view.sentBy.operator }), tone: 'info' });
  }
  for (const event of view.history) {
    const final = event.status === 'success' ? 'good' : event.status === 'fail' || event.status === 'WithdrawRefund' ? 'bad' : 'info';
    entries.push({
      at: event.observedAt,
      title: orderStatusTitle(event.status),
      detail: t('withdrawals.timeline.statusDetail', { text: orderStatusText(event.status), source: statusSourceText(event.source) }),
      tone: final,
    });
  }
  return entries.sort((a, b) => a.at - b.at);
}

/** The approver's review of the request shown (withdrawals/review), read again whenever the request is (a change, Refresh). */
function useReview(view: WithdrawalView): { readonly value: ApproverView | null; readonly error: ContractError | null } {
  const [review, setReview] = useState<{ readonly value: ApproverView | null; readonly error: ContractError | null }>({ value: null, error: null });
  useEffect(() => {
    const { id } = view;
    let current = true;
    void call('withdrawals/review', { id }).then((result) => {
      if (current) setReview(result.ok ? { value: result.value, error: null } : { value: null, error: result.error });
    });
    return () => {
      current = false;
    };
  }, [view]);
  return review;
}

function WithdrawalDetail({ view }: { readonly view: WithdrawalView }): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);
  const review = useReview(view);
  const entries = timelineOf(view);
  return (
    <section className="card" aria-labelledby="withdrawal-detail-title" data-testid="@withdrawals/detail" data-id={view.id}>
      <div className="card__head">
        <h2 id="withdrawal-detail-title">
          <Amount value={view.amount} currency={view.currency} />
        </h2>
        <StateBadge view={view} />
      </div>
      <p className="mono small break">
        {t('withdrawals.toAddress', { address: view.toAddress })} <ExplorerLink chain={CURRENCIES[view.currency].chain} target="address" value={view.toAddress} testId="@withdrawals/detail-address-link" />
      </p>
      <Fingerprint
        label={t('withdrawals.decision.fingerprint')}
        value={view.fingerprint}
        compare={t('withdrawals.detail.fingerprintCompare')}
        testId="@withdrawals/detail-fingerprint"
      />
      {view.batch === null ? null : (
        <p className="notice notice--info" data-testid="@withdrawals/detail-batch">
          {tRich('withdrawals.detail.batchLine', { button: <BatchLineButton batch={view.batch} testId="@withdrawals/detail-batch-button" /> })}
        </p>
      )}
      <StuckFlag view={view} testId="@withdrawals/stuck-flag" />
      <Verification view={view} />
      <h3>{t('withdrawals.detail.reviewTitle')}</h3>
      {review.error !== null ? (
        <ErrorNotice error={review.error} testId="@withdrawals/detail-review-error" />
      ) : review.value === null || review.value.id !== view.id ? (
        <p className="muted">{t('withdrawals.detail.reviewReading')}</p>
      ) : (
        <ApproverReview view={review.value} testId="@withdrawals/detail-review" />
      )}
      <dl className="facts">
        <dt>{t('withdrawals.field.currency')}</dt>
        <dd>{currencyLabel(view.currency)}</dd>
        <dt>{t('withdrawals.detail.userOrder')}</dt>
        <dd className="mono">{view.userOrder}</dd>
        <dt>{t('withdrawals.detail.platformOrder')}</dt>
        <dd className="mono">{view.apiOrder ?? '—'}</dd>
        {view.fee === null ? null : (
          <>
            <dt>{t('withdrawals.detail.serviceFee')}</dt>
            <dd data-testid="@withdrawals/detail-service-fee">
              <Amount value={view.fee} currency={view.currency} />
            </dd>
          </>
        )}
        <dt>{t('withdrawals.detail.serviceStatus')}</dt>
        <dd data-testid="@withdrawals/order-status">{view.orderStatus ?? t('withdrawals.detail.notSentYet')}</dd>
        <dt>{t('withdrawals.detail.transaction')}</dt>
        <dd className="mono break">
          {view.txid === null || view.txid === '' ? (
            '—'
          ) : (
            <>
              {view.txid} <ExplorerLink chain={CURRENCIES[view.currency].chain} target="transaction" value={view.txid} testId="@withdrawals/detail-txid-link" />
            </>
          )}
        </dd>
        <dt>{t('withdrawals.detail.type')}</dt>
        <dd>{view.withdrawType === 'financialConfirmation' ? t('withdrawals.financialConfirmation.name') : t('withdrawals.detail.typeNormal')}</dd>
        {view.memo === null ? null : (
          <>
            <dt>{t('withdrawals.detail.memo')}</dt>
            <dd data-testid="@withdrawals/detail-memo">{view.memo}</dd>
          </>
        )}
        {view.platformMessage === null ? null : (
          <>
            <dt>{t('withdrawals.detail.platformRemark')}</dt>
            <dd>
              <q className="break" data-testid="@withdrawals/platform-message">
                {view.platformMessage}
              </q>{' '}
              <span className="muted small">{t('withdrawals.detail.platformRemarkSource')}</span>
            </dd>
          </>
        )}
      </dl>
      {view.platformRecord === null ? null : (
        <RecordFields fields={view.platformRecord} summary={t('withdrawals.detail.platformRecord')} testId="@withdrawals/platform-record" />
      )}
      {view.lastError === null ? null : (
        <div className={`notice notice--${view.state === 'submitUnknown' ? 'warn' : 'error'}`} data-testid="@withdrawals/last-error">
          <p className="notice__title">{view.state === 'submitUnknown' ? t('withdrawals.detail.submitUnknown') : t('withdrawals.detail.submitFailed')}</p>
          <p>{view.lastError}</p>
          {view.state === 'submitUnknown' ? (
            <p className="notice__detail">{t('withdrawals.detail.submitUnknownExplained')}</p>
          ) : null}
          {view.state === 'submitFailed' ? <p className="notice__detail">{t('withdrawals.detail.submitFailedExplained')}</p> : null}
        </div>
      )}
      {view.withdrawType === 'financialConfirmation' ? <p className="notice notice--info">{financialConfirmationText()}</p> : null}
      <Approvals view={view} />
      <h3>{t('withdrawals.timeline.title')}</h3>
      <ol className="timeline" data-testid="@withdrawals/timeline">
        {entries.map((entry, index) => (
          <li key={`${entry.at}:${index}`} className={`timeline__item timeline__item--${entry.tone}`}>
            <p className="timeline__title">{entry.title}</p>
            <p className="timeline__detail">{entry.detail}</p>
            <p className="timeline__time"><DateTime at={entry.at} /></p>
          </li>
        ))}
      </ol>
      <ErrorNotice error={error} />
      <div className="actions">
        {decisionsOpen(view.state).approve && view.batch === null ? (
          <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/detail-approve-button">
            {t('withdrawals.action.approve')}
          </button>
        ) : null}
        {mayApproveAgain(view) ? (
          <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/detail-approve-again-button">
            {t('withdrawals.action.approveAgain')}
          </button>
        ) : null}
        {decisionsOpen(view.state).submit ? <SubmitButton view={view} onError={setError} /> : null}
        {decisionsOpen(view.state).cancel && view.batch === null ? (
          <button type="button" className="button button--small" onClick={() => void cancel(view).then(setError)} data-testid="@withdrawals/cancel-button">
            {t('withdrawals.action.cancelRequest')}
          </button>
        ) : null}
        <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} data-testid="@withdrawals/refresh-button">
          {t('withdrawals.action.refresh')}
        </button>
      </div>
    </section>
  );
}

/** What the signed statements support: the counted approvals, and every problem found (a tampered row, a rejection…). */
function Verification({ view }: { readonly view: WithdrawalView }): React.JSX.Element {
  const { verification } = view;
  if (verification.ok) {
    return (
      <p className="verdict verdict--ok" data-testid="@withdrawals/verification" data-ok="true">
        {t('withdrawals.verification.ok', { counted: countedText(view) })}
      </p>
    );
  }
  const stillAsking = decisionsOpen(view.state).approve;
  return (
    <div className={`notice ${stillAsking ? 'notice--warn' : 'notice--error'}`} data-testid="@withdrawals/verification" data-ok="false">
      <p className="notice__title">{stillAsking ? t('withdrawals.verification.notYet', { counted: countedText(view) }) : t('withdrawals.verification.notSupported', { counted: countedText(view) })}</p>
      {verification.problems.length === 0 ? null : (
        <ul data-testid="@withdrawals/verification-problems">
          {verification.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Each decision on the request, and whether it counts toward four-eyes (with the reason when it does not). */
function Approvals({ view }: { readonly view: WithdrawalView }): React.JSX.Element | null {
  if (view.approvals.length === 0) return null;
  return (
    <>
      <h3>{t('withdrawals.approvals.title')}</h3>
      <ul className="stack small" data-testid="@withdrawals/approvals">
        {view.approvals.map((approval) => (
          <li key={`${approval.operator}:${approval.at}`} data-testid="@withdrawals/approval" data-operator={approval.operator} data-counts={String(approval.counts)}>
            {tRich(approval.decision === 'approve' ? 'withdrawals.approvals.approved' : 'withdrawals.approvals.rejected', {
              operator: <strong>{approval.operator}</strong>,
              at: <DateTime at={approval.at} />,
            })}{' '}
            {approval.decision === 'reject' ? null : approval.counts ? (
              <span className="badge badge--good">{t('withdrawals.approvals.counts')}</span>
            ) : (
              <span className="badge badge--warn">{t('withdrawals.approvals.doesNotCount')}</span>
            )}
            {approval.note === null ? null : <span className="muted"> {approval.note}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
