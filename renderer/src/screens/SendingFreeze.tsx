// The emergency freeze panel (issue 20, part 3): whether sending is frozen, by whom, since when and why; one admin
// freezes all sending at once with a reason and their passphrase; lifting it is proposed here and confirmed by a second,
// independent admin on the Operators screen; a lift waiting for the loosening delay or a time lock says when sending
// resumes and who lifted it (an admin vetoes it on the Governance panel). The engine checks who may (sending/freeze, sending/unfreeze).
import { useEffect, useState } from 'react';
import type { ContractError } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { askOperator } from '../stores/operator-prompt';
import { useSendingStore } from '../stores/sending';

export function SendingFreeze(): React.JSX.Element {
  const sending = useSendingStore((state) => state.state);
  const loadError = useSendingStore((state) => state.error);
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void useSendingStore.getState().load();
  }, []);

  async function freeze(): Promise<void> {
    const result = await askOperator({
      title: 'Freeze all sending',
      description:
        'Nothing is sent to the service from any workstation of this desk until the freeze is lifted. Requests and approvals go on. Lifting it needs two admins.',
      hint: 'Any one admin freezes, with their own passphrase.',
      reason: { label: 'Why sending is frozen (every operator sees it)', required: true },
      confirmLabel: 'Freeze sending',
      danger: true,
      run: (as, reason) => useSendingStore.getState().freeze(reason, as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  async function proposeLift(): Promise<void> {
    const result = await askOperator({
      title: 'Propose lifting the freeze',
      description: 'Sending resumes once another admin, independent of you, confirms the lift on the Operators screen.',
      hint: 'An admin proposes with their own passphrase.',
      confirmLabel: 'Propose the lift',
      run: (as) => useSendingStore.getState().proposeUnfreeze(as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  const frozen = sending?.frozen ?? null;
  return (
    <section className="card" aria-labelledby="freeze-title" data-testid="@settings/freeze">
      <h2 id="freeze-title">Emergency freeze</h2>
      {frozen === null ? (
        <>
          <p className="verdict verdict--ok" data-testid="@settings/freeze-state">
            Sending is not frozen.
          </p>
          <p className="muted small">If a key or a workstation may be compromised, any admin stops all sending at once. Lifting it takes two admins.</p>
          <button type="button" className="button button--danger" onClick={() => void freeze()} disabled={sending === null} data-testid="@settings/freeze-button">
            Freeze all sending
          </button>
        </>
      ) : (
        <>
          <p className="verdict verdict--warn" data-testid="@settings/freeze-state">
            Sending is frozen by {frozen.by} since <DateTime at={frozen.since} />: {frozen.reason}
          </p>
          {frozen.liftAt !== null ? (
            <p className="muted small" data-testid="@settings/unfreeze-scheduled">
              Sending resumes at <DateTime at={frozen.liftAt} />
              {frozen.liftBy === null ? '' : `: ${frozen.liftBy.proposer}${frozen.liftBy.confirmedBy === null ? '' : ` and ${frozen.liftBy.confirmedBy}`} lifted the freeze`}, unless an admin vetoes the lift
              under Governance.
            </p>
          ) : sending === null || sending.lift === null ? (
            <button type="button" className="button" onClick={() => void proposeLift()} data-testid="@settings/unfreeze-button">
              Propose lifting the freeze
            </button>
          ) : (
            <p className="muted small" data-testid="@settings/unfreeze-pending">
              {sending.lift.proposer} proposed lifting it: another admin confirms it on the Operators screen.
            </p>
          )}
        </>
      )}
      <ErrorNotice error={error ?? loadError} />
    </section>
  );
}
