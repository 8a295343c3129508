// The look-alike warnings of a typed address (the preflight's, or the Address book's own check with the same chains
// function): each known address it starts and ends like, with the differing characters marked on both.
import type { LookAlikeMatch } from '../../../electron/chains';
import { t } from '../i18n';
import { AddressDiff } from './AddressDiff';

interface LookAlikeWarningsProps {
  readonly typed: string;
  readonly warnings: readonly LookAlikeMatch[];
  /** Test ids: `${testId}`, `${testId}-typed`, `${testId}-known`. */
  readonly testId: string;
}

export function LookAlikeWarnings({ typed, warnings, testId }: LookAlikeWarningsProps): React.JSX.Element {
  return (
    <>
      {warnings.map((warning) => (
        <div key={warning.knownAddress} className="notice notice--danger" role="alert" data-testid={testId}>
          <p className="notice__title">
            {warning.label === null
              ? t('withdrawals.lookAlike.titleUsedBefore', { count: warning.differingPositions.length })
              : t('withdrawals.lookAlike.titleLabelled', { label: warning.label, count: warning.differingPositions.length })}
          </p>
          <p>{t('withdrawals.lookAlike.explained')}</p>
          <div className="diff-pair">
            <span className="diff-pair__label">{t('withdrawals.lookAlike.typed')}</span>
            <AddressDiff address={typed} positions={warning.differingPositions} testId={`${testId}-typed`} />
            <span className="diff-pair__label">{t('withdrawals.lookAlike.known')}</span>
            <AddressDiff address={warning.knownAddress} positions={warning.differingPositions} testId={`${testId}-known`} />
          </div>
        </div>
      ))}
    </>
  );
}
