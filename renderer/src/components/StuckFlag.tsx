// A stuck withdrawal's flag (the watchdog's, on the dashboard and in the order's detail): the status it stays in, for
// how long against its threshold, and what to do next, with checkTransfer on its txid at hand when it has one.
import type { WithdrawalView } from '../../../electron/contract';
import { formatDuration } from '../format';
import { useContractCall } from '../hooks';
import { DateTime } from './DateTime';
import { ErrorNotice } from './ErrorNotice';

export function StuckFlag({ view, testId }: { readonly view: WithdrawalView; readonly testId: string }): React.JSX.Element | null {
  const check = useContractCall('tools/checkTransfer');
  const { stuck } = view;
  if (stuck === null) return null;
  const txid = view.txid ?? '';
  return (
    <div className="notice notice--warn" data-testid={testId} data-status={stuck.status}>
      <p className="notice__title">
        Stuck: {stuck.status} for {formatDuration(Math.floor(stuck.stuckForMs / 1000))} (it usually moves on within {formatDuration(Math.floor(stuck.thresholdMs / 1000))})
      </p>
      <p className="small muted">
        In {stuck.status} since <DateTime at={stuck.since} />.
      </p>
      <p className="small">What to do next:</p>
      <ol className="small" data-testid={`${testId}-steps`}>
        {stuck.nextSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {txid === '' ? null : (
        <div aria-live="polite">
          <button type="button" className="button button--small" disabled={check.busy} onClick={() => void check.run({ txid, currency: view.currency })} data-testid={`${testId}-check-transfer`}>
            {check.busy ? 'Checking…' : 'Check the transfer (checkTransfer)'}
          </button>
          <ErrorNotice error={check.error} testId={`${testId}-check-error`} />
          {check.result === null ? null : (
            <p className="small" data-testid={`${testId}-check-result`} data-valid={String(check.result.valid)}>
              The service says the transfer is {check.result.valid ? 'valid' : 'not valid'}: {check.result.message}
              {check.result.cached ? ' (its answer of a few seconds ago)' : ''}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
