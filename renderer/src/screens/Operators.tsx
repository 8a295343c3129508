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
import { t, tRich, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';
import { useSessionStore } from '../stores/session';
import { ApprovalGroups } from './ApprovalGroups';
import { DeviceKeys } from './DeviceKeys';
import { Founding } from './Founding';

const ROLES: readonly OperatorRoleName[] = ['viewer', 'initiator', 'approver', 'admin'];
const ROLE_NAMES: Readonly<Record<OperatorRoleName, MessageId>> = {
  viewer: 'operators.role.viewer',
  initiator: 'operators.role.initiator',
  approver: 'operators.role.approver',
  admin: 'operators.role.admin',
};
const ROLE_TEXT: Readonly<Record<OperatorRoleName, MessageId>> = {
  viewer: 'operators.role.viewer.text',
  initiator: 'operators.role.initiator.text',
  approver: 'operators.role.approver.text',
  admin: 'operators.role.admin.text',
};
const STATUS_TONES: Readonly<Record<OperatorView['status'], 'warn' | 'good' | 'neutral'>> = { invited: 'warn', active: 'good', disabled: 'neutral' };
const STATUS_NAMES: Readonly<Record<OperatorView['status'], MessageId>> = {
  invited: 'operators.status.invited',
  active: 'operators.status.active',
  disabled: 'operators.status.disabled',
};
const KIND_NAMES: Readonly<Record<ProposalView['kind'], MessageId>> = {
  enrol: 'operators.proposal.kind.enrol',
  rekey: 'operators.proposal.kind.rekey',
  role: 'operators.proposal.kind.role',
  disable: 'operators.proposal.kind.disable',
  policy: 'operators.proposal.kind.policy',
  book: 'operators.proposal.kind.book',
  'profile-add': 'operators.proposal.kind.profileAdd',
  'profile-remove': 'operators.proposal.kind.profileRemove',
  unfreeze: 'operators.proposal.kind.unfreeze',
  group: 'operators.proposal.kind.group',
  governance: 'operators.proposal.kind.governance',
  'radar-clear': 'operators.proposal.kind.radarClear',
  payees: 'operators.proposal.kind.payees',
};

/** A role's name, as in the roster's Role column and the role pickers ("Administrator"). */
function roleName(role: OperatorRoleName): string {
  return t(ROLE_NAMES[role]);
}

/** What a role may do, in one sentence. */
function roleText(role: OperatorRoleName): string {
  return t(ROLE_TEXT[role]);
}

/** Names joined with "and": "alice", "alice and bob". */
function namesAnd(names: readonly string[]): string {
  return names.reduce((joined, name) => t('operators.list.and', { first: joined, second: name }));
}

/** What an action on an operator says once the engine answered: done, or proposed and waiting for a second admin. */
interface Outcome {
  readonly proposed: string;
  readonly done: string;
}

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

  if (!loaded) return <p className="muted">{t('operators.screen.reading')}</p>;
  if (roster === null) {
    return (
      <>
        <ErrorNotice error={error} />
        <p className="muted">{t('operators.screen.noProfile')}</p>
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
        <h2 id="invite-title">{t('operators.invite.title')}</h2>
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
      <div className="notice notice--warn" role="note" aria-label={t('operators.fourEyes.label')} data-testid="@operators/notice" data-four-eyes={String(roster.fourEyes)}>
        <p className="notice__title">{roster.fourEyes ? t('operators.fourEyes.label') : t('operators.fourEyes.cannot')}</p>
        <p>{roster.notice}</p>
      </div>
    );
  }
  return (
    <div className="notice notice--ok" role="note" aria-label={t('operators.fourEyes.label')} data-testid="@operators/notice" data-four-eyes={String(roster.fourEyes)}>
      <p className="notice__title">{t('operators.fourEyes.holds')}</p>
      <p>{t('operators.fourEyes.holdsText')}</p>
    </div>
  );
}

function RosterTable({ roster, onCode }: { readonly roster: RosterView; readonly onCode: (shown: ShownCode) => void }): React.JSX.Element {
  const now = useNow(30_000);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const editedOperator = roster.operators.find((operator) => operator.name === editing && operator.status === 'active');

  function outcome(name: string, kind: ProposalView['kind'], texts: Outcome, after: RosterView): string {
    return after.proposals.some((proposal) => proposal.kind === kind && proposal.subject.toLowerCase() === name.toLowerCase()) ? texts.proposed : texts.done;
  }

  async function disable(operator: OperatorView): Promise<void> {
    const result = await askOperator({
      title: t('operators.disable.title', { name: operator.name }),
      description: t('operators.disable.description', { name: operator.name }),
      hint: t('operators.hint.adminConfirmsSecond'),
      confirmLabel: t('operators.roster.disable'),
      danger: true,
      run: (as) => useOperatorsStore.getState().disable(operator.name, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    const texts = { proposed: t('operators.disable.proposed', { name: operator.name }), done: t('operators.disable.done', { name: operator.name }) };
    setStatus(result.ok ? outcome(operator.name, 'disable', texts, result.value) : null);
  }

  async function rekey(operator: OperatorView): Promise<void> {
    const result = await askOperator({
      title: t('operators.rekey.title', { name: operator.name }),
      description: t('operators.rekey.description', { name: operator.name }),
      hint: t('operators.hint.adminConfirms'),
      confirmLabel: t('operators.rekey.confirm'),
      run: (as) => useOperatorsStore.getState().rekey(operator.name, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(null);
    if (result.ok) onCode({ invitation: result.value, kind: 'rekey' });
  }

  return (
    <section className="card" aria-labelledby="roster-title">
      <h2 id="roster-title">{t('operators.roster.title')}</h2>
      <p className="muted small">{t('operators.roster.intro')}</p>
      <div className="table-wrap">
        <table className="table table--dense" data-testid="@operators/roster">
          <thead>
            <tr>
              <th scope="col">{t('operators.roster.name')}</th>
              <th scope="col">{t('operators.roster.role')}</th>
              <th scope="col">{t('operators.roster.status')}</th>
              <th scope="col">{t('operators.roster.keyFingerprint')}</th>
              <th scope="col">{t('operators.roster.party')}</th>
              <th scope="col">{t('operators.roster.enrolledBy')}</th>
              <th scope="col">{t('operators.roster.lockedUntil')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('operators.roster.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {roster.operators.map((operator) => (
              <tr key={operator.name} data-testid="@operators/row" data-name={operator.name} data-status={operator.status}>
                <th scope="row">
                  {operator.name} {operator.founding ? <span className="badge badge--info">{t('operators.roster.founder')}</span> : null}
                </th>
                <td data-testid="@operators/row-role">{roleName(operator.role)}</td>
                <td>
                  <span className={`badge badge--${STATUS_TONES[operator.status]}`} data-testid="@operators/row-status">
                    {t(STATUS_NAMES[operator.status])}
                  </span>
                </td>
                <td className="mono" data-testid="@operators/row-key">
                  {operator.keyFingerprint ?? '—'}
                </td>
                <td className="small">{operator.party.length === 0 ? '—' : operator.party.join(', ')}</td>
                <td className="small">{operator.founding ? t('operators.roster.founding') : operator.enrolledBy.length === 0 ? '—' : namesAnd(operator.enrolledBy)}</td>
                <td className="small" data-testid="@operators/row-locked">
                  {operator.lockedUntil !== null && operator.lockedUntil > now
                    ? tRich('operators.roster.lockedOutUntil', {
                        badge: (chunks) => <span className="badge badge--bad">{chunks}</span>,
                        until: <DateTime at={operator.lockedUntil} />,
                      })
                    : '—'}
                  {operator.failedAttempts > 0 ? <div className="muted">{t('operators.roster.wrongPassphrases', { count: operator.failedAttempts })}</div> : null}
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
                        aria-label={t('operators.roster.changeRoleOf', { name: operator.name })}
                        data-testid="@operators/role-button"
                      >
                        {t('operators.roster.changeRole')}
                      </button>
                      <button
                        type="button"
                        className="button button--small"
                        onClick={() => void rekey(operator)}
                        aria-label={t('operators.roster.rekeyOf', { name: operator.name })}
                        data-testid="@operators/rekey-button"
                      >
                        {t('operators.roster.rekey')}
                      </button>
                      <button
                        type="button"
                        className="button button--small button--danger"
                        onClick={() => void disable(operator)}
                        aria-label={t('operators.disable.title', { name: operator.name })}
                        data-testid="@operators/disable-button"
                      >
                        {t('operators.roster.disable')}
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
  readonly outcome: (name: string, kind: ProposalView['kind'], texts: Outcome, after: RosterView) => string;
}

function RoleEditor({ operator, onDone, outcome }: RoleEditorProps): React.JSX.Element {
  const [role, setRole] = useState<OperatorRoleName>(operator.role);
  const [error, setError] = useState<ContractError | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await askOperator({
      title: t('operators.roleEditor.title', { name: operator.name }),
      description: t('operators.roleEditor.description', { name: operator.name, role, text: roleText(role) }),
      hint: t('operators.hint.adminConfirmsSecond'),
      confirmLabel: t('operators.roster.changeRole'),
      run: (as) => useOperatorsStore.getState().setRole(operator.name, role, as),
    });
    if (result === null) return;
    const texts = { proposed: t('operators.roleEditor.proposed', { name: operator.name, role }), done: t('operators.roleEditor.done', { name: operator.name, role }) };
    if (result.ok) onDone(outcome(operator.name, 'role', texts, result.value));
    else setError(result.error);
  }
  return (
    <form className="editor inline-form" onSubmit={(event) => void submit(event)} aria-label={t('operators.roleEditor.label', { name: operator.name })} data-testid="@operators/role-editor">
      <Field label={t('operators.roleEditor.newRole', { name: operator.name })} hint={roleText(role)} error={fieldError(error?.fields, 'role')}>
        {(control) => <Select control={control} value={role} options={ROLES} label={roleName} onChange={setRole} testId="@operators/role-select" />}
      </Field>
      <div className="inline-form__submit actions">
        <button type="submit" className="button button--primary" disabled={role === operator.role} data-testid="@operators/role-save">
          {t('operators.roster.changeRole')}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          {t('operators.cancel')}
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
      title: t('operators.proposals.confirmTitle', { summary: proposal.summary }),
      ...(invitation
        ? {
            fingerprint: {
              label: t('operators.proposals.confirm.keyLabel', { subject: proposal.subject }),
              value: proposal.acceptedKey,
              compare: t('operators.proposals.confirm.keyCompare', { subject: proposal.subject }),
              none: t('operators.proposals.confirm.keyNone', { subject: proposal.subject }),
            },
          }
        : {}),
      description: t('operators.proposals.confirm.description', { proposer: proposal.proposer, at: dateTimeText(proposal.at) }),
      hint: t('operators.proposals.confirm.hint', { proposer: proposal.proposer }),
      confirmLabel: t('operators.proposals.confirm'),
      run: (as) => useOperatorsStore.getState().confirm(proposal.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? t('operators.proposals.confirmed', { summary: proposal.summary }) : null);
  }

  async function withdraw(proposal: ProposalView): Promise<void> {
    const result = await askOperator({
      title: t('operators.proposals.withdrawTitle', { summary: proposal.summary }),
      description: t(proposal.kind === 'enrol' || proposal.kind === 'rekey' ? 'operators.proposals.withdraw.descriptionWithCode' : 'operators.proposals.withdraw.description', {
        proposer: proposal.proposer,
        at: dateTimeText(proposal.at),
      }),
      hint: t('operators.hint.adminConfirms'),
      confirmLabel: t('operators.proposals.withdraw'),
      danger: true,
      run: (as) => useOperatorsStore.getState().withdrawProposal(proposal.id, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    setStatus(result.ok ? t('operators.proposals.withdrawn', { summary: proposal.summary }) : null);
  }

  return (
    <section className="card" aria-labelledby="proposals-title">
      <h2 id="proposals-title">{t('operators.proposals.title')}</h2>
      <p className="muted small">{t('operators.proposals.intro')}</p>
      {open.length === 0 ? (
        <p className="muted" data-testid="@operators/proposals-empty">
          {t('operators.proposals.empty')}
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
                    <span className="badge badge--info">{t(KIND_NAMES[proposal.kind])}</span> <strong>{proposal.summary}</strong>
                  </p>
                  <p className="small muted">{tRich('operators.proposals.proposedBy', { proposer: proposal.proposer, at: <DateTime at={proposal.at} /> })}</p>
                  {invitation ? (
                    <p className="small" data-testid="@operators/proposal-key">
                      {waitingForOperator
                        ? t('operators.proposals.waitingForAccept', { subject: proposal.subject })
                        : tRich('operators.proposals.acceptedWithKey', { subject: proposal.subject, key: <strong className="mono">{proposal.acceptedKey}</strong> })}
                    </p>
                  ) : null}
                  <p className="small">
                    {proposal.needsConfirmation
                      ? waitingForOperator
                        ? t('operators.proposals.thenConfirm', { proposer: proposal.proposer })
                        : t('operators.proposals.waitingForConfirm', { proposer: proposal.proposer })
                      : t('operators.proposals.noSecondAdmin')}
                  </p>
                </div>
                <div className="queue__actions">
                  {proposal.needsConfirmation ? (
                    <button
                      type="button"
                      className="button button--primary button--small"
                      disabled={waitingForOperator}
                      onClick={() => void confirm(proposal)}
                      aria-label={t('operators.proposals.confirmTitle', { summary: proposal.summary })}
                      data-testid="@operators/confirm-button"
                    >
                      {t('operators.proposals.confirm')}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => void withdraw(proposal)}
                    aria-label={t('operators.proposals.withdrawTitle', { summary: proposal.summary })}
                    data-testid="@operators/withdraw-button"
                  >
                    {t('operators.proposals.withdraw')}
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
      title: t('operators.invite.title'),
      description: t('operators.invite.description', { invited, role }),
      hint: t('operators.hint.adminConfirms'),
      confirmLabel: t('operators.invite.confirm'),
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
      <p className="muted small">{t('operators.invite.intro')}</p>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={t('operators.invite.title')}>
        <Field label={t('operators.roster.name')} error={fieldError(error?.fields, 'name')}>
          {(control) => <input {...control} className="input" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@operators/invite-name" />}
        </Field>
        <Field label={t('operators.roster.role')} hint={roleText(role)} error={fieldError(error?.fields, 'role')}>
          {(control) => <Select control={control} value={role} options={ROLES} label={roleName} onChange={setRole} testId="@operators/invite-role" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" data-testid="@operators/invite-button">
            {t('operators.invite.confirm')}
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
        {t(shown.kind === 'invite' ? 'operators.code.invitationTitle' : 'operators.code.rekeyTitle', { operator: invitation.operator })}
      </p>
      <p className="address address-block">
        <strong data-testid="@operators/invitation-code">{invitation.code}</strong>
      </p>
      <p data-testid="@operators/invitation-message">{invitation.message}</p>
      <p className="notice__detail">
        {t('operators.code.howToUse', { operator: invitation.operator })}
        {invitation.needsConfirmation ? ` ${t('operators.code.thenConfirm')}` : ''}
      </p>
      <button type="button" className="button" onClick={onDone} data-testid="@operators/invitation-done">
        {t('operators.code.done')}
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
      <h2 id="accept-title">{t('operators.accept.title')}</h2>
      <p className="muted small">{t('operators.accept.intro')}</p>
      <form className="stack" onSubmit={(event) => void submit(event)} aria-label={t('operators.accept.formLabel')}>
        <Field label={t('operators.accept.name')} error={fieldError(error?.fields, 'name')}>
          {(control) => <input {...control} className="input" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} required data-testid="@operators/accept-name" />}
        </Field>
        <Field label={t('operators.accept.code')} error={fieldError(error?.fields, 'code')}>
          {(control) => (
            <input {...control} className="input input--mono" autoComplete="off" spellCheck={false} value={code} onChange={(event) => setCode(event.target.value)} required data-testid="@operators/accept-code" />
          )}
        </Field>
        <NewPassphraseFields
          label={t('operators.accept.passphrase')}
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
            {busy ? t('operators.accept.busy') : t('operators.accept.submit')}
          </button>
        </div>
      </form>
      {accepted === null ? null : (
        <div role="status" data-testid="@operators/accepted">
          <p className="verdict verdict--ok">
            {t('operators.accept.made', { name: accepted.operator.name })}
            <span data-testid="@operators/accepted-state">{inForce ? t('operators.accept.inForce') : t('operators.accept.toConfirm')}</span>
          </p>
          <Fingerprint
            label={t('operators.accept.keyLabel')}
            value={accepted.key}
            none={t('operators.accept.keyNone')}
            compare={t('operators.accept.keyCompare')}
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
    setDone(result.ok ? t('operators.ownPassphrase.done', { name: result.value.name }) : null);
    if (result.ok) {
      setNext('');
      setConfirm('');
    }
  }
  const fields = error?.fields;
  return (
    <section className="card" aria-labelledby="own-passphrase-title" data-testid="@operators/change-passphrase">
      <h2 id="own-passphrase-title">{t('operators.ownPassphrase.title')}</h2>
      <p className="muted small">{t('operators.ownPassphrase.intro')}</p>
      <form className="stack" onSubmit={(event) => void submit(event)} aria-label={t('operators.ownPassphrase.title')}>
        <Field label={t('operators.accept.name')} error={fieldError(fields, 'operator')}>
          {(control) => <input {...control} className="input" autoComplete="username" value={operator} onChange={(event) => setOperator(event.target.value)} required data-testid="@operators/own-name" />}
        </Field>
        <Field label={t('operators.ownPassphrase.current')} error={error?.code === 'wrongPassphrase' ? fieldError(fields, 'passphrase') : null}>
          {(control) => (
            <input {...control} className="input" type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} required data-testid="@operators/own-passphrase" />
          )}
        </Field>
        <NewPassphraseFields
          label={t('operators.ownPassphrase.new')}
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
            {busy ? t('operators.ownPassphrase.busy') : t('operators.ownPassphrase.title')}
          </button>
        </div>
      </form>
      <p role="status" className="small" data-testid="@operators/own-status">
        {done}
      </p>
    </section>
  );
}
