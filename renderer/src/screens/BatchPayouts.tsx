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
import { askOperator, type ActingOperator } from '../stores/operator-prompt';
import { useWithdrawalsStore } from '../stores/withdrawals';

function batchFingerprint(batch: PayoutBatchView): { label: string; value: string; compare: string } {
  return { label: 'Batch fingerprint', value: batch.fingerprint, compare: `Compare it with the fingerprint ${batch.initiator} saw when importing ${batch.source}.` };
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
        title: 'Import a batch payout CSV',
        description: 'Choose the CSV next (columns currency, amount, toAddress, memo and optionally userOrder). Every line is checked; a file with a bad line is refused whole, naming each line.',
        hint: 'The initiator signs the batch with their own passphrase.',
        confirmLabel: 'Choose the file',
        run: async (as: ActingOperator): Promise<Result<ImportOutcome>> => {
          const answer = await call('desktop/importPayouts', { as });
          const refused = answer.ok ? null : lineRefusalOf(answer.error);
          return refused === null ? answer : { ok: true, value: { cancelled: false, refused } };
        },
      }),
      '',
      (outcome) => {
        if (outcome.cancelled) return 'No file was chosen.';
        if ('refused' in outcome) {
          setRefusal(outcome.refused);
          return 'The file was not imported: nothing was stored.';
        }
        setSelected(outcome.value);
        return `Imported ${outcome.fileName} as batch ${outcome.value.id}: ${outcome.value.lineCount} lines.`;
      },
    );
  }

  async function exportResults(batch: PayoutBatchView): Promise<void> {
    const result = await call('desktop/exportPayoutsCsv', { id: batch.id });
    if (!result.ok) setError(result.error);
    else setNotice(result.value.cancelled ? 'The export was cancelled.' : `Wrote ${result.value.value.rows} lines to ${result.value.fileName}.`);
  }

  return (
    <section className="card" aria-labelledby="payouts-title" data-testid="@payouts/section">
      <h2 id="payouts-title">Batch payouts</h2>
      <p className="muted">Pay many recipients from one CSV, approved once as a whole and sent line by line, exactly once per line.</p>
      <button type="button" className="button" onClick={() => void importFile()} data-testid="@payouts/import-button">
        Import CSV…
      </button>
      <ErrorNotice error={error} testId="@payouts/error" />
      {notice === null ? null : (
        <p role="status" data-testid="@payouts/notice">
          {notice}
        </p>
      )}
      {refusal === null ? null : <RefusedLines refusal={refusal} counting="line 1 is the first payout after the header" testId="@payouts/refused" />}
      {batches.length === 0 ? (
        <p className="muted" data-testid="@payouts/empty">
          No batch yet.
        </p>
      ) : (
        <ul data-testid="@payouts/list">
          {batches.map((batch) => (
            <li key={batch.id}>
              <button type="button" className="link" onClick={() => void refresh(batch.id)} data-testid={`@payouts/open-${batch.id}`}>
                Batch {batch.id}: {batch.source}, {batch.lineCount} lines, {batch.state}
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
  const what = `${batch.lineCount} lines (${totalsText(batch)} with fees) from ${batch.source}, imported by ${batch.initiator}.`;
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
        Batch {batch.id} (<span data-testid="@payouts/state">{batch.state}</span>)
      </h3>
      <Fingerprint {...batchFingerprint(batch)} testId="@payouts/fingerprint" />
      <p>
        <span data-testid="@payouts/line-count">
          {batch.lineCount} line{batch.lineCount === 1 ? '' : 's'}
        </span>{' '}
        from {batch.source}, imported by {batch.initiator}.
      </p>
      <p data-testid="@payouts/approvals">
        {batch.countedApprovals} of {batch.requiredApprovals} independent approval{batch.requiredApprovals === 1 ? '' : 's'}
      </p>
      <table className="table" data-testid="@payouts/totals">
        <caption>Totals per currency, fees included</caption>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col" className="num">
              Lines
            </th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Fee
            </th>
            <th scope="col" className="num">
              Total
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
      <h4>Policy</h4>
      <ul data-testid="@payouts/policy">
        {batch.policies.map((policy) => (
          <li key={policy.currency}>
            {policy.currency}: the largest line {policy.largestLine} needs {policy.approvalsForLargestLine} approval{policy.approvalsForLargestLine === 1 ? '' : 's'};{' '}
            {policy.dailyLimit === null ? 'no daily limit' : `daily limit ${policy.dailyLimit}, ${policy.dailyLimitRemaining ?? '-'} left after this batch`}
          </li>
        ))}
      </ul>
      {batch.flags.length === 0 ? null : (
        <>
          <h4>Flags ({batch.flags.length})</h4>
          <ul data-testid="@payouts/flags">
            {batch.flags.map((flag, index) => (
              <li key={index} data-testid="@payouts/flag" data-kind={flag.kind} data-line={flag.line}>
                Line {flag.line}: {flag.kind === 'newDestination' ? 'new destination' : 'look-alike'}: {flag.detail}
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
                { title: 'Approve batch payout', fingerprint: batchFingerprint(batch), description: what, hint: `An approver other than ${batch.initiator} signs the whole batch.`, confirmLabel: 'Approve', run: (as) => call('payouts/approve', { id: batch.id, as }) },
                (view) => `Batch ${view.id}: ${view.state}.`,
              )}
            >
              Approve
            </button>
            <button
              type="button"
              className="button button--danger"
              data-testid="@payouts/reject-button"
              onClick={decide(
                { title: 'Reject batch payout', fingerprint: batchFingerprint(batch), description: what, danger: true, confirmLabel: 'Reject', reason: { label: 'Reason (recorded in the audit log)', required: true }, run: (as, reason) => call('payouts/reject', { id: batch.id, reason, as }) },
                (view) => `Batch ${view.id}: ${view.state}.`,
              )}
            >
              Reject
            </button>
          </>
        ) : null}
        {canSubmit ? (
          <button
            type="button"
            className="button"
            data-testid="@payouts/submit-button"
            onClick={decide(
              { title: 'Send the batch to the service', fingerprint: batchFingerprint(batch), description: `${what} Each line is checked against the signed batch, then sent once.`, confirmLabel: 'Send', run: (as) => call('payouts/submit', { id: batch.id, as }) },
              (result) => `${result.sent} lines sent or settled${result.failures.length === 0 ? '' : `; not sent: line ${result.failures.map((failure) => failure.line).join(', ')}`}.`,
            )}
          >
            Submit
          </button>
        ) : null}
        {canCancel ? (
          <button
            type="button"
            className="button button--danger"
            data-testid="@payouts/cancel-button"
            onClick={decide(
              {
                  title: 'Cancel batch payout',
                  fingerprint: batchFingerprint(batch),
                  description: `${what} Every line not yet sent is cancelled and never sent; lines already sent are not affected.`,
                  hint: `${batch.initiator} or an admin may cancel it.`,
                  danger: true,
                  confirmLabel: 'Cancel batch',
                  reason: { label: 'Reason (optional, recorded in the audit log)', required: false },
                  run: (as, reason) => call('payouts/cancel', { id: batch.id, ...(reason === undefined || reason === '' ? {} : { reason }), as }),
                },
              (view) => `Batch ${view.id}: cancelled; ${view.lineCount} lines, none of the cancelled ones will be sent.`,
            )}
          >
            Cancel batch…
          </button>
        ) : null}
        <button type="button" className="button" data-testid="@payouts/export-button" onClick={() => void onExport(batch)}>
          Export results…
        </button>
      </div>
      <table className="table" data-testid="@payouts/lines">
        <caption>Lines</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">State</th>
            <th scope="col">Amount</th>
            <th scope="col">To</th>
            <th scope="col">Status</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {batch.lines.map((line) => (
            <tr key={line.line} data-testid="@payouts/line" data-line={line.line}>
              <td>{line.line}</td>
              <td data-testid="@payouts/line-state">{line.state}</td>
              <td className="num">
                <Amount value={line.amount} /> {line.currency}
              </td>
              <td>
                {line.toAddress}
                {(line.payee ?? null) === null ? null : (
                  <span className="small" data-testid="@payouts/line-payee">
                    {' '}
                    (payee {line.payee})
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
