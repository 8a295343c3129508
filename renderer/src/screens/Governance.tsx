// The governance panel in Settings, beside the emergency freeze (issue 20, part 4): the governance in force (how long a
// loosening change waits, how a freeze is lifted) and who set it; every loosening change waiting for its delay (what it
// loosens, who made it, when it takes effect) with an admin's veto; the latest vetoed or in force; and an admin's
// proposal of a new setting. Everything shown is the engine's answer from the signed roster (governance/state); the
// engine decides who may act. Non-admins signed in here see the lists without the actions.
import { useEffect, useState, type FormEvent } from 'react';
import type { ContractError, GovernanceView, ScheduledChangeView } from '../../../electron/contract';
import { CHAIN_INFO, isChain } from '../../../electron/chains';
import { DateTime, useDateTimeText } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field } from '../components/Field';
import { Select } from '../components/Select';
import { currencyLabel, timeFromNow } from '../format';
import { useNow } from '../hooks';
import { t, tRich, type MessageId } from '../i18n';
import { useGovernanceStore } from '../stores/governance';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';

/** The longest delay or lock the engine accepts (ledger/loosening.ts MAX_GOVERNANCE_HOURS). */
const MAX_HOURS = 720;
const FREEZE_LIFTS: readonly GovernanceView['freezeLift'][] = ['four-eyes', 'time-lock'];
const FREEZE_LIFT_NAMES: Readonly<Record<GovernanceView['freezeLift'], MessageId>> = {
  'four-eyes': 'operators.governance.freezeLift.fourEyes',
  'time-lock': 'operators.governance.freezeLift.timeLock',
};

/**
 * Whether the operator signed in here may be offered an admin's actions: an admin of the roster, or nobody signed in
 * (whoever acts names themself in the dialog, and the engine refuses a non-admin). An operator signed in with another
 * role sees no actions.
 */
export function useAdminActions(): boolean {
  const signedIn = useSessionStore((state) => state.session?.operator ?? null);
  const role = useOperatorsStore((state) => state.roster?.operators.find((operator) => operator.name.toLowerCase() === signedIn?.toLowerCase())?.role ?? null);
  return signedIn === null || role === 'admin';
}

/** What a scheduled change is, in words: "The TRX-USDT withdrawal policy", "TXYZ… (Tron) added to the address book". */
export function scheduledChangeWhat(change: Pick<ScheduledChangeView, 'kind' | 'subject'>): string {
  switch (change.kind) {
    case 'policy':
      return t('operators.governance.what.policy', { currency: currencyLabel(change.subject) });
    case 'book': {
      const colon = change.subject.indexOf(':');
      const chain = change.subject.slice(0, colon);
      return t('operators.governance.what.book', { address: change.subject.slice(colon + 1), chain: isChain(chain) ? CHAIN_INFO[chain].displayName : chain });
    }
    case 'unfreeze':
      return t('operators.governance.what.unfreeze');
    case 'group':
      return t('operators.governance.what.group', { group: change.subject });
    case 'governance':
      return t('operators.governance.what.governance');
    case 'radar-clear':
      return t('operators.governance.what.radarClear', { subject: change.subject });
    case 'payees':
      return t('operators.governance.what.payees');
    case 'enrol':
    case 'rekey':
    case 'role':
    case 'disable':
      return t('operators.governance.what.roster', { subject: change.subject });
    case 'profile-add':
    case 'profile-remove':
      return t('operators.governance.what.profile', { subject: change.subject });
    default: {
      const unknown: never = change.kind;
      return String(unknown);
    }
  }
}

/** "alice, confirmed by frank" or "alice". */
function madeBy(change: Pick<ScheduledChangeView, 'proposer' | 'confirmedBy'>): string {
  return change.confirmedBy === null ? change.proposer : t('operators.governance.madeByConfirmed', { proposer: change.proposer, confirmedBy: change.confirmedBy });
}

/** When a waiting change would take effect, as vetoScheduledChange's `when` reads it: "at 1 Dec 2026, 10:00 UTC". */
export function effectiveAtText(dateTimeText: string): string {
  return t('operators.governance.veto.at', { time: dateTimeText });
}

/**
 * Asks an admin's passphrase and an optional reason, and vetoes the change (governance/veto): it never takes effect.
 * Resolves with the engine's refusal, or null (done or cancelled). The Address book's veto comes here too; `when` is
 * effectiveAtText's phrase.
 */
export async function vetoScheduledChange(change: Pick<ScheduledChangeView, 'id' | 'kind' | 'subject' | 'effectiveAt'>, when: string): Promise<ContractError | null> {
  const result = await askOperator({
    title: t('operators.governance.veto.title'),
    description: t('operators.governance.veto.description', { what: scheduledChangeWhat(change), when }),
    hint: t('operators.governance.veto.hint'),
    reason: { label: t('operators.governance.veto.reason'), required: false },
    confirmLabel: t('operators.governance.veto.confirm'),
    danger: true,
    run: (as, reason) => useGovernanceStore.getState().veto(change.id, reason, as),
  });
  return result === null || result.ok ? null : result.error;
}

export function Governance(): React.JSX.Element {
  const governance = useGovernanceStore((state) => state.state);
  const loadError = useGovernanceStore((state) => state.error);
  const canAct = useAdminActions();
  const [error, setError] = useState<ContractError | null>(null);
  useEffect(() => {
    void useGovernanceStore.getState().load();
  }, []);

  return (
    <section className="card" aria-labelledby="governance-title" data-testid="@settings/governance">
      <h2 id="governance-title">{t('operators.governance.title')}</h2>
      {governance === null ? (
        <p className="muted">{t('operators.governance.reading')}</p>
      ) : (
        <>
          <Setting governance={governance} />
          <ScheduledChanges governance={governance} canAct={canAct} onError={setError} />
          <SettledChanges changes={governance.recent} />
          {canAct ? <GovernanceForm governance={governance} /> : null}
        </>
      )}
      <ErrorNotice error={error ?? loadError} testId="@governance/error" />
    </section>
  );
}

function Setting({ governance }: { readonly governance: GovernanceView }): React.JSX.Element {
  return (
    <div className="stack">
      <p data-testid="@governance/setting">
        {governance.looseningDelayHours === 0
          ? t('operators.governance.setting.atOnce')
          : t('operators.governance.setting.delay', { hours: governance.looseningDelayHours })}{' '}
        {governance.freezeLift === 'four-eyes'
          ? t('operators.governance.setting.liftFourEyes')
          : t('operators.governance.setting.liftTimeLock', { hours: governance.freezeLockHours })}
      </p>
      <p className="muted small" data-testid="@governance/set-by">
        {governance.setBy === null
          ? t('operators.governance.setting.defaults')
          : tRich('operators.governance.setting.setBy', { by: madeBy(governance.setBy), since: <DateTime at={governance.setBy.since} /> })}
      </p>
      {governance.proposal === null ? null : (
        <p className="notice notice--warn" data-testid="@governance/proposal">
          {t('operators.governance.setting.proposal', { proposer: governance.proposal.proposer, summary: governance.proposal.summary })}
        </p>
      )}
    </div>
  );
}

function ScheduledChanges({ governance, canAct, onError }: { readonly governance: GovernanceView; readonly canAct: boolean; readonly onError: (error: ContractError | null) => void }): React.JSX.Element {
  const now = useNow(30_000);
  const dateTimeText = useDateTimeText();
  return (
    <>
      <h3>{t('operators.governance.pending.title')}</h3>
      {governance.pending.length === 0 ? (
        <p className="muted small" data-testid="@governance/pending-empty">
          {t('operators.governance.pending.empty')}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@governance/pending">
            <caption className="visually-hidden">{t('operators.governance.pending.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('operators.governance.pending.change')}</th>
                <th scope="col">{t('operators.governance.pending.loosens')}</th>
                <th scope="col">{t('operators.governance.pending.madeBy')}</th>
                <th scope="col">{t('operators.governance.pending.takesEffect')}</th>
                {canAct ? (
                  <th scope="col">
                    <span className="visually-hidden">{t('operators.governance.pending.veto')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {governance.pending.map((change) => (
                <tr key={change.id} data-testid="@governance/change" data-id={change.id} data-state={change.state}>
                  <th scope="row" className="break">
                    {scheduledChangeWhat(change)}
                  </th>
                  <td data-testid="@governance/change-loosens">{change.loosens.join('; ')}</td>
                  <td>{madeBy(change)}</td>
                  <td data-testid="@governance/change-effective">
                    <DateTime at={change.effectiveAt} /> <span className="muted">({timeFromNow(change.effectiveAt, now)})</span>
                  </td>
                  {canAct ? (
                    <td>
                      <button
                        type="button"
                        className="button button--small button--danger"
                        onClick={() => void vetoScheduledChange(change, effectiveAtText(dateTimeText(change.effectiveAt))).then(onError)}
                        aria-label={t('operators.governance.pending.vetoOf', { what: scheduledChangeWhat(change) })}
                        data-testid="@governance/veto-button"
                      >
                        {t('operators.governance.pending.vetoButton')}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function SettledChanges({ changes }: { readonly changes: readonly ScheduledChangeView[] }): React.JSX.Element | null {
  if (changes.length === 0) return null;
  return (
    <>
      <h3>{t('operators.governance.settled.title')}</h3>
      <ul className="stack small" data-testid="@governance/recent">
        {changes.map((change) => (
          <li key={change.id} data-testid="@governance/settled" data-id={change.id} data-state={change.state}>
            <SettledChange change={change} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** One settled change in a sentence: "[vetoed] What (what it loosened), by alice: vetoed by frank <time>: reason". */
function SettledChange({ change }: { readonly change: ScheduledChangeView }): React.JSX.Element {
  const what = scheduledChangeWhat(change);
  const loosens = change.loosens.join('; ');
  const by = madeBy(change);
  if (change.state === 'vetoed') {
    const values = {
      badge: (chunks: React.ReactNode[]) => <span className="badge badge--bad">{chunks}</span>,
      what,
      loosens,
      by,
      vetoedBy: change.vetoedBy,
      at: change.vetoedAt === null ? null : <DateTime at={change.vetoedAt} />,
    };
    return <>{change.vetoReason === null ? tRich('operators.governance.settled.vetoed', values) : tRich('operators.governance.settled.vetoedWithReason', { ...values, reason: change.vetoReason })}</>;
  }
  return (
    <>
      {tRich('operators.governance.settled.inForce', {
        badge: (chunks) => <span className="badge badge--good">{chunks}</span>,
        what,
        loosens,
        by,
        since: <DateTime at={change.effectiveAt} />,
      })}
    </>
  );
}

/** A whole number of hours from `min` to 720 typed in a field, or null. */
function hoursOf(text: string, min: number): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const hours = Number(text.trim());
  return hours >= min && hours <= MAX_HOURS ? hours : null;
}

function GovernanceForm({ governance }: { readonly governance: GovernanceView }): React.JSX.Element {
  const [delay, setDelay] = useState(String(governance.looseningDelayHours));
  const [lift, setLift] = useState<GovernanceView['freezeLift']>(governance.freezeLift);
  const [lock, setLock] = useState(governance.freezeLift === 'time-lock' ? String(governance.freezeLockHours) : '24');
  const [problems, setProblems] = useState<{ delay: string | null; lock: string | null }>({ delay: null, lock: null });
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const dateTimeText = useDateTimeText();

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const delayHours = hoursOf(delay, 0);
    const lockHours = lift === 'time-lock' ? hoursOf(lock, 1) : 0;
    const found = {
      delay: delayHours === null ? t('operators.governance.form.delayProblem', { max: MAX_HOURS }) : null,
      lock: lockHours === null ? t('operators.governance.form.lockProblem', { max: MAX_HOURS }) : null,
    };
    setProblems(found);
    setOutcome(null);
    if (delayHours === null || lockHours === null) return;
    const lifted = lift === 'four-eyes' ? t('operators.governance.form.liftedFourEyes') : t('operators.governance.form.liftedTimeLock', { hours: lockHours });
    const wait = delayHours === 0 ? t('operators.governance.form.waitNone') : t('operators.governance.form.waitHours', { hours: delayHours });
    const result = await askOperator({
      title: t('operators.governance.form.dialogTitle'),
      description: t('operators.governance.form.description', { wait, lifted }),
      hint: t('operators.governance.form.hint'),
      confirmLabel: t('operators.propose'),
      run: (as) => useGovernanceStore.getState().propose({ looseningDelayHours: delayHours, freezeLift: lift, freezeLockHours: lockHours }, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (!result.ok) return;
    const scheduled = result.value.pending.find((change) => change.kind === 'governance');
    setOutcome(
      result.value.proposal !== null
        ? t('operators.governance.form.proposed')
        : scheduled !== undefined
          ? t('operators.governance.form.scheduled', { time: dateTimeText(scheduled.effectiveAt) })
          : t('operators.governance.form.done'),
    );
  }

  return (
    <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="governance-form-title" data-testid="@governance/form">
      <h3 id="governance-form-title">{t('operators.governance.form.title')}</h3>
      <div className="inline-form">
        <Field label={t('operators.governance.form.delay')} hint={t('operators.governance.form.delayHint', { max: MAX_HOURS })} error={problems.delay} testId="@governance/delay">
          {(control) => <input {...control} className="input" inputMode="numeric" value={delay} onChange={(event) => setDelay(event.target.value)} data-testid="@governance/delay" />}
        </Field>
        <Field label={t('operators.governance.form.lift')}>
          {(control) => <Select control={control} value={lift} options={FREEZE_LIFTS} label={(value) => t(FREEZE_LIFT_NAMES[value])} onChange={setLift} testId="@governance/freeze-lift" />}
        </Field>
        {lift === 'time-lock' ? (
          <Field label={t('operators.governance.form.lock')} hint={t('operators.governance.form.lockHint', { max: MAX_HOURS })} error={problems.lock} testId="@governance/lock">
            {(control) => <input {...control} className="input" inputMode="numeric" value={lock} onChange={(event) => setLock(event.target.value)} data-testid="@governance/lock" />}
          </Field>
        ) : null}
        <div className="inline-form__submit">
          <button type="submit" className="button" data-testid="@governance/propose-button">
            {t('operators.governance.form.submit')}
          </button>
        </div>
      </div>
      {outcome === null ? null : (
        <p role="status" data-testid="@governance/outcome">
          {outcome}
        </p>
      )}
      <ErrorNotice error={error} testId="@governance/form-error" />
    </form>
  );
}
