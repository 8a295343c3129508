// The emergency freeze panel (issue 20, part 3): whether sending is frozen, by whom, since when and why; one admin
// freezes all sending at once with a reason and their passphrase; lifting it is proposed here and confirmed by a second,
// independent admin on the Operators screen; a lift waiting for the loosening delay or a time lock says when sending
// resumes and who lifted it (an admin vetoes it on the Governance panel). The engine checks who may (sending/freeze, sending/unfreeze).
import { useEffect, useState } from 'react';
import type { ContractError } from '../../../electron/contract';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { t, tRich } from '../i18n';
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
      title: t('operators.freeze.freezeAll'),
      description: t('operators.freeze.description'),
      hint: t('operators.freeze.hint'),
      reason: { label: t('operators.freeze.reason'), required: true },
      confirmLabel: t('operators.freeze.confirm'),
      danger: true,
      run: (as, reason) => useSendingStore.getState().freeze(reason, as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  async function proposeLift(): Promise<void> {
    const result = await askOperator({
      title: t('operators.freeze.proposeLift'),
      description: t('operators.freeze.proposeLift.description'),
      hint: t('operators.hint.adminProposes'),
      confirmLabel: t('operators.freeze.proposeLift.confirm'),
      run: (as) => useSendingStore.getState().proposeUnfreeze(as),
    });
    if (result !== null) setError(result.ok ? null : result.error);
  }

  const frozen = sending?.frozen ?? null;
  return (
    <section className="card" aria-labelledby="freeze-title" data-testid="@settings/freeze">
      <h2 id="freeze-title">{t('operators.freeze.title')}</h2>
      {frozen === null ? (
        <>
          <p className="verdict verdict--ok" data-testid="@settings/freeze-state">
            {t('operators.freeze.notFrozen')}
          </p>
          <p className="muted small">{t('operators.freeze.intro')}</p>
          <button type="button" className="button button--danger" onClick={() => void freeze()} disabled={sending === null} data-testid="@settings/freeze-button">
            {t('operators.freeze.freezeAll')}
          </button>
        </>
      ) : (
        <>
          <p className="verdict verdict--warn" data-testid="@settings/freeze-state">
            {tRich('operators.freeze.frozen', { by: frozen.by, since: <DateTime at={frozen.since} />, reason: frozen.reason })}
          </p>
          {frozen.liftAt !== null ? (
            <p className="muted small" data-testid="@settings/unfreeze-scheduled">
              {frozen.liftBy === null
                ? tRich('operators.freeze.resumes', { at: <DateTime at={frozen.liftAt} /> })
                : tRich('operators.freeze.resumesLiftedBy', {
                    at: <DateTime at={frozen.liftAt} />,
                    by: frozen.liftBy.confirmedBy === null ? frozen.liftBy.proposer : t('operators.list.and', { first: frozen.liftBy.proposer, second: frozen.liftBy.confirmedBy }),
                  })}
            </p>
          ) : sending === null || sending.lift === null ? (
            <button type="button" className="button" onClick={() => void proposeLift()} data-testid="@settings/unfreeze-button">
              {t('operators.freeze.proposeLift')}
            </button>
          ) : (
            <p className="muted small" data-testid="@settings/unfreeze-pending">
              {t('operators.freeze.liftProposed', { proposer: sending.lift.proposer })}
            </p>
          )}
        </>
      )}
      <ErrorNotice error={error ?? loadError} />
    </section>
  );
}
