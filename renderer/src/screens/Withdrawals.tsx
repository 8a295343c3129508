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
import { askOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore, type WithdrawalsTab } from '../stores/withdrawals';
import { BatchPayouts } from './BatchPayouts';
import { WithdrawalRequest } from './WithdrawalRequest';
import {
  FINANCIAL_CONFIRMATION_TEXT,
  ORDER_STATUS_TEXT,
  orderStatusTitle,
  OUTCOME_LABELS,
  outcomeTone,
  STATE_LABELS,
  STATE_TONES,
  STATUS_SOURCE_TEXT,
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
    ['queue', `Approvals queue (${waiting})`],
    ['request', 'New request'],
    ['orders', 'All orders'],
    ['batches', 'Batch payouts'],
  ];
  const wide = tab === 'request' || tab === 'batches';
  return (
    <div className={wide ? undefined : 'split'}>
      <div className={wide ? undefined : 'split__main'}>
        <div role="tablist" aria-label="Withdrawals" className="tabs__list">
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
      <aside className="split__side" aria-label="Selected withdrawal">
        {detail === null ? (
          <section className="card">
            <h2>Order details</h2>
            <p className="muted">Select a withdrawal to see its approvals and status timeline.</p>
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
        {OUTCOME_LABELS[view.outcome]}
      </span>
    ) : (
      <span className={`badge badge--${STATE_TONES[view.state]}`} data-testid="@withdrawals/state">
        {STATE_LABELS[view.state]}
        {view.state === 'submitted' && view.orderStatus !== null ? `: ${view.orderStatus}` : ''}
      </span>
    );
  if (view.stuck === null) return state;
  return (
    <>
      {state}{' '}
      <span className="badge badge--warn" title={`pending in ${view.stuck.status} past its threshold`} data-testid="@withdrawals/stuck-badge">
        stuck
      </span>
    </>
  );
}

/** "1,250.5 USDT on TRON to T…": the amount grouped as on every screen, never the raw string. */
function decisionSummary(view: WithdrawalView): string {
  return `${groupAmount(view.amount)} ${currencyLabel(view.currency)} to ${view.toAddress}`;
}

/** The fingerprint block of every decision on a request: the person deciding compares it with the initiator's. */
function decisionFingerprint(view: WithdrawalView): { label: string; value: string | null; compare: string } {
  return {
    label: 'Request fingerprint',
    value: view.fingerprint,
    compare: `Compare it with the fingerprint ${view.initiator} saw when requesting, and with the one in the order's remark at the service.`,
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
    title: mayApproveAgain(view) ? 'Approve withdrawal again' : 'Approve withdrawal',
    fingerprint: decisionFingerprint(view),
    description: `${decisionSummary(view)}, requested by ${view.initiator}.`,
    review: review.value,
    hint: `An approver other than the initiator (${view.initiator}) signs with their own passphrase.`,
    confirmLabel: 'Approve',
    run: (as) => useWithdrawalsStore.getState().approve(view.id, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function reject(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: 'Reject withdrawal',
    fingerprint: decisionFingerprint(view),
    description: `${decisionSummary(view)}, requested by ${view.initiator}. A rejected request is never sent.`,
    confirmLabel: 'Reject',
    danger: true,
    reason: { label: 'Reason (recorded in the audit log)', required: true },
    run: (as, reason) => useWithdrawalsStore.getState().reject(view.id, reason, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function cancel(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: 'Cancel withdrawal request',
    fingerprint: decisionFingerprint(view),
    description: `${decisionSummary(view)}. It has not been sent to the service yet.`,
    confirmLabel: 'Cancel request',
    danger: true,
    reason: { label: 'Reason (optional)', required: false },
    run: (as, reason) => useWithdrawalsStore.getState().cancel(view.id, reason, as),
  });
  return result === null || result.ok ? null : result.error;
}

async function submit(view: WithdrawalView): Promise<ContractError | null> {
  const result = await askOperator({
    title: 'Send withdrawal to the service',
    fingerprint: decisionFingerprint(view),
    description: `${decisionSummary(view)}, requested by ${view.initiator}. The desk checks the signed approvals once more, then creates the order at the service.`,
    hint: 'An operator allowed to send withdrawals signs with their own passphrase.',
    confirmLabel: 'Send to the service',
    run: (as) => useWithdrawalsStore.getState().submit(view.id, as),
  });
  return result === null || result.ok ? null : result.error;
}

/** "1 of 2 independent approvals": what the signed statements count, not what the state column says. */
function countedText(view: WithdrawalView): string {
  return `${view.verification.countedApprovals} of ${view.verification.requiredApprovals} independent approval${view.verification.requiredApprovals === 1 ? '' : 's'}`;
}

/** "Batch 3, line 2": which batch a line belongs to, opening it in Batch payouts. */
function BatchLineButton({ batch, testId }: { readonly batch: BatchLineRef; readonly testId: string }): React.JSX.Element {
  const line = batch.line === null ? '' : `, line ${batch.line}`;
  if (batch.id === null) return <span className="badge badge--bad" data-testid={testId}>line of a batch this desk no longer holds</span>;
  const id = batch.id;
  return (
    <button type="button" className="button button--link" onClick={() => useWithdrawalsStore.getState().openBatch(id)} title={`Batch fingerprint ${batch.fingerprint ?? 'unverified'}`} data-testid={testId}>
      Batch {id}{line}
    </button>
  );
}

/** One entry for a whole batch payout: what its approvers compare and count; deciding happens in Batch payouts. */
function QueueBatch({ batch, now }: { readonly batch: PayoutBatchQueueEntry; readonly now: number }): React.JSX.Element {
  const payouts = `${batch.lineCount} payout${batch.lineCount === 1 ? '' : 's'}`;
  return (
    <li className="queue__item" data-testid="@withdrawals/queue-batch" data-id={batch.id}>
      <div className="queue__main">
        <p className="queue__amount">
          Batch payout: <span data-testid="@withdrawals/queue-batch-lines">{payouts}</span>
        </p>
        <p className="small" data-testid="@withdrawals/queue-batch-totals">
          {batch.totals.length === 0 ? 'totals not verified' : batch.totals.map((total) => `${total.total} ${currencyLabel(total.currency)}`).join(', ')} with fees
        </p>
        <p className="small">
          fingerprint <strong className="mono" data-testid="@withdrawals/queue-batch-fingerprint">{batch.fingerprint}</strong>
        </p>
        <p className="small muted">
          {batch.source}, imported by {batch.initiator} {timeAgo(batch.requestedAt, now)} ·{' '}
          <span data-testid="@withdrawals/queue-batch-counted">
            {batch.countedApprovals} of {batch.requiredApprovals} independent approval{batch.requiredApprovals === 1 ? '' : 's'}
          </span>
        </p>
      </div>
      <div className="queue__actions">
        <span className={`badge badge--${batch.state === 'awaitingApproval' ? 'info' : 'neutral'}`} data-testid="@withdrawals/queue-batch-state">
          {batch.state === 'awaitingApproval' ? 'awaiting approval' : batch.state}
        </span>
        {batch.verified || batch.state === 'awaitingApproval' ? null : (
          <span className="badge badge--bad" title={batch.problems.join('; ')}>
            statements do not hold
          </span>
        )}
        <button type="button" className="button button--primary button--small" onClick={() => useWithdrawalsStore.getState().openBatch(batch.id)} aria-label={`Open batch ${batch.id} (${payouts})`} data-testid="@withdrawals/open-batch-button">
          Open batch
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
      <h2 id="queue-title">Approvals queue</h2>
      <SentNotice />
      <ErrorNotice error={error} testId="@withdrawals/queue-error" />
      {queue.length === 0 && batches.length === 0 ? (
        <p className="muted" data-testid="@withdrawals/queue-empty">
          Nothing waits for approval.
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
                  to {view.toAddress}
                </p>
                {(view.payee ?? null) === null ? null : (
                  <p className="small">
                    payee <strong data-testid="@withdrawals/queue-payee">{view.payee}</strong>
                  </p>
                )}
                <p className="small">
                  fingerprint <strong className="mono" data-testid="@withdrawals/queue-fingerprint">{view.fingerprint ?? 'none'}</strong>
                </p>
                <p className="small muted">
                  requested by {view.initiator} {timeAgo(view.createdAt, now)} · <span data-testid="@withdrawals/queue-counted">{countedText(view)}</span>
                  {view.withdrawType === 'financialConfirmation' ? ' · financial confirmation' : ''}
                </p>
              </div>
              <div className="queue__actions">
                <StateBadge view={view} />
                {!view.verification.ok && !decisionsOpen(view.state).approve ? (
                  <span className="badge badge--bad" title={view.verification.problems.join('; ')} data-testid="@withdrawals/queue-unverified">
                    statements do not hold
                  </span>
                ) : null}
                {decisionsOpen(view.state).approve ? (
                  <>
                    <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/approve-button">
                      Approve
                    </button>
                    <button type="button" className="button button--danger button--small" onClick={() => void reject(view).then(setError)} data-testid="@withdrawals/reject-button">
                      Reject
                    </button>
                  </>
                ) : null}
                {mayApproveAgain(view) ? (
                  <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/approve-again-button">
                    Approve again
                  </button>
                ) : null}
                {decisionsOpen(view.state).submit ? <SubmitButton view={view} onError={setError} /> : null}
                <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} data-testid="@withdrawals/details-button">
                  Details
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
        Sent to the service{sent.sentBy === null ? '' : ` by ${sent.sentBy.operator}`}: <Amount value={sent.amount} currency={sent.currency} /> to{' '}
        <span className="mono">{sent.toAddress}</span>, order <span className="mono">{sent.userOrder}</span>, now “{STATE_LABELS[sent.state]}”. It has left this queue;
        its status follows under All orders.
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
          Show the order
        </button>
        <button type="button" className="button button--small" onClick={() => useWithdrawalsStore.getState().dismissLastSent()}>
          Dismiss
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
      {busy ? 'Sending…' : 'Send to the service'}
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
    <form className="inline-form" role="search" aria-label="Find withdrawals by label" onSubmit={(event) => event.preventDefault()}>
      <Field label="Label contains">
        {(control) => <input {...control} className="input" type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="e.g. rent" data-testid="@withdrawals/label-search" />}
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
      <h2 id="orders-title">All withdrawal orders</h2>
      <ExportButton
        groupLabel="Export withdrawals as CSV"
        label="Export CSV…"
        action={() => call('desktop/exportWithdrawalsCsv', labelFilter.trim() === '' ? {} : { label: labelFilter })}
        written={(value) => `Exported ${value.rows.toLocaleString('en-US')} requests`}
        testId="@withdrawals/export"
      />
      <LabelSearch />
      <ErrorNotice error={error} />
      {orders.length === 0 && !loading ? <p className="muted" data-testid="@withdrawals/orders-empty">{labelFilter.trim() === '' ? 'No withdrawals yet.' : 'No withdrawal has a label containing that.'}</p> : null}
      {orders.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@withdrawals/orders">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Currency</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Batch</th>
                <th scope="col">Label</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
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
                    <RecordLabel type="withdrawal" refValue={view.userOrder} what={`withdrawal ${view.userOrder}`} testId="@withdrawals/label" />
                  </td>
                  <td>
                    <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} aria-label={`Details of ${view.userOrder}`}>
                      Details
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
          {loading ? 'Loading…' : 'Load older orders'}
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
  const entries: TimelineEntry[] = [{ at: view.createdAt, title: 'Requested', detail: `by ${view.initiator}; ${view.requiredApprovals} approval${view.requiredApprovals === 1 ? '' : 's'} required`, tone: 'neutral' }];
  for (const approval of view.approvals) {
    entries.push({
      at: approval.at,
      title: approval.decision === 'approve' ? 'Approved' : 'Rejected',
      detail: `by ${approval.operator}${approval.reason === null ? '' : `: ${approval.reason}`}${approval.decision === 'approve' && !approval.counts ? ' (does not count toward four-eyes)' : ''}`,
      tone: approval.decision === 'approve' ? 'good' : 'bad',
    });
  }
  if (view.sentBy !== null) {
    entries.push({ at: view.sentBy.at, title: 'Sent to the service', detail: `by ${view.sentBy.operator}, after the desk checked the signed approvals once more`, tone: 'info' });
  }
  for (const event of view.history) {
    const final = event.status === 'success' ? 'good' : event.status === 'fail' || event.status === 'WithdrawRefund' ? 'bad' : 'info';
    entries.push({
      at: event.observedAt,
      title: orderStatusTitle(event.status),
      detail: `${ORDER_STATUS_TEXT[event.status] ?? 'Status reported by the service'} (learnt from ${STATUS_SOURCE_TEXT[event.source]})`,
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
        to {view.toAddress} <ExplorerLink chain={CURRENCIES[view.currency].chain} target="address" value={view.toAddress} testId="@withdrawals/detail-address-link" />
      </p>
      <Fingerprint
        label="Request fingerprint"
        value={view.fingerprint}
        compare="Every approver compares it in their dialog; the order's remark at the service carries it too."
        testId="@withdrawals/detail-fingerprint"
      />
      {view.batch === null ? null : (
        <p className="notice notice--info" data-testid="@withdrawals/detail-batch">
          A line of a batch payout, approved, rejected or cancelled with its batch as a whole: <BatchLineButton batch={view.batch} testId="@withdrawals/detail-batch-button" />
        </p>
      )}
      <StuckFlag view={view} testId="@withdrawals/stuck-flag" />
      <Verification view={view} />
      <h3>What its approvers sign</h3>
      {review.error !== null ? (
        <ErrorNotice error={review.error} testId="@withdrawals/detail-review-error" />
      ) : review.value === null || review.value.id !== view.id ? (
        <p className="muted">Reading its signed statements…</p>
      ) : (
        <ApproverReview view={review.value} testId="@withdrawals/detail-review" />
      )}
      <dl className="facts">
        <dt>Currency</dt>
        <dd>{currencyLabel(view.currency)}</dd>
        <dt>User order</dt>
        <dd className="mono">{view.userOrder}</dd>
        <dt>Platform order</dt>
        <dd className="mono">{view.apiOrder ?? '—'}</dd>
        {view.fee === null ? null : (
          <>
            <dt>Fee charged by the service</dt>
            <dd data-testid="@withdrawals/detail-service-fee">
              <Amount value={view.fee} currency={view.currency} />
            </dd>
          </>
        )}
        <dt>Service status</dt>
        <dd data-testid="@withdrawals/order-status">{view.orderStatus ?? 'not sent yet'}</dd>
        <dt>Transaction</dt>
        <dd className="mono break">
          {view.txid === null || view.txid === '' ? (
            '—'
          ) : (
            <>
              {view.txid} <ExplorerLink chain={CURRENCIES[view.currency].chain} target="transaction" value={view.txid} testId="@withdrawals/detail-txid-link" />
            </>
          )}
        </dd>
        <dt>Type</dt>
        <dd>{view.withdrawType === 'financialConfirmation' ? 'Financial confirmation' : 'Normal'}</dd>
        {view.memo === null ? null : (
          <>
            <dt>Memo</dt>
            <dd data-testid="@withdrawals/detail-memo">{view.memo}</dd>
          </>
        )}
        {view.platformMessage === null ? null : (
          <>
            <dt>Platform&apos;s remark</dt>
            <dd>
              <q className="break" data-testid="@withdrawals/platform-message">
                {view.platformMessage}
              </q>{' '}
              <span className="muted small">(text from the service, as it sent it)</span>
            </dd>
          </>
        )}
      </dl>
      {view.platformRecord === null ? null : (
        <RecordFields fields={view.platformRecord} summary="Every field of the order as the service reported it" testId="@withdrawals/platform-record" />
      )}
      {view.lastError === null ? null : (
        <div className={`notice notice--${view.state === 'submitUnknown' ? 'warn' : 'error'}`} data-testid="@withdrawals/last-error">
          <p className="notice__title">{view.state === 'submitUnknown' ? 'Submission unknown' : 'The last submission failed'}</p>
          <p>{view.lastError}</p>
          {view.state === 'submitUnknown' ? (
            <p className="notice__detail">
              The service answered with a failure, but failure answers are not signed, so the desk does not take its word: it asks the service
              (checkWithdrawOrder) whether the order exists, at every sync. Until the service confirms that no order exists, the request can be
              neither cancelled nor sent again.
            </p>
          ) : null}
          {view.state === 'submitFailed' ? <p className="notice__detail">Nothing was created at the service. Fix the cause, then send it again: the same user order is reused, so it cannot be paid twice.</p> : null}
        </div>
      )}
      {view.withdrawType === 'financialConfirmation' ? <p className="notice notice--info">{FINANCIAL_CONFIRMATION_TEXT}</p> : null}
      <Approvals view={view} />
      <h3>Timeline</h3>
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
            Approve
          </button>
        ) : null}
        {mayApproveAgain(view) ? (
          <button type="button" className="button button--primary button--small" onClick={() => void approve(view).then(setError)} data-testid="@withdrawals/detail-approve-again-button">
            Approve again
          </button>
        ) : null}
        {decisionsOpen(view.state).submit ? <SubmitButton view={view} onError={setError} /> : null}
        {decisionsOpen(view.state).cancel && view.batch === null ? (
          <button type="button" className="button button--small" onClick={() => void cancel(view).then(setError)} data-testid="@withdrawals/cancel-button">
            Cancel request
          </button>
        ) : null}
        <button type="button" className="button button--small" onClick={() => void useWithdrawalsStore.getState().select(view.id)} data-testid="@withdrawals/refresh-button">
          Refresh
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
        Signed statements verify: {countedText(view)}.
      </p>
    );
  }
  const stillAsking = decisionsOpen(view.state).approve;
  return (
    <div className={`notice ${stillAsking ? 'notice--warn' : 'notice--error'}`} data-testid="@withdrawals/verification" data-ok="false">
      <p className="notice__title">{stillAsking ? `Not approved yet: ${countedText(view)}` : `The signed statements do not support sending it: ${countedText(view)}`}</p>
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
      <h3>Approvals</h3>
      <ul className="stack small" data-testid="@withdrawals/approvals">
        {view.approvals.map((approval) => (
          <li key={`${approval.operator}:${approval.at}`} data-testid="@withdrawals/approval" data-operator={approval.operator} data-counts={String(approval.counts)}>
            <strong>{approval.operator}</strong> {approval.decision === 'approve' ? 'approved' : 'rejected'} <DateTime at={approval.at} />{' '}
            {approval.decision === 'reject' ? null : approval.counts ? <span className="badge badge--good">counts</span> : <span className="badge badge--warn">does not count</span>}
            {approval.note === null ? null : <span className="muted"> {approval.note}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
