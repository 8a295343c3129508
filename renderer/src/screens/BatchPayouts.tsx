// Withdrawals → Batch payouts (docs/payouts.md): import a CSV through the system's open dialog (the window never names
// a path), the batch intent its approvers sign as a whole (fingerprint, totals per currency with fees, flags, the
// policy that applies), approve / reject / cancel / submit behind the operator's passphrase, each line's status, and
// the results export through a save dialog. A file refused for its lines closes the dialog and lists every line to
// fix under the button (the refusal stored nothing). Every text comes through the display-safe bridge (api.ts), escaped.
import { useCallback, useEffect, useState } from 'react';
import { decisionsOpen, PAYOUT_SENDABLE_STATES, type PayoutBatchSummary, type PayoutBatchView } from '../../../electron/contract';
import type { FileOutcome } from '../../../electron/contract/desktop';
import { call, type ContractError, type Result } from '../api';
import { Amount } from '../components/Amount';
import { ErrorNotice } from '../components/ErrorNotice';
import { Fingerprint } from '../components/Fingerprint';
import { lineRefusalOf, RefusedLines, type LineRefusal } from '../components/RefusedLines';
import { t, tRich } from '../i18n';
import { askOperator, type ActingOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore } from '../stores/withdrawals';
import { batchStateName, lineStateName } from './withdrawal-labels';

function batchFingerprint(batch: PayoutBatchView): { label: string; value: string; compare: string } {
  return {
    label: t('withdrawals.batch.fingerprint'),
    value: batch.fingerprint,
    compare: t('withdrawals.batch.fingerprintCompare', { initiator: batch.initiator, source: batch.source }),
  };
}

function totalsText(batch: PayoutBatchView): string {
  return batch.totals.map((total) => `${total.total} ${total.currency}`).join(', ');
}

type ImportOutcome = FileOutcome<PayoutBatchView> | { readonly cancelled: false; readonly refused: LineRefusal };

export function BatchPayouts(): React.JSX.Element {
  const [batches, setBatches] = useState<readonly PayoutBatchSummary[]>([]);
  const [selected, setSelected] = useState<PayoutBatchView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<LineRefusal | null>(null);

  const refresh = useCallback(async (id?: string): Promise<void> => {
    const list = await call('payouts/list', {});
    if (list.ok) setBatches(list.value.rows);
    if (id !== undefined && id !== '') {
      const view = await call('payouts/get', { id });
      if (view.ok) setSelected(view.value);
    }
  }, []);

  // On first show, opening the batch the queue or a notice asked for; later refreshes follow the actions.
  const batchToOpen = useWithdrawalsStore((state) => state.batchToOpen);
  useEffect(() => {
    void refresh(useWithdrawalsStore.getState().takeBatchToOpen() ?? undefined);
  }, [refresh, batchToOpen]);

  async function decide<T>(result: Promise<Result<T> | null>, id: string, done: (value: T) => string): Promise<void> {
    const answer = await result;
    if (answer === null) return;
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    setError(null);
    setRefusal(null);
    setNotice(done(answer.value));
    await refresh(id);
  }

  async function importFile(): Promise<void> {
    await decide(
      askOperator({
        title: t('withdrawals.batch.import.title'),
        description: t('withdrawals.batch.import.description'),
        hint: t('withdrawals.batch.import.hint'),
        confirmLabel: t('withdrawals.batch.import.confirm'),
        run: async (as: ActingOperator): Promise<Result<ImportOutcome>> => {
          const answer = await call('desktop/importPayouts', { as });
          const refused = answer.ok ? null : lineRefusalOf(answer.error);
          return refused === null ? answer : { ok: true, value: { cancelled: false, refused } };
        },
      }),
      '',
      (outcome) => {
        if (outcome.cancelled) return t('withdrawals.batch.import.noFile');
        if ('refused' in outcome) {
          setRefusal(outcome.refused);
          return t('withdrawals.batch.import.refused');
        }
        setSelected(outcome.value);
        return t('withdrawals.batch.import.done', { fileName: outcome.fileName, id: outcome.value.id, count: outcome.value.lineCount });
      },
    );
  }

  async function exportResults(batch: PayoutBatchView): Promise<void> {
    const result = await call('desktop/exportPayoutsCsv', { id: batch.id });
    if (!result.ok) setError(result.error);
    else setNotice(result.value.cancelled ? t('withdrawals.batch.export.cancelled') : t('withdrawals.batch.export.done', { count: result.value.value.rows, fileName: result.value.fileName }));
  }

  return (
    <section className="card" aria-labelledby="payouts-title" data-testid="@payouts/section">
      <h2 id="payouts-title">{t('withdrawals.batch.title')}</h2>
      <p className="muted">{t('withdrawals.batch.intro')}</p>
      <button type="button" className="button" onClick={() => void importFile()} data-testid="@payouts/import-button">
        {t('withdrawals.batch.import.button')}
      </button>
      <ErrorNotice error={error} testId="@payouts/error" />
      {notice === null ? null : (
        <p role="status" data-testid="@payouts/notice">
          {notice}
        </p>
      )}
      {refusal === null ? null : <RefusedLines refusal={refusal} counting={t('withdrawals.batch.import.counting')} testId="@payouts/refused" />}
      {batches.length === 0 ? (
        <p className="muted" data-testid="@payouts/empty">
          {t('withdrawals.batch.empty')}
        </p>
      ) : (
        <ul data-testid="@payouts/list">
          {batches.map((batch) => (
            <li key={batch.id}>
              <button type="button" className="link" onClick={() => void refresh(batch.id)} data-testid={`@payouts/open-${batch.id}`}>
                {t('withdrawals.batch.listItem', { id: batch.id, source: batch.source, count: batch.lineCount, state: batchStateName(batch.state) })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected === null ? null : <BatchDetail batch={selected} onDecide={decide} onExport={exportResults} />}
    </section>
  );
}

interface DetailProps {
  readonly batch: PayoutBatchView;
  readonly onDecide: <T>(result: Promise<Result<T> | null>, id: string, done: (value: T) => string) => Promise<void>;
  readonly onExport: (batch: PayoutBatchView) => Promise<void>;
}

function BatchDetail({ batch, onDecide, onExport }: DetailProps): React.JSX.Element {
  const what = t('withdrawals.batch.what', { count: batch.lineCount, totals: totalsText(batch), source: batch.source, initiator: batch.initiator });
  const canDecide = batch.state === 'awaitingApproval';
  const canSubmit = batch.lines.some((line) => PAYOUT_SENDABLE_STATES.includes(line.state));
  // The engine refuses a cancel while a line may be at the service, and says to submit first (payouts/batch.ts).
  const canCancel = batch.lines.some((line) => decisionsOpen(line.state).cancel);
  /** A button's click: ask who is acting (and why), run the decision, then say what it did. */
  const decide =
    <T,>(request: Parameters<typeof askOperator<T>>[0], done: (value: T) => string) =>
    (): void =>
      void onDecide(askOperator(request), batch.id, done);
  return (
    <div data-testid="@payouts/detail">
      <h3>
        {tRich('withdrawals.batch.heading', { id: batch.id, state: <span data-testid="@payouts/state">{batchStateName(batch.state)}</span> })}
      </h3>
      <Fingerprint {...batchFingerprint(batch)} testId="@payouts/fingerprint" />
      <p>
        {tRich('withdrawals.batch.imported', {
          lines: <span data-testid="@payouts/line-count">{t('withdrawals.batch.lineCount', { count: batch.lineCount })}</span>,
          source: batch.source,
          initiator: batch.initiator,
        })}
      </p>
      <p data-testid="@payouts/approvals">
        {t('withdrawals.counted', { counted: batch.countedApprovals, required: batch.requiredApprovals })}
      </p>
      <table className="table" data-testid="@payouts/totals">
        <caption>{t('withdrawals.batch.totals.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('withdrawals.field.currency')}</th>
            <th scope="col" className="num">
              {t('withdrawals.batch.column.lines')}
            </th>
            <th scope="col" className="num">
              {t('withdrawals.field.amount')}
            </th>
            <th scope="col" className="num">
              {t('withdrawals.field.fee')}
            </th>
            <th scope="col" className="num">
              {t('withdrawals.batch.column.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {batch.totals.map((total) => (
            <tr key={total.currency} data-testid="@payouts/total-row">
              <td>{total.currency}</td>
              <td className="num">{total.lines}</td>
              <td className="num">
                <Amount value={total.amount} currency={total.currency} />
              </td>
              <td className="num">
                <Amount value={total.fee} currency={total.currency} />
              </td>
              <td className="num">
                <Amount value={total.total} currency={total.currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>{t('withdrawals.batch.policy.title')}</h4>
      <ul data-testid="@payouts/policy">
        {batch.policies.map((policy) => (
          <li key={policy.currency}>
            {t('withdrawals.batch.policy.line', {
              currency: policy.currency,
              largestLine: policy.largestLine,
              approvals: policy.approvalsForLargestLine,
              limit:
                policy.dailyLimit === null
                  ? t('withdrawals.noDailyLimit')
                  : t('withdrawals.batch.policy.dailyLimit', { limit: policy.dailyLimit, remaining: policy.dailyLimitRemaining ?? '-' }),
            })}
          </li>
        ))}
      </ul>
      {batch.flags.length === 0 ? null : (
        <>
          <h4>{t('withdrawals.batch.flags.title', { count: batch.flags.length })}</h4>
          <ul data-testid="@payouts/flags">
            {batch.flags.map((flag, index) => (
              <li key={index} data-testid="@payouts/flag" data-kind={flag.kind} data-line={flag.line}>
                {t('withdrawals.batch.flag', {
                  line: flag.line,
                  kind: flag.kind === 'newDestination' ? t('withdrawals.batch.flag.newDestination') : t('withdrawals.batch.flag.lookAlike'),
                  detail: flag.detail,
                })}
              </li>
            ))}
          </ul>
        </>
      )}
      {batch.problems.length === 0 ? null : (
        <ul data-testid="@payouts/problems">
          {batch.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <div className="actions">
        {canDecide ? (
          <>
            <button
              type="button"
              className="button"
              data-testid="@payouts/approve-button"
              onClick={decide(
                {
                  title: t('withdrawals.batch.approve.title'),
                  fingerprint: batchFingerprint(batch),
                  description: what,
                  hint: t('withdrawals.batch.approve.hint', { initiator: batch.initiator }),
                  confirmLabel: t('withdrawals.action.approve'),
                  run: (as) => call('payouts/approve', { id: batch.id, as }),
                },
                (view) => t('withdrawals.batch.decided', { id: view.id, state: batchStateName(view.state) }),
              )}
            >
              {t('withdrawals.action.approve')}
            </button>
            <button
              type="button"
              className="button button--danger"
              data-testid="@payouts/reject-button"
              onClick={decide(
                {
                  title: t('withdrawals.batch.reject.title'),
                  fingerprint: batchFingerprint(batch),
                  description: what,
                  danger: true,
                  confirmLabel: t('withdrawals.action.reject'),
                  reason: { label: t('withdrawals.decision.reasonForAudit'), required: true },
                  run: (as, reason) => call('payouts/reject', { id: batch.id, reason, as }),
                },
                (view) => t('withdrawals.batch.decided', { id: view.id, state: batchStateName(view.state) }),
              )}
            >
              {t('withdrawals.action.reject')}
            </button>
          </>
        ) : null}
        {canSubmit ? (
          <button
            type="button"
            className="button"
            data-testid="@payouts/submit-button"
            onClick={decide(
              {
                title: t('withdrawals.batch.submit.title'),
                fingerprint: batchFingerprint(batch),
                description: t('withdrawals.batch.submit.description', { what }),
                confirmLabel: t('withdrawals.batch.submit.confirm'),
                run: (as) => call('payouts/submit', { id: batch.id, as }),
              },
              (result) =>
                t('withdrawals.batch.submit.done', {
                  sent: result.sent,
                  hasFailures: result.failures.length === 0 ? 'no' : 'yes',
                  failures: result.failures.map((failure) => failure.line).join(', '),
                }),
            )}
          >
            {t('withdrawals.batch.submit.button')}
          </button>
        ) : null}
        {canCancel ? (
          <button
            type="button"
            className="button button--danger"
            data-testid="@payouts/cancel-button"
            onClick={decide(
              {
                  title: t('withdrawals.batch.cancel.title'),
                  fingerprint: batchFingerprint(batch),
                  description: t('withdrawals.batch.cancel.description', { what }),
                  hint: t('withdrawals.batch.cancel.hint', { initiator: batch.initiator }),
                  danger: true,
                  confirmLabel: t('withdrawals.batch.cancel.confirm'),
                  reason: { label: t('withdrawals.batch.cancel.reason'), required: false },
                  run: (as, reason) => call('payouts/cancel', { id: batch.id, ...(reason === undefined || reason === '' ? {} : { reason }), as }),
                },
              (view) => t('withdrawals.batch.cancel.done', { id: view.id, count: view.lineCount }),
            )}
          >
            {t('withdrawals.batch.cancel.button')}
          </button>
        ) : null}
        <button type="button" className="button" data-testid="@payouts/export-button" onClick={() => void onExport(batch)}>
          {t('withdrawals.batch.export.button')}
        </button>
      </div>
      <table className="table" data-testid="@payouts/lines">
        <caption>{t('withdrawals.batch.lines.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('withdrawals.field.line')}</th>
            <th scope="col">{t('withdrawals.batch.column.state')}</th>
            <th scope="col">{t('withdrawals.field.amount')}</th>
            <th scope="col">{t('withdrawals.field.to')}</th>
            <th scope="col">{t('withdrawals.field.status')}</th>
            <th scope="col">{t('withdrawals.batch.column.error')}</th>
          </tr>
        </thead>
        <tbody>
          {batch.lines.map((line) => (
            <tr key={line.line} data-testid="@payouts/line" data-line={line.line}>
              <td>{line.line}</td>
              <td data-testid="@payouts/line-state">{lineStateName(line.state)}</td>
              <td className="num">
                <Amount value={line.amount} /> {line.currency}
              </td>
              <td>
                {line.toAddress}
                {(line.payee ?? null) === null ? null : (
                  <span className="small" data-testid="@payouts/line-payee">
                    {' '}
                    {t('withdrawals.batch.linePayee', { payee: line.payee })}
                  </span>
                )}
              </td>
              <td data-testid="@payouts/line-status">{line.orderStatus ?? '-'}</td>
              <td>{line.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
