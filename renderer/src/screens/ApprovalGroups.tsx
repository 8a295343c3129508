// Approval groups on the Operators screen (issue 20): the groups of the signed roster in force with their members, an
// admin's proposal of a group's whole member list (their passphrase through askOperator; none ticked dissolves it), and
// the group changes waiting for a second admin (confirmed under "Waiting for someone"). Nothing changes until the engine says so.
import { useState, type FormEvent } from 'react';
import type { RosterView } from '../../../electron/contract';
import type { ContractError } from '../api';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { t, tRich } from '../i18n';
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
      setNameProblem(t('operators.groups.nameProblem'));
      return;
    }
    setNameProblem(null);
    const result = await askOperator({
      title: members.length === 0 ? t('operators.groups.dissolveTitle', { name }) : t('operators.groups.setTitle', { name }),
      description: members.length === 0 ? t('operators.groups.dissolveDescription', { name }) : t('operators.groups.setDescription', { name, members: members.join(', ') }),
      hint: t('operators.groups.hint'),
      confirmLabel: t('operators.propose'),
      run: (as) => useOperatorsStore.getState().setGroup(name, members, as),
    });
    if (result === null) return;
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setOutcome(
      result.value.applied ? t('operators.groups.inForce', { name }) : t('operators.groups.proposed', { name }),
    );
    setGroup('');
    setMembers([]);
  }

  return (
    <section className="card" aria-labelledby="groups-title" data-testid="@operators/groups">
      <h2 id="groups-title">{t('operators.groups.title')}</h2>
      <p className="muted small">{t('operators.groups.intro')}</p>
      {view === null || view.groups.length === 0 ? (
        <p className="muted small" data-testid="@operators/groups-empty">
          {t('operators.groups.empty')}
        </p>
      ) : (
        <table className="table table--dense">
          <caption className="visually-hidden">{t('operators.groups.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('operators.groups.group')}</th>
              <th scope="col">{t('operators.groups.members')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('operators.groups.change')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.groups.map((entry) => (
              <tr key={entry.name} data-testid="@operators/group" data-name={entry.name}>
                <th scope="row" className="mono">
                  {entry.name}
                </th>
                <td data-testid="@operators/group-members">{entry.members.length === 0 ? t('operators.groups.nobody') : entry.members.join(', ')}</td>
                <td>
                  <button type="button" className="button button--small" onClick={() => edit(entry.name, entry.members)} aria-label={t('operators.groups.changeMembersOf', { name: entry.name })}>
                    {t('operators.groups.change')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view === null || view.pending.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@operators/groups-pending">
          <p className="notice__title">{t('operators.groups.pendingTitle')}</p>
          <ul>
            {view.pending.map((proposal) => (
              <li key={proposal.id} data-id={proposal.id}>
                {tRich('operators.groups.pendingItem', { summary: proposal.summary, proposer: proposal.proposer, at: <DateTime at={proposal.at} /> })}
              </li>
            ))}
          </ul>
        </div>
      )}
      <form className="editor stack" onSubmit={(event) => void submit(event)} aria-labelledby="group-form-title" data-testid="@operators/group-form">
        <h3 id="group-form-title">{t('operators.groups.formTitle')}</h3>
        <Field label={t('operators.groups.name')} hint={t('operators.groups.nameHint')} error={nameProblem ?? fieldError(error?.fields, 'group')} testId="@operators/group-name">
          {(control) => <input {...control} className="input input--mono" value={group} spellCheck={false} onChange={(event) => setGroup(event.target.value)} data-testid="@operators/group-name" />}
        </Field>
        <fieldset className="fieldset">
          <legend>{t('operators.groups.membersLegend')}</legend>
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
            {t('operators.propose')}
          </button>
        </div>
      </form>
      <div role="status" data-testid="@operators/group-status">
        {outcome === null ? null : <p className="verdict verdict--ok">{outcome}</p>}
      </div>
    </section>
  );
}
