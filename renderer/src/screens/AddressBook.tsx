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
        <div className="notice notice--warn" role="note" aria-label="Four-eyes" data-testid="@book/notice">
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
      title: 'Add to the address book',
      description: `${typed} on ${CHAIN_INFO[chain].displayName}${label.trim() === '' ? '' : ` (“${label.trim()}”)`} will be proposed for the book. It is in the book once an operator independent of you approves it.`,
      hint: 'An initiator or admin proposes; an approver or admin of another party approves.',
      confirmLabel: 'Propose addition',
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
      <h2 id="book-add-title">Add an address</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label="Chain" error={fieldError(error?.fields, 'chain')}>
          {(control) => <Select control={control} value={chain} options={CHAINS} label={(value) => CHAIN_INFO[value].displayName} onChange={setChain} testId="@book/chain-select" />}
        </Field>
        <Field label="Address" error={fieldError(error?.fields, 'address')} className="grow">
          {(control) => (
            <input {...control} className="input input--mono" value={address} maxLength={200} spellCheck={false} autoComplete="off" onChange={(event) => setAddress(event.target.value)} data-testid="@book/address" />
          )}
        </Field>
        <Field label="Label (optional)" error={fieldError(error?.fields, 'label')}>
          {(control) => <input {...control} className="input" value={label} maxLength={200} onChange={(event) => setLabel(event.target.value)} data-testid="@book/label" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" disabled={typed === ''} data-testid="@book/add-button">
            Add…
          </button>
        </div>
      </form>
      {same === undefined ? null : (
        <p className="notice notice--info" data-testid="@book/already-known">
          The desk already knows this address{same.label === null ? '' : ` as “${same.label}”`}{same.address === typed ? '' : ` (written ${same.address})`}.
        </p>
      )}
      <LookAlikeWarnings typed={typed} warnings={lookAlikes} testId="@book/lookalike" />
      <ErrorNotice error={error} testId="@book/add-error" />
    </section>
  );
}

async function approve(pending: AddressBookPendingView): Promise<ContractError | null> {
  const result = await askOperator({
    title: 'Approve the address-book addition',
    description: `${pending.address} on ${chainName(pending.chain)}, proposed by ${pending.proposer}. Once approved, withdrawals to it meet “only from book”.`,
    hint: `An approver or admin independent of ${pending.proposer} signs with their own passphrase.`,
    confirmLabel: 'Approve addition',
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
      <h2 id="book-pending-title">Waiting for approval</h2>
      <ErrorNotice error={error} testId="@book/approve-error" />
      {pending.length === 0 ? (
        <p className="muted" data-testid="@book/pending-empty">
          No addition waits for approval.
        </p>
      ) : (
        <ul className="queue" data-testid="@book/pending">
          {pending.map((entry) => (
            <li key={entry.proposal} className="queue__item" data-testid="@book/pending-item" data-address={entry.address}>
              <div className="queue__main">
                <p className="mono small break">{entry.address}</p>
                <p className="small muted">
                  {chainName(entry.chain)} · proposed by <strong>{entry.proposer}</strong> <DateTime at={entry.at} />
                </p>
              </div>
              <div className="queue__actions">
                <button type="button" className="button button--primary button--small" onClick={() => void approve(entry).then(setError)} aria-label={`Approve ${entry.address}`} data-testid="@book/approve-button">
                  Approve
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
      <span className="badge badge--warn">waiting for its delay</span>
      <span className="small muted" data-testid="@book/takes-effect">
        {' '}
        takes effect at <DateTime at={scheduled.takesEffectAt} /> ({timeFromNow(scheduled.takesEffectAt, now)}); added by {scheduled.addedBy}
        {scheduled.approvedBy === null ? '' : `, approved by ${scheduled.approvedBy}`}
      </span>
      {canVeto ? (
        <>
          {' '}
          <button
            type="button"
            className="button button--small button--danger"
            onClick={() => void vetoScheduledChange(change, `at ${dateTimeText(scheduled.takesEffectAt)}`).then(onError)}
            aria-label={`Veto adding ${entry.address}`}
            data-testid="@book/veto-button"
          >
            Veto…
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
    const who = [entry.addedBy, entry.approvedBy].filter((name) => name !== null).join(', approved by ');
    return (
      <span data-testid="@book/status" data-status="approved">
        <span className="badge badge--good">in the book</span>
        <span className="small muted">
          {' '}
          {who === '' ? '' : `added by ${who} `}
          {entry.approvedAt === null ? null : <DateTime at={entry.approvedAt} />}
        </span>
      </span>
    );
  }
  if (pending !== undefined) {
    return (
      <span data-testid="@book/status" data-status="pending">
        <span className="badge badge--warn">waiting for approval</span>
        <span className="small muted">
          {' '}
          proposed by {pending.proposer} <DateTime at={pending.at} />
        </span>
      </span>
    );
  }
  return (
    <span className="badge badge--neutral" data-testid="@book/status" data-status="seen">
      seen, not in the book
    </span>
  );
}

async function remove(entry: AddressBookEntryView): Promise<ContractError | null> {
  if (!isChain(entry.chain)) return null;
  const chain = entry.chain;
  const result = await askOperator({
    title: 'Remove from the address book',
    description: `${entry.address} on ${chainName(chain)}${entry.label === null ? '' : ` (“${entry.label}”)`} leaves the book at once; with “only from book”, withdrawals to it are refused again.`,
    confirmLabel: 'Remove',
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
      <h2 id="book-entries-title">Destinations</h2>
      <ErrorNotice error={error} testId="@book/entries-error" />
      {book !== null && entries.length === 0 ? <p className="muted">No destinations yet: add one above, or pay one.</p> : null}
      {entries.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table table--dense" data-testid="@book/entries">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Chain</th>
                <th scope="col">Address</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Uses
                </th>
                <th scope="col">First use</th>
                <th scope="col">Last use</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
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
                    <td className="small">{entry.firstUsedAt === null ? 'never' : <DateTime at={entry.firstUsedAt} />}</td>
                    <td className="small">{entry.lastUsedAt === null ? 'never' : <DateTime at={entry.lastUsedAt} />}</td>
                    <td>
                      <button type="button" className="button button--small button--danger" onClick={() => void remove(entry).then(setError)} aria-label={`Remove ${entry.address}`} data-testid="@book/remove-button">
                        Remove
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

function labelCount(rows: number): string {
  return `${rows} label${rows === 1 ? '' : 's'}`;
}

/** Export and import every label of the profile as JSON lines (docs/labels.md), through the system's file dialogs. */
function LabelsFile(): React.JSX.Element {
  const exporting = useFileAction(() => call('desktop/exportLabels', {}));
  const [imported, setImported] = useState<{ readonly fileName: string; readonly rows: number } | null>(null);
  const [importError, setImportError] = useState<ContractError | null>(null);

  async function importLabels(): Promise<void> {
    const result = await askOperator({
      title: 'Import labels',
      description: 'Choose a labels file (JSON lines, as the export writes). Every line is checked first: all are applied, or none.',
      confirmLabel: 'Choose file…',
      run: (as) => call('desktop/importLabels', { as }),
    });
    if (result === null) return;
    setImportError(result.ok ? null : result.error);
    setImported(result.ok && !result.value.cancelled ? { fileName: result.value.fileName, rows: result.value.value.rows } : null);
    if (result.ok && !result.value.cancelled) await useLabelsStore.getState().load();
  }

  return (
    <section className="card" aria-labelledby="book-labels-title">
      <h2 id="book-labels-title">Labels file</h2>
      <p className="muted small">Every label and note of this profile (deposits, withdrawals, deposit addresses, the book) as JSON lines in the style of BIP-329.</p>
      <div className="actions">
        <button type="button" className="button" disabled={exporting.busy} onClick={() => void exporting.run()} data-testid="@book/export-labels">
          {exporting.busy ? 'Exporting…' : 'Export labels…'}
        </button>
        <button type="button" className="button" onClick={() => void importLabels()} data-testid="@book/import-labels">
          Import labels…
        </button>
      </div>
      <div role="status" data-testid="@book/labels-status">
        {exporting.done === null ? null : (
          <p>
            Exported {labelCount(exporting.done.value.rows)} to <code>{exporting.done.fileName}</code>.
          </p>
        )}
        {imported === null ? null : (
          <p>
            Imported {labelCount(imported.rows)} from <code>{imported.fileName}</code>.
          </p>
        )}
      </div>
      <ErrorNotice error={exporting.error ?? importError} testId="@book/labels-error" />
    </section>
  );
}
