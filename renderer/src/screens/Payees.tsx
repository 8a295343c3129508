// Payees (issue 21 item 1), on the Address book screen: the counterparties of the active profile (payees/list), each
// with its name, note and addresses on any chains, each address with its own standing from the signed book (in force
// since, or waiting for the loosening delay); the batches waiting for an independent operator's approval; adding one
// payee with its addresses and importing a CSV of payees (main's open dialog: the window never names a path). A
// treasury-desk://payee/<id> link shows its payee here, marked. Names and notes come escaped from the engine (api.ts).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CHAIN_INFO, CHAINS, isChain, type Chain } from '../../../electron/chains';
import { escapeSingleLine, type ControlProofSigner, type ControlProofView, type PayeePendingView, type PayeesView, type PayeeView } from '../../../electron/contract';
import type { FileOutcome } from '../../../electron/contract/desktop';
import { call, type ContractError, type Result } from '../api';
import { Amount } from '../components/Amount';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Field, fieldError } from '../components/Field';
import { lineRefusalOf, RefusedLines, type LineRefusal } from '../components/RefusedLines';
import { Select } from '../components/Select';
import { displayText } from '../format';
import { t, tRich } from '../i18n';
import { askOperator } from '../stores/operator-prompt';
import { usePayeesStore, type PayeeAddressDraft } from '../stores/payees';

function chainName(chain: string): string {
  return isChain(chain) ? CHAIN_INFO[chain].displayName : chain;
}

/** Who signed a proof, in the window's language (contract/control-proof controlProofSignerText's words, after "by"). */
function signerText(signer: ControlProofSigner): string {
  if (signer.own) return t('payees.proof.signer.own');
  return signer.workstation === null ? t('payees.proof.signer.founding') : t('payees.proof.signer.workstation', { workstation: escapeSingleLine(signer.workstation) });
}

export function Payees(): React.JSX.Element {
  const view = usePayeesStore((state) => state.payees);
  const error = usePayeesStore((state) => state.error);
  useEffect(() => {
    void usePayeesStore.getState().load();
  }, []);
  return (
    <section className="card" aria-labelledby="payees-title" data-testid="@payees/section">
      <h2 id="payees-title">{t('payees.payees.title')}</h2>
      <p className="muted small">{t('payees.payees.intro')}</p>
      <ErrorNotice error={error} testId="@payees/error" />
      <AddPayee />
      <PendingPayees pending={view?.pending ?? []} />
      <PayeeList payees={view?.payees ?? []} />
    </section>
  );
}

type ImportOutcome = FileOutcome<PayeesView> | { readonly cancelled: false; readonly refused: LineRefusal };

const EMPTY_ADDRESS: PayeeAddressDraft = { chain: 'trx', address: '' };

function AddPayee(): React.JSX.Element {
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [addresses, setAddresses] = useState<PayeeAddressDraft[]>([EMPTY_ADDRESS]);
  const [error, setError] = useState<ContractError | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<LineRefusal | null>(null);
  const typed = addresses.filter((entry) => entry.address.trim() !== '');

  function setAddress(index: number, change: Partial<PayeeAddressDraft>): void {
    setAddresses((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const list = typed.map((entry) => t('payees.common.addressOnChain', { address: entry.address.trim(), chain: chainName(entry.chain) })).join(', ');
    const result = await askOperator({
      title: t('payees.add.title'),
      description: t('payees.add.description', { name: displayText(name.trim()), count: typed.length, list }),
      hint: t('payees.common.proposeHint'),
      confirmLabel: t('payees.add.confirm'),
      run: (as) => usePayeesStore.getState().add(name, note, typed, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) {
      setStatus(t('payees.add.proposed', { name: displayText(name.trim()) }));
      setName('');
      setNote('');
      setAddresses([EMPTY_ADDRESS]);
    }
  }

  async function importFile(): Promise<void> {
    setRefusal(null);
    const result = await askOperator({
      title: t('payees.import.title'),
      description: t('payees.import.description'),
      hint: t('payees.import.hint'),
      confirmLabel: t('payees.import.confirm'),
      run: async (as): Promise<Result<ImportOutcome>> => {
        const answer = await call('desktop/importPayees', { as });
        const refused = answer.ok ? null : lineRefusalOf(answer.error);
        return refused === null ? answer : { ok: true, value: { cancelled: false, refused } };
      },
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (!result.ok) return;
    const outcome = result.value;
    if (outcome.cancelled) {
      setStatus(t('payees.import.noFile'));
      return;
    }
    if ('refused' in outcome) {
      setRefusal(outcome.refused);
      setStatus(t('payees.import.refused'));
      return;
    }
    usePayeesStore.setState({ payees: outcome.value });
    setStatus(t('payees.import.done', { fileName: outcome.fileName }));
  }

  return (
    <div className="stack" data-testid="@payees/add">
      <h3>{t('payees.add.title')}</h3>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <div className="inline-form">
          <Field label={t('payees.add.name')} error={fieldError(error?.fields, 'name')} className="grow">
            {(control) => <input {...control} className="input" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} data-testid="@payees/name" />}
          </Field>
          <Field label={t('payees.add.note')} error={fieldError(error?.fields, 'note')} className="grow">
            {(control) => <input {...control} className="input" value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} data-testid="@payees/note" />}
          </Field>
        </div>
        {addresses.map((entry, index) => (
          <div className="inline-form" key={index} data-testid="@payees/address-row">
            <Field label={t('payees.add.chainOfAddress', { number: index + 1 })}>
              {(control) => <Select control={control} value={entry.chain} options={CHAINS} label={(value: Chain) => CHAIN_INFO[value].displayName} onChange={(chain) => setAddress(index, { chain })} testId="@payees/chain-select" />}
            </Field>
            <Field label={t('payees.add.addressNumber', { number: index + 1 })} className="grow">
              {(control) => (
                <input {...control} className="input input--mono" value={entry.address} maxLength={200} spellCheck={false} autoComplete="off" onChange={(event) => setAddress(index, { address: event.target.value })} data-testid="@payees/address" />
              )}
            </Field>
          </div>
        ))}
        <div className="inline-form">
          <button type="button" className="button" onClick={() => setAddresses((current) => [...current, EMPTY_ADDRESS])} disabled={addresses.length >= 50} data-testid="@payees/another-address">
            {t('payees.add.another')}
          </button>
          <button type="submit" className="button button--primary" disabled={name.trim() === '' || typed.length === 0} data-testid="@payees/add-button">
            {t('payees.add.button')}
          </button>
          <button type="button" className="button" onClick={() => void importFile()} data-testid="@payees/import-button">
            {t('payees.import.button')}
          </button>
        </div>
      </form>
      {status === null ? null : (
        <p className="notice notice--info" role="status" data-testid="@payees/status">
          {status}
        </p>
      )}
      {refusal === null ? null : <RefusedLines refusal={refusal} counting={t('payees.import.counting')} testId="@payees/refused" />}
      <ErrorNotice error={error} testId="@payees/add-error" />
    </div>
  );
}

function PendingPayees({ pending }: { readonly pending: readonly PayeePendingView[] }): React.JSX.Element {
  const [error, setError] = useState<ContractError | null>(null);

  async function approve(batch: PayeePendingView): Promise<void> {
    const names = batch.payees.map((payee) => payee.name).join(', ');
    const count = batch.payees.reduce((sum, payee) => sum + payee.addresses.length, 0);
    const result = await askOperator({
      title: t('payees.pending.approveTitle'),
      description: t('payees.pending.approveDescription', { names, count, proposer: batch.proposer }),
      hint: t('payees.common.approveHint', { proposer: batch.proposer }),
      confirmLabel: t('payees.pending.approveConfirm'),
      run: (as) => usePayeesStore.getState().approve(batch.proposal, as),
    });
    setError(result === null || result.ok ? null : result.error);
  }

  return (
    <div className="stack">
      <h3>{t('payees.common.waitingForApproval')}</h3>
      <ErrorNotice error={error} testId="@payees/approve-error" />
      {pending.length === 0 ? (
        <p className="muted" data-testid="@payees/pending-empty">
          {t('payees.pending.empty')}
        </p>
      ) : (
        <ul className="queue" data-testid="@payees/pending">
          {pending.map((batch) => (
            <li key={batch.proposal} className="queue__item" data-testid="@payees/pending-item">
              <div className="queue__main">
                {batch.payees.map((payee) => (
                  <div key={payee.id}>
                    <p>
                      <strong>{payee.name}</strong>
                      {payee.note === '' ? null : <span className="muted"> — {payee.note}</span>}
                    </p>
                    <ul className="small">
                      {payee.addresses.map((entry) => (
                        <li key={`${entry.chain}:${entry.address}`}>
                          {chainName(entry.chain)}: <span className="mono break">{entry.address}</span>
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
                <p className="small muted">{tRich('payees.common.proposedBy', { proposer: <strong>{batch.proposer}</strong>, at: <DateTime at={batch.at} /> })}</p>
              </div>
              <div className="queue__actions">
                <button type="button" className="button button--primary button--small" onClick={() => void approve(batch)} aria-label={t('payees.common.approveWhat', { what: batch.payees.map((payee) => payee.name).join(', ') })} data-testid="@payees/approve-button">
                  {t('payees.common.approve')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Proof that the payee controls an address (issue 21 item 2): where it stands (addressbook/proof), and starting or
 * retrying it (addressbook/prove: a deposit address made for this proof; the payee sends at least the minimum from
 * the address to it). "Control proven" comes only from a desk-signed statement the engine verified.
 */
function ControlProof({ chain, address }: { readonly chain: string; readonly address: string }): React.JSX.Element | null {
  const [open, setOpen] = useState(false);
  const [proof, setProof] = useState<ControlProofView | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  if (!isChain(chain)) return null;
  const known: Chain = chain;

  async function load(): Promise<void> {
    const result = await call('addressbook/proof', { chain: known, address });
    setProof(result.ok ? result.value : null);
    setError(result.ok ? null : result.error);
  }

  async function start(): Promise<void> {
    const result = await askOperator({
      title: t('payees.proof.title'),
      description: t('payees.proof.description', { chain: chainName(known), address }),
      hint: t('payees.proof.hint'),
      confirmLabel: t('payees.proof.confirm'),
      run: (as) => call('addressbook/prove', { chain: known, address, as }),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) setProof(result.value);
  }

  if (!open) {
    return (
      <>
        {' '}
        <button type="button" className="button button--small" onClick={() => { setOpen(true); void load(); }} aria-label={t('payees.proof.buttonLabel', { address })} data-testid="@payees/proof-button">
          {t('payees.proof.button')}
        </button>
      </>
    );
  }
  return (
    <div className="stack small" data-testid="@payees/proof" data-status={proof?.status ?? 'loading'}>
      <ErrorNotice error={error} testId="@payees/proof-error" />
      {proof === null ? null : (
        <>
          <p data-testid="@payees/proof-standing">
            <strong>
              {proof.status === 'proven'
                ? t('payees.proof.standing.proven')
                : proof.reported.length > 0
                  ? t('payees.proof.standing.notHere')
                  : proof.status === 'waiting'
                    ? t('payees.proof.standing.waiting')
                    : proof.status === 'cannotProve'
                      ? t('payees.proof.standing.cannotProve')
                      : t('payees.proof.standing.notProven')}
            </strong>
            {proof.evidence === null ? null : (
              <>
                {' '}
                {tRich('payees.proof.evidence', {
                  txid: <span className="mono break">{proof.evidence.txid}</span>,
                  amount: <Amount value={proof.evidence.amount} />,
                  currency: proof.evidence.currency,
                  at: <DateTime at={proof.evidence.at} />,
                })}
              </>
            )}
            {proof.provenBy === null ? null : <span data-testid="@payees/proof-proven-by">{t('payees.proof.provenBy', { signer: signerText(proof.provenBy) })}</span>}
          </p>
          {proof.reported.map((report) => (
            <p key={report.apiOrder} className="notice notice--warn" data-testid="@payees/proof-reported">
              {tRich('payees.proof.reported', {
                signer: signerText({ own: false, workstation: report.workstation }),
                txid: <span className="mono break">{report.txid}</span>,
                at: <DateTime at={report.at} />,
              })}
            </p>
          ))}
          {proof.chainCanProve ? null : <p className="muted">{proof.chainReason}</p>}
          {proof.instructions === null ? null : (
            <p className="notice notice--info" data-testid="@payees/proof-instructions">
              {proof.instructions}
            </p>
          )}
          {proof.deposits.map((deposit) => (
            <p key={deposit.txid} className="notice notice--warn" data-testid="@payees/proof-refused-deposit">
              {tRich('payees.proof.refusedDeposit', { txid: <span className="mono break">{deposit.txid}</span>, reason: deposit.refusal })}
            </p>
          ))}
          {proof.refused.map((reason) => (
            <p key={reason} className="notice notice--error" data-testid="@payees/proof-refused-row">
              {reason}
            </p>
          ))}
          <div className="inline-form">
            {proof.chainCanProve && proof.status !== 'proven' ? (
              <button type="button" className="button button--small button--primary" onClick={() => void start()} data-testid="@payees/proof-start">
                {proof.status === 'waiting' ? t('payees.proof.showAgain') : t('payees.proof.start')}
              </button>
            ) : null}
            <button type="button" className="button button--small" onClick={() => void load()} data-testid="@payees/proof-refresh">
              {t('payees.common.refresh')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function PayeeList({ payees }: { readonly payees: readonly PayeeView[] }): React.JSX.Element {
  const focused = usePayeesStore((state) => state.focused);
  const focusedRow = useRef<HTMLTableRowElement | null>(null);
  const known = focused === null || payees.some((payee) => payee.id === focused);
  useEffect(() => {
    focusedRow.current?.scrollIntoView({ block: 'center' });
  }, [focused, payees]);
  return (
    <div className="stack">
      <h3>{t('payees.list.title')}</h3>
      {known ? null : (
        <p className="notice notice--warn" role="status" data-testid="@payees/unknown-link">
          {t('payees.list.unknownLink', { id: focused })}
        </p>
      )}
      {payees.length === 0 ? (
        <p className="muted" data-testid="@payees/empty">
          {t('payees.list.empty')}
        </p>
      ) : (
        <table className="table" data-testid="@payees/table">
          <thead>
            <tr>
              <th scope="col">{t('payees.list.payee')}</th>
              <th scope="col">{t('payees.common.addresses')}</th>
              <th scope="col">{t('payees.list.added')}</th>
            </tr>
          </thead>
          <tbody>
            {payees.map((payee) => (
              <tr
                key={payee.id}
                ref={payee.id === focused ? focusedRow : undefined}
                className={payee.id === focused ? 'row--focused' : undefined}
                aria-current={payee.id === focused ? 'true' : undefined}
                data-testid="@payees/row"
                data-id={payee.id}
              >
                <td>
                  <strong>{payee.name}</strong>
                  {payee.note === '' ? null : <div className="small muted">{payee.note}</div>}
                </td>
                <td>
                  {payee.addresses.length === 0 ? (
                    <span className="muted">{t('payees.list.noAddress')}</span>
                  ) : (
                    <ul className="small">
                      {payee.addresses.map((entry) => (
                        <li key={`${entry.chain}:${entry.address}`} data-testid="@payees/address-item" data-approved={entry.approved ? 'true' : 'false'}>
                          {chainName(entry.chain)}: <span className="mono break">{entry.address}</span>{' '}
                          {entry.approved ? <span className="badge badge--good">{t('payees.common.inTheBook')}</span> : <span className="badge badge--warn">{t('payees.common.waitingForDelay')}</span>}
                          <ControlProof chain={entry.chain} address={entry.address} />
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="small">
                  {payee.approvedBy === null
                    ? tRich('payees.list.addedBy', { addedBy: payee.addedBy, at: <DateTime at={payee.since} /> })
                    : tRich('payees.list.addedApprovedBy', { addedBy: payee.addedBy, approvedBy: payee.approvedBy, at: <DateTime at={payee.since} /> })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
