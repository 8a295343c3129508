// Approval groups on the Operators screen (issue 20): the groups of the signed roster in force with their members, an
// admin's proposal of a group's whole member list (their passphrase through askOperator; none ticked dissolves it), and
// the group changes waiting for a second admin (confirmed under "Waiting for someone"). Nothing changes until the engine says so.
import { useState, type FormEvent } from 'react';
import type { RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { askOperator } from '../stores/operator-prompt';
import { useOperatorsStore } from '../stores/operators';

/** What the engine accepts as a group's name (contract/methods.ts operators/setGroup). */
const GROUP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

export function ApprovalGroups({ roster }: { readonly roster: RosterView }): React.JSX.Element {
  const view = useOperatorsStore((state) => state.groups);
  const [group, setGroup] = useState('');
  const [members, setMembers] = useState<readonly string[]>([]);
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const candidates = roster.operators.filter((operator) => operator.status !== 'disabled').map((operator) => operator.name);

  function edit(name: string, current: readonly string[]): void {
    setGroup(name);
    setMembers(current);
    setNameProblem(null);
    setError(null);
    setOutcome(null);
  }
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const name = group.trim();
    if (!GROUP_NAME.test(name)) {
      setNameProblem('Type a group name of lower-case letters, digits and dashes (at most 40), such as treasury-leads.');
      return;
    }
    setNameProblem(null);
    const result = await askOperator({
      title: members.length === 0 ? `Dissolve the approval group ${name}` : `Set the members of the approval group ${name}`,
      description: members.length === 0 ? `The group ${name} is dissolved: a policy tier naming it can no longer be met.` : `The group ${name} becomes exactly: ${members.join(', ')}.`,
      hint: 'An admin signs group changes. With two independent admins, a second admin confirms the change before it takes effect.',
      confirmLabel: 'Propose',
      run: (as) => useOperatorsStore.getState().setGroup(name, members, as),
    });
    if (result === null) return;
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setOutcome(
      result.value.applied
        ? `The group ${name} is in force.`
        : `Proposed: the group ${name} waits for confirmation by another admin, independent of you (under "Waiting for someone").`,
    );
    setGroup('');
    setMembers([]);
  }

  return (
    <section className="card" aria-labelledby="groups-title" data-testid="@operators/groups">
      <h2 id="groups-title">Approval groups</h2>
      <p className="muted small">A policy tier can require approvals from groups (Settings, policy editor). Groups are part of the signed roster; a change waits for a second admin.</p>
      {view === null || view.groups.length === 0 ? (
        <p className="muted small" data-testid="@operators/groups-empty">
          No approval groups yet.
        </p>
      ) : (
        <table className="table table--dense">
          <caption className="visually-hidden">Approval groups in force</caption>
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Members</th>
              <th scope="col">
                <span className="visually-hidden">Change</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.groups.map((entry) => (
              <tr key={entry.name} data-testid="@operators/group" data-name={entry.name}>
                <th scope="row" className="mono">
                  {entry.name}
                </th>
                <td data-testid="@operators/group-members">{entry.members.length === 0 ? 'nobody' : entry.members.join(', ')}</td>
                <td>
                  <button type="button" className="button button--small" onClick={() => edit(entry.name, entry.members)} aria-label={`Change the members of ${entry.name}`}>
                    Change
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view === null || view.pending.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@operators/groups-pending">
          <p className="notice__title">Group changes waiting for a second admin</p>
          <ul>
            {view.pending.map((proposal) => (
              <li key={proposal.id} data-id={proposal.id}>
                {proposal.summary}, proposed by {proposal.proposer} <DateTime at={proposal.at} />: confirm it under &quot;Waiting for someone&quot;.
              </li>
            ))}
          </ul>
        </div>
      )}
      <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="group-form-title" data-testid="@operators/group-form">
        <h3 id="group-form-title">Propose a group&apos;s members</h3>
        <Field label="Group name" hint="Lower-case letters, digits and dashes. An existing group's members are replaced." error={nameProblem ?? fieldError(error?.fields, 'group')} testId="@operators/group-name">
          {(control) => <input {...control} className="input input--mono" value={group} spellCheck={false} onChange={(event) => setGroup(event.target.value)} data-testid="@operators/group-name" />}
        </Field>
        <fieldset className="fieldset">
          <legend>Members (none ticked dissolves the group)</legend>
          {candidates.map((name) => (
            <label key={name} className="checkbox">
              <input
                type="checkbox"
                checked={members.includes(name)}
                onChange={(event) => setMembers(event.target.checked ? [...members, name] : members.filter((member) => member !== name))}
              />
              {name}
            </label>
          ))}
          {fieldError(error?.fields, 'members') === null ? null : <p className="field__error">{fieldError(error?.fields, 'members')}</p>}
        </fieldset>
        <ErrorNotice error={error} />
        <div className="actions">
          <button type="submit" className="button button--primary" data-testid="@operators/group-propose">
            Propose
          </button>
        </div>
      </form>
      <div role="status" data-testid="@operators/group-status">
        {outcome === null ? null : <p className="verdict verdict--ok">{outcome}</p>}
      </div>
    </section>
  );
}
