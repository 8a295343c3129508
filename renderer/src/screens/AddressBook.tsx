// Address book: the withdrawal destinations the desk has seen or added (addressbook/list) with label, note, uses and
// whether signed statements put each in the book; adding one (an operator's proposal, warned of look-alikes of the
// book as it is typed), approving a pending addition (an independent operator), relabelling and removing entries,
// and the labels file (export and import as JSON lines). Whether an address is in the book, or an addition waits for
// the loosening delay (with an admin's veto, Governance.tsx), is the engine's answer from the signed roster. The
// payees, counterparties with addresses on any chains, are a section of this screen (Payees.tsx).
import { useEffect, useState, type FormEvent } from 'react';
import { CHAIN_INFO, CHAINS, isChain, lookAlikesAmong, sameAddress, sameAddressFormat, type Chain } from '../../../electron/chains';
import type { AddressBookEntryView, AddressBookPendingView, AddressBookView } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { DateTime, useDateTimeText } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { LabelCell } from '../components/LabelCell';
import { LookAlikeWarnings } from '../components/LookAlikeWarnings';
import { Select } from '../components/Select';
import { useFileAction } from '../file-action';
import { timeFromNow } from '../format';
import { useNow } from '../hooks';
import { t, tRich } from '../i18n';
import { useLabelsStore } from '../stores/labels';
import { askOperator } from '../stores/operator-prompt';
import { useAdminActions, vetoScheduledChange } from './Governance';
import { Payees } from './Payees';

export function AddressBook(): React.JSX.Element {
  const book = useLabelsStore((state) => state.book);
  const error = useLabelsStore((state) => state.error);
  useEffect(() => {
    void useLabelsStore.getState().load();
  }, []);
  return (
    <div className="stack">
      <ErrorNotice error={error} testId="@book/error" />
      {book?.notice ? (
        <div className="notice notice--warn" role="note" aria-label={t('payees.book.fourEyes')} data-testid="@book/notice">
          <p>{book.notice}</p>
        </div>
      ) : null}
      <AddEntry book={book} />
      <PendingAdditions pending={book?.pending ?? []} />
      <Payees />
      <Entries book={book} />
      <LabelsFile />
    </div>
  );
}

/**
 * The addresses a typed one is compared with, once each: the book's entries and its pending additions on every chain
 * whose addresses share the chain's format (an eth entry for a bnb address).
 */
function knownOn(book: AddressBookView | null, chain: Chain): { address: string; label: string | null; chain: string }[] {
  if (book === null) return [];
  const entries = book.entries.filter((entry) => sameAddressFormat(entry.chain, chain)).map((entry) => ({ address: entry.address, label: entry.label, chain: entry.chain }));
  const pendingOnly = book.pending
    .filter((pending) => sameAddressFormat(pending.chain, chain) && !entries.some((entry) => entry.chain === pending.chain && sameAddress(entry.address, pending.address, chain)))
    .map((pending) => ({ address: pending.address, label: null, chain: pending.chain }));
  return [...entries, ...pendingOnly];
}

function AddEntry({ book }: { readonly book: AddressBookView | null }): React.JSX.Element {
  const [chain, setChain] = useState<Chain>('trx');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  const typed = address.trim();
  const known = knownOn(book, chain);
  const lookAlikes = typed === '' ? [] : lookAlikesAmong(known, typed, chain);
  const same = typed === '' ? undefined : known.find((entry) => entry.chain === chain && sameAddress(entry.address, typed, chain));

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await askOperator({
      title: t('payees.book.add.title'),
      description: t('payees.book.add.description', { address: typed, chain: CHAIN_INFO[chain].displayName, labelled: label.trim() === '' ? 'no' : 'yes', label: label.trim() }),
      hint: t('payees.common.proposeHint'),
      confirmLabel: t('payees.book.add.confirm'),
      run: (as) => useLabelsStore.getState().addToBook(chain, typed, label, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setAddress('');
      setLabel('');
    }
  }

  return (
    <section className="card" aria-labelledby="book-add-title">
      <h2 id="book-add-title">{t('payees.book.add.heading')}</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label={t('payees.common.chain')} error={fieldError(error?.fields, 'chain')}>
          {(control) => <Select control={control} value={chain} options={CHAINS} label={(value) => CHAIN_INFO[value].displayName} onChange={setChain} testId="@book/chain-select" />}
        </Field>
        <Field label={t('payees.common.address')} error={fieldError(error?.fields, 'address')} className="grow">
          {(control) => (
            <input {...control} className="input input--mono" value={address} maxLength={200} spellCheck={false} autoComplete="off" onChange={(event) => setAddress(event.target.value)} data-testid="@book/address" />
          )}
        </Field>
        <Field label={t('payees.book.add.label')} error={fieldError(error?.fields, 'label')}>
          {(control) => <input {...control} className="input" value={label} maxLength={200} onChange={(event) => setLabel(event.target.value)} data-testid="@book/label" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" disabled={typed === ''} data-testid="@book/add-button">
            {t('payees.book.add.button')}
          </button>
        </div>
      </form>
      {same === undefined ? null : (
        <p className="notice notice--info" data-testid="@book/already-known">
          {t('payees.book.add.alreadyKnown', { labelled: same.label === null ? 'no' : 'yes', label: same.label ?? '', written: same.address === typed ? 'no' : 'yes', address: same.address })}
        </p>
      )}
      <LookAlikeWarnings typed={typed} warnings={lookAlikes} testId="@book/lookalike" />
      <ErrorNotice error={error} testId="@book/add-error" />
    </section>
  );
}

async function approve(pending: AddressBookPendingView): Promise<ContractError | null> {
  const result = await askOperator({
    title: t('payees.book.approve.title'),
    description: t('payees.book.approve.description', { address: pending.address, chain: chainName(pending.chain), proposer: pending.proposer }),
    hint: t('payees.common.approveHint', { proposer: pending.proposer }),
    confirmLabel: t('payees.book.approve.confirm'),
    run: (as) => useLabelsStore.getState().approve(pending.proposal, as),
  });
  return result === null || result.ok ? null : result.error;
}

function chainName(chain: string): string {
  return isChain(chain) ? CHAIN_INFO[chain].displayName : chain;
}

function PendingAdditions({ pending }: { readonly pending: readonly AddressBookPendingView[] }): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);
  return (
    <section className="card" aria-labelledby="book-pending-title">
      <h2 id="book-pending-title">{t('payees.common.waitingForApproval')}</h2>
      <ErrorNotice error={error} testId="@book/approve-error" />
      {pending.length === 0 ? (
        <p className="muted" data-testid="@book/pending-empty">
          {t('payees.book.pending.empty')}
        </p>
      ) : (
        <ul className="queue" data-testid="@book/pending">
          {pending.map((entry) => (
            <li key={entry.proposal} className="queue__item" data-testid="@book/pending-item" data-address={entry.address}>
              <div className="queue__main">
                <p className="mono small break">{entry.address}</p>
                <p className="small muted">
                  {chainName(entry.chain)} · {tRich('payees.common.proposedBy', { proposer: <strong>{entry.proposer}</strong>, at: <DateTime at={entry.at} /> })}
                </p>
              </div>
              <div className="queue__actions">
                <button type="button" className="button button--primary button--small" onClick={() => void approve(entry).then(setError)} aria-label={t('payees.common.approveWhat', { what: entry.address })} data-testid="@book/approve-button">
                  {t('payees.common.approve')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** An addition confirmed and waiting for the loosening delay: when it takes effect, who made it, and an admin's veto. */
function WaitingForDelay({ entry, scheduled, onError }: { readonly entry: AddressBookEntryView; readonly scheduled: NonNullable<AddressBookEntryView['scheduled']>; readonly onError: (error: ContractError | null) => void }): React.JSX.Element {
  const now = useNow(30_000);
  const dateTimeText = useDateTimeText();
  const canVeto = useAdminActions();
  const change = { id: scheduled.change, kind: 'book', subject: `${entry.chain}:${entry.address}`, effectiveAt: scheduled.takesEffectAt } as const;
  return (
    <span data-testid="@book/status" data-status="scheduled">
      <span className="badge badge--warn">{t('payees.common.waitingForDelay')}</span>
      <span className="small muted" data-testid="@book/takes-effect">
        {' '}
        {scheduled.approvedBy === null
          ? tRich('payees.book.delay.takesEffect', { at: <DateTime at={scheduled.takesEffectAt} />, relative: timeFromNow(scheduled.takesEffectAt, now), addedBy: scheduled.addedBy })
          : tRich('payees.book.delay.takesEffectApproved', { at: <DateTime at={scheduled.takesEffectAt} />, relative: timeFromNow(scheduled.takesEffectAt, now), addedBy: scheduled.addedBy, approvedBy: scheduled.approvedBy })}
      </span>
      {canVeto ? (
        <>
          {' '}
          <button
            type="button"
            className="button button--small button--danger"
            onClick={() => void vetoScheduledChange(change, t('payees.book.delay.vetoWhen', { time: dateTimeText(scheduled.takesEffectAt) })).then(onError)}
            aria-label={t('payees.book.delay.vetoLabel', { address: entry.address })}
            data-testid="@book/veto-button"
          >
            {t('payees.book.delay.veto')}
          </button>
        </>
      ) : null}
    </span>
  );
}

/** In the book (by signed statements), waiting for its delay, waiting for approval, or only seen by the desk. */
function EntryStatus({ entry, pending, onError }: { readonly entry: AddressBookEntryView; readonly pending: AddressBookPendingView | undefined; readonly onError: (error: ContractError | null) => void }): React.JSX.Element {
  if (entry.scheduled !== null) return <WaitingForDelay entry={entry} scheduled={entry.scheduled} onError={onError} />;
  if (entry.approved) {
    const [addedBy, approvedBy] = [entry.addedBy, entry.approvedBy].filter((name) => name !== null);
    const who = addedBy === undefined ? '' : approvedBy === undefined ? t('payees.book.status.addedBy', { addedBy }) : t('payees.book.status.addedApprovedBy', { addedBy, approvedBy });
    return (
      <span data-testid="@book/status" data-status="approved">
        <span className="badge badge--good">{t('payees.common.inTheBook')}</span>
        <span className="small muted">
          {' '}
          {who === '' ? '' : `${who} `}
          {entry.approvedAt === null ? null : <DateTime at={entry.approvedAt} />}
        </span>
      </span>
    );
  }
  if (pending !== undefined) {
    return (
      <span data-testid="@book/status" data-status="pending">
        <span className="badge badge--warn">{t('payees.book.status.waitingForApproval')}</span>
        <span className="small muted">
          {' '}
          {tRich('payees.common.proposedBy', { proposer: pending.proposer, at: <DateTime at={pending.at} /> })}
        </span>
      </span>
    );
  }
  return (
    <span className="badge badge--neutral" data-testid="@book/status" data-status="seen">
      {t('payees.book.status.seen')}
    </span>
  );
}

async function remove(entry: AddressBookEntryView): Promise<ContractError | null> {
  if (!isChain(entry.chain)) return null;
  const chain = entry.chain;
  const result = await askOperator({
    title: t('payees.book.remove.title'),
    description: t('payees.book.remove.description', { address: entry.address, chain: chainName(chain), labelled: entry.label === null ? 'no' : 'yes', label: entry.label ?? '' }),
    confirmLabel: t('payees.common.remove'),
    danger: true,
    run: (as) => useLabelsStore.getState().remove(chain, entry.address, as),
  });
  return result === null || result.ok ? null : result.error;
}

function Entries({ book }: { readonly book: AddressBookView | null }): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);
  const entries = book?.entries ?? [];
  return (
    <section className="card" aria-labelledby="book-entries-title">
      <h2 id="book-entries-title">{t('payees.book.entries.title')}</h2>
      <ErrorNotice error={error} testId="@book/entries-error" />
      {book !== null && entries.length === 0 ? <p className="muted">{t('payees.book.entries.empty')}</p> : null}
      {entries.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@book/entries">
            <thead>
              <tr>
                <th scope="col">{t('payees.common.label')}</th>
                <th scope="col">{t('payees.common.chain')}</th>
                <th scope="col">{t('payees.common.address')}</th>
                <th scope="col">{t('payees.book.entries.status')}</th>
                <th scope="col" className="num">
                  {t('payees.book.entries.uses')}
                </th>
                <th scope="col">{t('payees.book.entries.firstUse')}</th>
                <th scope="col">{t('payees.book.entries.lastUse')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('payees.common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => {
                const chain = isChain(entry.chain) ? entry.chain : null;
                const pending = book?.pending.find((candidate) => candidate.chain === entry.chain && sameAddress(candidate.address, entry.address, chain ?? undefined));
                return (
                  <tr key={`${entry.chain}:${entry.address}`} data-testid="@book/entry" data-address={entry.address}>
                    <td>
                      {chain === null ? (
                        entry.label
                      ) : (
                        <LabelCell
                          label={entry.label}
                          what={`${entry.address}`}
                          save={(text, as) => useLabelsStore.getState().labelBookEntry(chain, entry.address, text, entry.note, as)}
                          testId="@book/entry-label"
                        />
                      )}
                      {entry.note === null ? null : <p className="small muted">{entry.note}</p>}
                    </td>
                    <td>{chainName(entry.chain)}</td>
                    <td className="mono small break">{entry.address}</td>
                    <td>
                      <EntryStatus entry={entry} pending={pending} onError={setError} />
                    </td>
                    <td className="num">{entry.useCount}</td>
                    <td className="small">{entry.firstUsedAt === null ? t('payees.book.entries.never') : <DateTime at={entry.firstUsedAt} />}</td>
                    <td className="small">{entry.lastUsedAt === null ? t('payees.book.entries.never') : <DateTime at={entry.lastUsedAt} />}</td>
                    <td>
                      <button type="button" className="button button--small button--danger" onClick={() => void remove(entry).then(setError)} aria-label={t('payees.common.removeWhat', { what: entry.address })} data-testid="@book/remove-button">
                        {t('payees.common.remove')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Export and import every label of the profile as JSON lines (docs/labels.md), through the system's file dialogs. */
function LabelsFile(): React.JSX.Element {
  const exporting = useFileAction(() => call('desktop/exportLabels', {}));
  const [imported, setImported] = useState<{ readonly fileName: string; readonly rows: number } | null>(null);
  const [importError, setImportError] = useState<ContractError | null>(null);

  async function importLabels(): Promise<void> {
    const result = await askOperator({
      title: t('payees.labels.import.title'),
      description: t('payees.labels.import.description'),
      confirmLabel: t('payees.labels.import.confirm'),
      run: (as) => call('desktop/importLabels', { as }),
    });
    if (result === null) return;
    setImportError(result.ok ? null : result.error);
    setImported(result.ok && !result.value.cancelled ? { fileName: result.value.fileName, rows: result.value.value.rows } : null);
    if (result.ok && !result.value.cancelled) await useLabelsStore.getState().load();
  }

  return (
    <section className="card" aria-labelledby="book-labels-title">
      <h2 id="book-labels-title">{t('payees.labels.title')}</h2>
      <p className="muted small">{t('payees.labels.intro')}</p>
      <div className="actions">
        <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid="@book/export-labels">
          {exporting.busy ? t('payees.labels.exporting') : t('payees.labels.export')}
        </button>
        <button type="button" className="button" onClick={() => void importLabels()} data-testid="@book/import-labels">
          {t('payees.labels.import')}
        </button>
      </div>
      <div role="status" data-testid="@book/labels-status">
        {exporting.done === null ? null : (
          <p>{tRich('payees.labels.exported', { rows: exporting.done.value.rows, file: <code>{exporting.done.fileName}</code> })}</p>
        )}
        {imported === null ? null : (
          <p>{tRich('payees.labels.imported', { rows: imported.rows, file: <code>{imported.fileName}</code> })}</p>
        )}
      </div>
      <ErrorNotice error={exporting.error ?? importError} testId="@book/labels-error" />
    </section>
  );
}
