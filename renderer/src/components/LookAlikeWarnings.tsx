// The look-alike warnings of a typed address (the preflight's, or the Address book's own check with the same chains
// function): each known address it starts and ends like, with the differing characters marked on both.
import type { LookAlikeMatch } from '../../../electron/chains';
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
            Look-alike address: it starts and ends like {warning.label === null ? 'an address you used before' : <>“{warning.label}”</>}, but{' '}
            {warning.differingPositions.length} character{warning.differingPositions.length === 1 ? '' : 's'} differ.
          </p>
          <p>Address poisoning copies the characters people check. Compare the marked characters:</p>
          <div className="diff-pair">
            <span className="diff-pair__label">Typed</span>
            <AddressDiff address={typed} positions={warning.differingPositions} testId={`${testId}-typed`} />
            <span className="diff-pair__label">Known</span>
            <AddressDiff address={warning.knownAddress} positions={warning.differingPositions} testId={`${testId}-known`} />
          </div>
        </div>
      ))}
    </>
  );
}
