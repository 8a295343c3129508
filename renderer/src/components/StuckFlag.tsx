// A stuck withdrawal's flag (the watchdog's, on the dashboard and in the order's detail): the status it stays in, for
// how long against its threshold, and what to do next, with checkTransfer on its txid at hand when it has one.
import type { WithdrawalView } from '../../../electron/contract';
import { formatDuration } from '../format';
import { t, tRich } from '../i18n';
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
        {t('withdrawals.stuck.title', {
          status: stuck.status,
          duration: formatDuration(Math.floor(stuck.stuckForMs / 1000)),
          threshold: formatDuration(Math.floor(stuck.thresholdMs / 1000)),
        })}
      </p>
      <p className="small muted">
        {tRich('withdrawals.stuck.since', { status: stuck.status, since: <DateTime at={stuck.since} /> })}
      </p>
      <p className="small">{t('withdrawals.stuck.nextSteps')}</p>
      <ol className="small" data-testid={`${testId}-steps`}>
        {stuck.nextSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {txid === '' ? null : (
        <div aria-live="polite">
          <button type="button" className="button button--small" disabled={check.busy} onClick={() => void check.run({ txid, currency: view.currency })} data-testid={`${testId}-check-transfer`}>
            {check.busy ? t('withdrawals.checking') : t('withdrawals.stuck.check')}
          </button>
          <ErrorNotice error={check.error} testId={`${testId}-check-error`} />
          {check.result === null ? null : (
            <p className="small" data-testid={`${testId}-check-result`} data-valid={String(check.result.valid)}>
              {t('withdrawals.stuck.checkResult', {
                valid: check.result.valid ? 'yes' : 'no',
                message: check.result.message,
                cached: check.result.cached ? 'yes' : 'no',
              })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
