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
import { useGovernanceStore } from '../stores/governance';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';

/** The longest delay or lock the engine accepts (ledger/loosening.ts MAX_GOVERNANCE_HOURS). */
const MAX_HOURS = 720;
const FREEZE_LIFTS: readonly GovernanceView['freezeLift'][] = ['four-eyes', 'time-lock'];
const FREEZE_LIFT_NAMES: Readonly<Record<GovernanceView['freezeLift'], string>> = { 'four-eyes': 'Two admins', 'time-lock': 'One admin, after a time lock' };

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
      return `The ${currencyLabel(change.subject)} withdrawal policy`;
    case 'book': {
      const colon = change.subject.indexOf(':');
      const chain = change.subject.slice(0, colon);
      return `${change.subject.slice(colon + 1)} (${isChain(chain) ? CHAIN_INFO[chain].displayName : chain}) added to the address book`;
    }
    case 'unfreeze':
      return 'The lift of the freeze on sending';
    case 'group':
      return `The approval group ${change.subject}`;
    case 'governance':
      return "The desk's governance";
    case 'radar-clear':
      return `${change.subject} cleared by the poisoning radar`;
    case 'payees':
      return 'New payees and their addresses added to the address book';
    case 'enrol':
    case 'rekey':
    case 'role':
    case 'disable':
      return `A roster change for ${change.subject}`;
    case 'profile-add':
    case 'profile-remove':
      return `A change to the profile ${change.subject}`;
    default: {
      const unknown: never = change.kind;
      return String(unknown);
    }
  }
}

/** "alice, confirmed by frank" or "alice". */
function madeBy(change: Pick<ScheduledChangeView, 'proposer' | 'confirmedBy'>): string {
  return change.confirmedBy === null ? change.proposer : `${change.proposer}, confirmed by ${change.confirmedBy}`;
}

/**
 * Asks an admin's passphrase and an optional reason, and vetoes the change (governance/veto): it never takes effect.
 * Resolves with the engine's refusal, or null (done or cancelled). The Address book's veto comes here too.
 */
export async function vetoScheduledChange(change: Pick<ScheduledChangeView, 'id' | 'kind' | 'subject' | 'effectiveAt'>, when: string): Promise<ContractError | null> {
  const result = await askOperator({
    title: 'Veto a change that loosens the rules',
    description: `${scheduledChangeWhat(change)} would take effect ${when}. Vetoed, it never takes effect; to make it later, someone proposes it again.`,
    hint: 'Any one admin vetoes, alone, with their own passphrase, before the change takes effect.',
    reason: { label: 'Why (optional; the other admins and the audit log see it)', required: false },
    confirmLabel: 'Veto the change',
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
      <h2 id="governance-title">Governance: loosening waits, any admin may veto</h2>
      {governance === null ? (
        <p className="muted">Reading the governance…</p>
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
          ? 'A change that loosens the rules takes effect at once.'
          : `A change that loosens the rules (a higher limit, fewer approvals, a wider group, a book addition, a lifted freeze) waits ${governance.looseningDelayHours} h before it takes effect; any one admin may veto it meanwhile. A change that tightens them takes effect at once.`}{' '}
        {governance.freezeLift === 'four-eyes'
          ? 'A freeze on sending is lifted by two admins.'
          : `A freeze on sending is lifted by one admin; sending resumes ${governance.freezeLockHours} h later unless an admin vetoes the lift.`}
      </p>
      <p className="muted small" data-testid="@governance/set-by">
        {governance.setBy === null ? (
          "The desk's defaults: nobody has set the governance."
        ) : (
          <>
            Set by {madeBy(governance.setBy)}; in force since <DateTime at={governance.setBy.since} />.
          </>
        )}
      </p>
      {governance.proposal === null ? null : (
        <p className="notice notice--warn" data-testid="@governance/proposal">
          Waiting for a second admin: {governance.proposal.proposer} proposed to {governance.proposal.summary}. Another admin, independent of them, confirms it on the Operators
          screen (under &quot;Waiting for someone&quot;).
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
      <h3>Changes waiting for their delay</h3>
      {governance.pending.length === 0 ? (
        <p className="muted small" data-testid="@governance/pending-empty">
          No change that loosens the rules is waiting.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@governance/pending">
            <caption className="visually-hidden">Changes that loosen the rules, waiting for their delay</caption>
            <thead>
              <tr>
                <th scope="col">Change</th>
                <th scope="col">What it loosens</th>
                <th scope="col">Made by</th>
                <th scope="col">Takes effect</th>
                {canAct ? (
                  <th scope="col">
                    <span className="visually-hidden">Veto</span>
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
                        onClick={() => void vetoScheduledChange(change, `at ${dateTimeText(change.effectiveAt)}`).then(onError)}
                        aria-label={`Veto: ${scheduledChangeWhat(change)}`}
                        data-testid="@governance/veto-button"
                      >
                        Veto…
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
      <h3>Vetoed, or in force after their delay</h3>
      <ul className="stack small" data-testid="@governance/recent">
        {changes.map((change) => (
          <li key={change.id} data-testid="@governance/settled" data-id={change.id} data-state={change.state}>
            {change.state === 'vetoed' ? <span className="badge badge--bad">vetoed</span> : <span className="badge badge--good">in force</span>} {scheduledChangeWhat(change)} ({change.loosens.join('; ')}), by{' '}
            {madeBy(change)}:{' '}
            {change.state === 'vetoed' ? (
              <>
                vetoed by {change.vetoedBy} {change.vetoedAt === null ? null : <DateTime at={change.vetoedAt} />}
                {change.vetoReason === null ? '' : `: ${change.vetoReason}`}
              </>
            ) : (
              <>
                in force since <DateTime at={change.effectiveAt} />
              </>
            )}
          </li>
        ))}
      </ul>
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
      delay: delayHours === null ? `Type a whole number of hours from 0 to ${MAX_HOURS} (0: a loosening change takes effect at once).` : null,
      lock: lockHours === null ? `Type a whole number of hours from 1 to ${MAX_HOURS}.` : null,
    };
    setProblems(found);
    setOutcome(null);
    if (delayHours === null || lockHours === null) return;
    const lifted = lift === 'four-eyes' ? 'a freeze is lifted by two admins' : `one admin lifts a freeze, and sending resumes ${lockHours} h later unless an admin vetoes it`;
    const result = await askOperator({
      title: "Change the desk's governance",
      description: `A loosening change would wait ${delayHours === 0 ? 'no time' : `${delayHours} h`}, and ${lifted}. A shorter delay or a one-admin lift is itself a loosening change: it waits for the delay in force now.`,
      hint: 'An admin proposes with their own passphrase; with two independent admins, a second admin confirms it on the Operators screen.',
      confirmLabel: 'Propose',
      run: (as) => useGovernanceStore.getState().propose({ looseningDelayHours: delayHours, freezeLift: lift, freezeLockHours: lockHours }, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (!result.ok) return;
    const scheduled = result.value.pending.find((change) => change.kind === 'governance');
    setOutcome(
      result.value.proposal !== null
        ? 'Proposed: it waits for another admin, independent of you, to confirm it on the Operators screen.'
        : scheduled !== undefined
          ? `Scheduled: it loosens the governance, so it takes effect at ${dateTimeText(scheduled.effectiveAt)} unless an admin vetoes it.`
          : 'Done: the new governance is in force.',
    );
  }

  return (
    <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="governance-form-title" data-testid="@governance/form">
      <h3 id="governance-form-title">Change the governance</h3>
      <div className="inline-form">
        <Field label="Loosening delay (hours)" hint={`0 to ${MAX_HOURS}; 0: at once`} error={problems.delay} testId="@governance/delay">
          {(control) => <input {...control} className="input" inputMode="numeric" value={delay} onChange={(event) => setDelay(event.target.value)} data-testid="@governance/delay" />}
        </Field>
        <Field label="Who lifts a freeze">
          {(control) => <Select control={control} value={lift} options={FREEZE_LIFTS} label={(value) => FREEZE_LIFT_NAMES[value]} onChange={setLift} testId="@governance/freeze-lift" />}
        </Field>
        {lift === 'time-lock' ? (
          <Field label="Time lock (hours)" hint={`1 to ${MAX_HOURS}`} error={problems.lock} testId="@governance/lock">
            {(control) => <input {...control} className="input" inputMode="numeric" value={lock} onChange={(event) => setLock(event.target.value)} data-testid="@governance/lock" />}
          </Field>
        ) : null}
        <div className="inline-form__submit">
          <button type="submit" className="button" data-testid="@governance/propose-button">
            Propose…
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
