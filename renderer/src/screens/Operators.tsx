// Operators: the active profile's roster (operators/list) with what the desk can and cannot promise about four-eyes,
// the proposals waiting for the invited operator or a second admin (confirm, withdraw), device keys of other
// workstations waiting for a confirmation (DeviceKeys.tsx), approval groups (ApprovalGroups.tsx), inviting (the one-time code
// shown once), role changes, disabling, re-keying, "I have an invitation" for the invited operator, and a new
// passphrase for one's own key. An unfounded profile shows the founding step instead.
import { useEffect, useState, type FormEvent } from 'react';
import type { InvitationView, OperatorRoleName, OperatorView, ProposalView, RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { DateTime, useDateTimeText } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { Fingerprint } from '../components/Fingerprint';
import { NewPassphraseFields } from '../components/NewPassphraseFields';
import { Select } from '../components/Select';
import { useNow } from '../hooks';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';
import { ApprovalGroups } from './ApprovalGroups';
import { DeviceKeys } from './DeviceKeys';
import { Founding } from './Founding';

const ROLES: readonly OperatorRoleName[] = ['viewer', 'initiator', 'approver', 'admin'];
const ROLE_NAMES: Readonly<Record<OperatorRoleName, string>> = { viewer: 'Viewer', initiator: 'Initiator', approver: 'Approver', admin: 'Administrator' };
const ROLE_TEXT: Readonly<Record<OperatorRoleName, string>> = {
  viewer: 'Reads balances and history.',
  initiator: 'Also creates addresses, requests and sends withdrawals.',
  approver: 'Also approves, rejects and sends withdrawals.',
  admin: 'Also manages operators, policies and settings.',
};
const STATUS_TONES: Readonly<Record<OperatorView['status'], 'warn' | 'good' | 'neutral'>> = { invited: 'warn', active: 'good', disabled: 'neutral' };
const KIND_NAMES: Readonly<Record<ProposalView['kind'], string>> = { enrol: 'Invitation', rekey: 'New key', role: 'Role change', disable: 'Disable', policy: 'Policy change', book: 'Address-book addition', 'profile-add': 'Profile addition', 'profile-remove': 'Profile removal', unfreeze: 'Lift of the freeze on sending', group: 'Approval group change', governance: 'Governance change', 'radar-clear': 'Poisoning-radar clearance', payees: 'Payees addition' };

/** A one-time code on screen: an invitation or a re-key, until the admin says it was handed over. */
interface ShownCode {
  readonly invitation: InvitationView;
  readonly kind: 'invite' | 'rekey';
}

export function Operators(): React.JSX.Element {
  const roster = useOperatorsStore((state) => state.roster);
  const loaded = useOperatorsStore((state) => state.loaded);
  const error = useOperatorsStore((state) => state.error);
  const profile = useSessionStore((state) => state.session?.profile ?? null);
  const [shown, setShown] = useState<ShownCode | null>(null);
  useEffect(() => {
    void useOperatorsStore.getState().load();
  }, []);

  if (!loaded) return <p className="muted">Reading the roster…</p>;
  if (roster === null) {
    return (
      <>
        <ErrorNotice error={error} />
        <p className="muted">No merchant profile is active: add or select one under Connection.</p>
      </>
    );
  }
  if (!roster.founded) return <Founding profile={profile} onFounded={() => undefined} />;
  return (
    <>
      <ErrorNotice error={error} />
      <FourEyesNotice roster={roster} />
      <RosterTable roster={roster} onCode={setShown} />
      <Proposals roster={roster} />
      <ApprovalGroups roster={roster} />
      <DeviceKeys roster={roster} />
      <section className="card" aria-labelledby="invite-title">
        <h2 id="invite-title">Invite an operator</h2>
        {shown === null ? <InviteForm onCode={setShown} /> : <OneTimeCode shown={shown} onDone={() => setShown(null)} />}
      </section>
      <div className="grid-2">
        <AcceptInvitation />
        <ChangePassphrase />
      </div>
    </>
  );
}

function FourEyesNotice({ roster }: { readonly roster: RosterView }): React.JSX.Element {
  if (roster.notice !== null) {
    return (
      <div className="notice notice--warn" role="note" aria-label="Four-eyes" data-testid="@operators/notice" data-four-eyes={String(roster.fourEyes)}>
        <p className="notice__title">{roster.fourEyes ? 'Four-eyes' : 'This desk cannot give four-eyes'}</p>
        <p>{roster.notice}</p>
      </div>
    );
  }
  return (
    <div className="notice notice--ok" role="note" aria-label="Four-eyes" data-testid="@operators/notice" data-four-eyes={String(roster.fourEyes)}>
      <p className="notice__title">Four-eyes holds</p>
      <p>
        This desk has two independent admins: roster and policy changes wait for a second admin&apos;s confirmation, and a
        withdrawal counts only approvals from operators independent of its initiator and of each other.
      </p>
    </div>
  );
}

function RosterTable({ roster, onCode }: { readonly roster: RosterView; readonly onCode: (shown: ShownCode) => void }): React.JSX.Element {
  const now = useNow(30_000);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const editedOperator = roster.operators.find((operator) => operator.name === editing && operator.status === 'active');

  function outcome(name: string, kind: ProposalView['kind'], done: string, after: RosterView): string {
    return after.proposals.some((proposal) => proposal.kind === kind && proposal.subject.toLowerCase() === name.toLowerCase())
      ? `Proposed: ${done}. It waits for confirmation by another admin, independent of you.`
      : `Done: ${done}.`;
  }

  async function disable(operator: OperatorView): Promise<void> {
    const result = await askOperator({
      title: `Disable ${operator.name}`,
      description: `${operator.name} will no longer be able to unlock the desk or sign anything. Their past decisions stay in the audit log.`,
      hint: 'An admin confirms with their own passphrase. With two independent admins, a second one confirms it too.',
      confirmLabel: 'Disable',
      danger: true,
      run: (as) => useOperatorsStore.getState().disable(operator.name, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? outcome(operator.name, 'disable', `disable ${operator.name}`, result.value) : null);
  }

  async function rekey(operator: OperatorView): Promise<void> {
    const result = await askOperator({
      title: `Give ${operator.name} a new key`,
      description: `For an operator who lost their passphrase: you get a one-time code for ${operator.name}, who chooses a new passphrase with it under "I have an invitation". Their current key stops working once the new one is in force.`,
      hint: 'An admin confirms with their own passphrase.',
      confirmLabel: 'Make a code',
      run: (as) => useOperatorsStore.getState().rekey(operator.name, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(null);
    if (result.ok) onCode({ invitation: result.value, kind: 'rekey' });
  }

  return (
    <section className="card" aria-labelledby="roster-title">
      <h2 id="roster-title">Roster</h2>
      <p className="muted small">
        Each operator has their own signing key, sealed by a passphrase only they know. A party is everyone whose decisions one
        person could control: an operator enrolled by one admin alone belongs to that admin&apos;s party.
      </p>
      <div className="table-wrap">
        <table className="table table--dense" data-testid="@operators/roster">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Key fingerprint</th>
              <th scope="col">Party</th>
              <th scope="col">Enrolled by</th>
              <th scope="col">Locked until</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {roster.operators.map((operator) => (
              <tr key={operator.name} data-testid="@operators/row" data-name={operator.name} data-status={operator.status}>
                <th scope="row">
                  {operator.name} {operator.founding ? <span className="badge badge--info">founder</span> : null}
                </th>
                <td data-testid="@operators/row-role">{ROLE_NAMES[operator.role]}</td>
                <td>
                  <span className={`badge badge--${STATUS_TONES[operator.status]}`} data-testid="@operators/row-status">
                    {operator.status}
                  </span>
                </td>
                <td className="mono" data-testid="@operators/row-key">
                  {operator.keyFingerprint ?? '—'}
                </td>
                <td className="small">{operator.party.length === 0 ? '—' : operator.party.join(', ')}</td>
                <td className="small">{operator.founding ? 'founding' : operator.enrolledBy.length === 0 ? '—' : operator.enrolledBy.join(' and ')}</td>
                <td className="small" data-testid="@operators/row-locked">
                  {operator.lockedUntil !== null && operator.lockedUntil > now ? (
                    <>
                      <span className="badge badge--bad">locked out</span> until <DateTime at={operator.lockedUntil} />
                    </>
                  ) : (
                    '—'
                  )}
                  {operator.failedAttempts > 0 ? <div className="muted">{operator.failedAttempts} wrong passphrase{operator.failedAttempts === 1 ? '' : 's'}</div> : null}
                </td>
                <td>
                  {operator.status === 'active' ? (
                    <div className="actions">
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => {
                          setEditing(operator.name);
                          setStatus(null);
                        }}
                        aria-label={`Change role of ${operator.name}`}
                        data-testid="@operators/role-button"
                      >
                        Change role
                      </button>
                      <button type="button" className="button button--small" onClick={() => void rekey(operator)} aria-label={`Re-key ${operator.name}`} data-testid="@operators/rekey-button">
                        Re-key
                      </button>
                      <button type="button" className="button button--small button--danger" onClick={() => void disable(operator)} aria-label={`Disable ${operator.name}`} data-testid="@operators/disable-button">
                        Disable
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editedOperator === undefined ? null : (
        <RoleEditor
          key={editedOperator.name}
          operator={editedOperator}
          onDone={(message) => {
            setEditing(null);
            if (message !== null) setStatus(message);
          }}
          outcome={outcome}
        />
      )}
      <ErrorNotice error={error} testId="@operators/roster-error" />
      <p role="status" className="small" data-testid="@operators/roster-status">
        {status}
      </p>
    </section>
  );
}

interface RoleEditorProps {
  readonly operator: OperatorView;
  readonly onDone: (message: string | null) => void;
  readonly outcome: (name: string, kind: ProposalView['kind'], done: string, after: RosterView) => string;
}

function RoleEditor({ operator, onDone, outcome }: RoleEditorProps): React.JSX.Element {
  const [role, setRole] = useState<OperatorRoleName>(operator.role);
  const [error, setError] = useState<ContractError | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await askOperator({
      title: `Change the role of ${operator.name}`,
      description: `${operator.name} becomes ${ROLE_NAMES[role].toLowerCase()}: ${ROLE_TEXT[role]}`,
      hint: 'An admin confirms with their own passphrase. With two independent admins, a second one confirms it too.',
      confirmLabel: 'Change role',
      run: (as) => useOperatorsStore.getState().setRole(operator.name, role, as),
    });
    if (result === null) return;
    if (result.ok) onDone(outcome(operator.name, 'role', `make ${operator.name} ${role}`, result.value));
    else setError(result.error);
  }
  return (
    <form className="editor inline-form" onSubmit={(event) => void submit(event)} aria-label={`Role of ${operator.name}`} data-testid="@operators/role-editor">
      <Field label={`New role for ${operator.name}`} hint={ROLE_TEXT[role]} error={fieldError(error?.fields, 'role')}>
        {(control) => <Select control={control} value={role} options={ROLES} label={(candidate) => ROLE_NAMES[candidate]} onChange={setRole} testId="@operators/role-select" />}
      </Field>
      <div className="inline-form__submit actions">
        <button type="submit" className="button button--primary" disabled={role === operator.role} data-testid="@operators/role-save">
          Change role
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}

function Proposals({ roster }: { readonly roster: RosterView }): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const open = roster.proposals.filter((proposal) => proposal.state === 'open');
  const dateTimeText = useDateTimeText();

  async function confirm(proposal: ProposalView): Promise<void> {
    const invitation = proposal.kind === 'enrol' || proposal.kind === 'rekey';
    const result = await askOperator({
      title: `Confirm: ${proposal.summary}`,
      ...(invitation
        ? {
            fingerprint: {
              label: `Key ${proposal.subject} accepted with`,
              value: proposal.acceptedKey,
              compare: `Ask ${proposal.subject} to read out the key fingerprint their screen showed when they accepted, and confirm only if it is the same.`,
              none: `${proposal.subject} has not accepted the invitation yet.`,
            },
          }
        : {}),
      description: `Proposed by ${proposal.proposer} on ${dateTimeText(proposal.at)}. It takes effect when you confirm.`,
      hint: `An admin independent of ${proposal.proposer} confirms with their own passphrase.`,
      confirmLabel: 'Confirm',
      run: (as) => useOperatorsStore.getState().confirm(proposal.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? `Confirmed: ${proposal.summary}.` : null);
  }

  async function withdraw(proposal: ProposalView): Promise<void> {
    const result = await askOperator({
      title: `Withdraw: ${proposal.summary}`,
      description: `Proposed by ${proposal.proposer} on ${dateTimeText(proposal.at)}. Withdrawn, it never takes effect${proposal.kind === 'enrol' || proposal.kind === 'rekey' ? ' and its code stops working' : ''}.`,
      hint: 'An admin confirms with their own passphrase.',
      confirmLabel: 'Withdraw',
      danger: true,
      run: (as) => useOperatorsStore.getState().withdrawProposal(proposal.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? `Withdrawn: ${proposal.summary}.` : null);
  }

  return (
    <section className="card" aria-labelledby="proposals-title">
      <h2 id="proposals-title">Waiting for someone</h2>
      <p className="muted small">Invitations wait for the invited operator to choose their passphrase; with two independent admins, every roster and policy change also waits for a second admin&apos;s confirmation.</p>
      {open.length === 0 ? (
        <p className="muted" data-testid="@operators/proposals-empty">
          Nothing waits.
        </p>
      ) : (
        <ul className="queue" data-testid="@operators/proposals">
          {open.map((proposal) => {
            const invitation = proposal.kind === 'enrol' || proposal.kind === 'rekey';
            const waitingForOperator = invitation && proposal.acceptedKey === null;
            return (
              <li key={proposal.id} className="queue__item" data-testid="@operators/proposal" data-id={proposal.id} data-kind={proposal.kind} data-subject={proposal.subject}>
                <div className="queue__main">
                  <p>
                    <span className="badge badge--info">{KIND_NAMES[proposal.kind]}</span> <strong>{proposal.summary}</strong>
                  </p>
                  <p className="small muted">
                    proposed by {proposal.proposer} on <DateTime at={proposal.at} />
                  </p>
                  {invitation ? (
                    <p className="small" data-testid="@operators/proposal-key">
                      {waitingForOperator ? (
                        `Waiting for ${proposal.subject} to accept with the code.`
                      ) : (
                        <>
                          {proposal.subject} accepted with key <strong className="mono">{proposal.acceptedKey}</strong>
                        </>
                      )}
                    </p>
                  ) : null}
                  <p className="small">
                    {proposal.needsConfirmation
                      ? waitingForOperator
                        ? `Then an admin independent of ${proposal.proposer} confirms it.`
                        : `Waiting for confirmation by an admin independent of ${proposal.proposer}.`
                      : 'Needs no second admin: it takes effect when accepted.'}
                  </p>
                </div>
                <div className="queue__actions">
                  {proposal.needsConfirmation ? (
                    <button
                      type="button"
                      className="button button--primary button--small"
                      disabled={waitingForOperator}
                      onClick={() => void confirm(proposal)}
                      aria-label={`Confirm: ${proposal.summary}`}
                      data-testid="@operators/confirm-button"
                    >
                      Confirm
                    </button>
                  ) : null}
                  <button type="button" className="button button--small" onClick={() => void withdraw(proposal)} aria-label={`Withdraw: ${proposal.summary}`} data-testid="@operators/withdraw-button">
                    Withdraw
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ErrorNotice error={error} testId="@operators/proposals-error" />
      <p role="status" className="small" data-testid="@operators/proposals-status">
        {status}
      </p>
    </section>
  );
}

function InviteForm({ onCode }: { readonly onCode: (shown: ShownCode) => void }): React.JSX.Element {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRoleName>('approver');
  const [error, setError] = useState<ContractError | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const invited = name.trim();
    const result = await askOperator({
      title: 'Invite an operator',
      description: `${invited} is invited as ${ROLE_NAMES[role].toLowerCase()}. You get a one-time code to hand to ${invited} in person; ${invited} then chooses their own passphrase at this desk.`,
      hint: 'An admin confirms with their own passphrase.',
      confirmLabel: 'Invite',
      run: (as) => useOperatorsStore.getState().invite(invited, role, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setName('');
      onCode({ invitation: result.value, kind: 'invite' });
    }
  }
  return (
    <>
      <p className="muted small">Nobody types a passphrase for someone else: the invited operator chooses theirs with the code you hand over.</p>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label="Invite an operator">
        <Field label="Name" error={fieldError(error?.fields, 'name')}>
          {(control) => <input {...control} className="input" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@operators/invite-name" />}
        </Field>
        <Field label="Role" hint={ROLE_TEXT[role]} error={fieldError(error?.fields, 'role')}>
          {(control) => <Select control={control} value={role} options={ROLES} label={(candidate) => ROLE_NAMES[candidate]} onChange={setRole} testId="@operators/invite-role" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" data-testid="@operators/invite-button">
            Invite
          </button>
        </div>
      </form>
      <ErrorNotice error={error} testId="@operators/invite-error" />
    </>
  );
}

/** The code, once: it is never stored (only its hash) and cannot be shown again once dismissed. */
function OneTimeCode({ shown, onDone }: { readonly shown: ShownCode; readonly onDone: () => void }): React.JSX.Element {
  const { invitation } = shown;
  return (
    <div className="notice notice--warn" role="status" data-testid="@operators/invitation" data-operator={invitation.operator}>
      <p className="notice__title">
        {shown.kind === 'invite' ? `Invitation code for ${invitation.operator}` : `New-key code for ${invitation.operator}`}: shown only now
      </p>
      <p className="address address-block">
        <strong data-testid="@operators/invitation-code">{invitation.code}</strong>
      </p>
      <p data-testid="@operators/invitation-message">{invitation.message}</p>
      <p className="notice__detail">
        {invitation.operator} types it under &quot;I have an invitation&quot; on this screen, with their name and a passphrase of their own.
        {invitation.needsConfirmation ? ' Then another admin confirms the key they accepted with, under "Waiting for someone".' : ''}
      </p>
      <button type="button" className="button" onClick={onDone} data-testid="@operators/invitation-done">
        I handed it over: hide the code
      </button>
    </div>
  );
}

/**
 * The key an invitation was just accepted with: the open proposal's accepted key (the roster was reloaded after the
 * call) — for a re-key the operator's own view still shows the key in force until a second admin confirms — else
 * the operator's current key.
 */
function acceptedKey(operator: OperatorView): string | null {
  const proposals = useOperatorsStore.getState().roster?.proposals ?? [];
  const waiting = proposals.find(
    (proposal) => (proposal.kind === 'enrol' || proposal.kind === 'rekey') && proposal.subject.toLowerCase() === operator.name.toLowerCase() && proposal.acceptedKey !== null,
  );
  return waiting?.acceptedKey ?? operator.keyFingerprint;
}

/**
 * The invited (or re-keyed) operator completes the invitation with the code and their own new passphrase; also on the
 * lock screen, since a locked desk still accepts invitations (the code and the new passphrase prove who is there).
 */
export function AcceptInvitation(): React.JSX.Element {
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [accepted, setAccepted] = useState<{ readonly operator: OperatorView; readonly key: string | null } | null>(null);
  // Whether the accepted key is the operator's key in force, as the roster says now (a confirmation may follow).
  const inForce = useOperatorsStore((state) => {
    if (accepted === null) return false;
    const now = state.roster?.operators.find((operator) => operator.name.toLowerCase() === accepted.operator.name.toLowerCase());
    return now?.status === 'active' && now.keyFingerprint === accepted.key;
  });
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (passphrase !== confirm) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    const result = await useOperatorsStore.getState().accept(name.trim(), code.trim(), passphrase);
    setBusy(false);
    setError(result.ok ? null : result.error);
    setAccepted(result.ok ? { operator: result.value, key: acceptedKey(result.value) } : null);
    if (result.ok) {
      setName('');
      setCode('');
      setPassphrase('');
      setConfirm('');
    }
  }
  return (
    <section className="card" aria-labelledby="accept-title" data-testid="@operators/accept">
      <h2 id="accept-title">I have an invitation</h2>
      <p className="muted small">An admin gave you a one-time code. Type it with your name, and choose your own passphrase: nobody else ever learns it.</p>
      <form className="stack" onSubmit={(event) => void submit(event)} aria-label="Accept an invitation">
        <Field label="Your operator name" error={fieldError(error?.fields, 'name')}>
          {(control) => <input {...control} className="input" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@operators/accept-name" />}
        </Field>
        <Field label="Invitation code" error={fieldError(error?.fields, 'code')}>
          {(control) => (
            <input {...control} className="input input--mono" autoComplete="off" spellCheck={false} value={code} onChange={(event) => setCode(event.target.value)} required data-testid="@operators/accept-code" />
          )}
        </Field>
        <NewPassphraseFields
          label="Your new passphrase"
          value={passphrase}
          again={confirm}
          onChange={(value) => {
            setPassphrase(value);
            setMismatch(false);
          }}
          onAgainChange={(value) => {
            setConfirm(value);
            setMismatch(false);
          }}
          error={fieldError(error?.fields, 'passphrase')}
          mismatch={mismatch}
          testIds={{ passphrase: '@operators/accept-passphrase', again: '@operators/accept-confirm' }}
        />
        <ErrorNotice error={error} testId="@operators/accept-error" />
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@operators/accept-button">
            {busy ? 'Making your key…' : 'Accept the invitation'}
          </button>
        </div>
      </form>
      {accepted === null ? null : (
        <div role="status" data-testid="@operators/accepted">
          <p className="verdict verdict--ok">
            {accepted.operator.name}: your new key is made and sealed with your passphrase
            <span data-testid="@operators/accepted-state">{inForce ? '. It is in force now.' : '. An admin still has to confirm it.'}</span>
          </p>
          <Fingerprint
            label="Your new key's fingerprint"
            value={accepted.key}
            none="Not available yet."
            compare="Read it out to the admin who confirms your key: they confirm only if theirs shows the same."
            testId="@operators/accepted-key"
          />
        </div>
      )}
    </section>
  );
}

function ChangePassphrase(): React.JSX.Element {
  const sessionOperator = useSessionStore((state) => state.session?.operator ?? null);
  const [operator, setOperator] = useState(sessionOperator ?? '');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    if (next !== confirm) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    const result = await useOperatorsStore.getState().changePassphrase(operator.trim(), current, next);
    setBusy(false);
    setCurrent('');
    setError(result.ok ? null : result.error);
    setDone(result.ok ? `${result.value.name}: your passphrase is changed. Your key and its fingerprint stay the same.` : null);
    if (result.ok) {
      setNext('');
      setConfirm('');
    }
  }
  const fields = error?.fields;
  return (
    <section className="card" aria-labelledby="own-passphrase-title" data-testid="@operators/change-passphrase">
      <h2 id="own-passphrase-title">Change my passphrase</h2>
      <p className="muted small">Your key is re-sealed under the new passphrase; nothing else changes. Only you can do this, with your current passphrase.</p>
      <form className="stack" onSubmit={(event) => void submit(event)} aria-label="Change my passphrase">
        <Field label="Your operator name" error={fieldError(fields, 'operator')}>
          {(control) => <input {...control} className="input" autoComplete="username" value={operator} onChange={(event) => setOperator(event.target.value)} required data-testid="@operators/own-name" />}
        </Field>
        <Field label="Current passphrase" error={error?.code === 'wrongPassphrase' ? fieldError(fields, 'passphrase') : null}>
          {(control) => (
            <input {...control} className="input" type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} required data-testid="@operators/own-passphrase" />
          )}
        </Field>
        <NewPassphraseFields
          label="New passphrase"
          value={next}
          again={confirm}
          onChange={(value) => {
            setNext(value);
            setMismatch(false);
          }}
          onAgainChange={(value) => {
            setConfirm(value);
            setMismatch(false);
          }}
          error={fieldError(fields, 'newPassphrase')}
          mismatch={mismatch}
          testIds={{ passphrase: '@operators/own-new', again: '@operators/own-confirm' }}
        />
        <ErrorNotice error={error} testId="@operators/own-error" />
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@operators/own-button">
            {busy ? 'Re-sealing…' : 'Change my passphrase'}
          </button>
        </div>
      </form>
      <p role="status" className="small" data-testid="@operators/own-status">
        {done}
      </p>
    </section>
  );
}
