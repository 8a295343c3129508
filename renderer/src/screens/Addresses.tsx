// Deposit addresses: create one as an operator (addresses/create), list them (addresses/list), show the selected
// one's QR code (addresses/qr) with copy, and the notes that matter (one eth_bnb address for two chains, no USDC on TRON).
// Each address carries its label, edited in place.
import { useEffect, useState, type FormEvent } from 'react';
import { ADDRESS_TYPES, CHAIN_INFO, type AddressType, type Chain } from '../../../electron/chains';
import type { ContractError } from '../api';
import { CopyButton } from '../components/CopyButton';
import { ExplorerLink } from '../components/ExplorerLink';
import { DateTime } from '../components/DateTime';
import { ErrorNotice } from '../components/ErrorNotice';
import { Select } from '../components/Select';
import { Field, fieldError } from '../components/Field';
import { QrCode } from '../components/QrCode';
import { RecordLabel } from '../components/RecordLabel';
import { useAddressesStore } from '../stores/addresses';
import { t, type MessageId } from '../i18n';
import { askOperator } from '../stores/operator-prompt';

const ADDRESS_TYPE_LABELS: Readonly<Record<AddressType, MessageId>> = {
  trx: 'payees.addresses.type.trx',
  eth_bnb: 'payees.addresses.type.ethBnb',
  solana: 'payees.addresses.type.solana',
  ton: 'payees.addresses.type.ton',
};

/** An address type as the chain select and the create dialog name it: "TRON (TRX, USDT)". */
export function addressTypeLabel(type: AddressType): string {
  return t(ADDRESS_TYPE_LABELS[type]);
}

export function Addresses(): React.JSX.Element {
  const addresses = useAddressesStore((state) => state.addresses);
  const selected = useAddressesStore((state) => state.selected);
  const error = useAddressesStore((state) => state.error);
  useEffect(() => {
    void useAddressesStore.getState().load();
  }, []);
  const current = addresses.find((address) => address.address === selected) ?? null;
  return (
    <div className="split">
      <div className="split__main">
        <CreateAddress />
        <section className="card" aria-labelledby="addresses-title">
          <h2 id="addresses-title">{t('payees.addresses.title')}</h2>
          <ErrorNotice error={error} />
          {addresses.length === 0 ? <p className="muted">{t('payees.addresses.empty')}</p> : null}
          {addresses.length === 0 ? null : (
            <div className="table-wrap">
              <table className="table table--dense table--select" data-testid="@addresses/table">
                <thead>
                  <tr>
                    <th scope="col">{t('payees.common.address')}</th>
                    <th scope="col">{t('payees.addresses.type')}</th>
                    <th scope="col">{t('payees.common.userOrder')}</th>
                    <th scope="col">{t('payees.common.created')}</th>
                    <th scope="col">{t('payees.common.label')}</th>
                  </tr>
                </thead>
                <tbody>
                  {addresses.map((address) => (
                    <tr key={`${address.addressType}:${address.address}:${address.userOrder}`} aria-current={address.address === selected ? "true" : undefined} className={`clickable${address.address === selected ? ' is-selected' : ''}`} onClick={() => useAddressesStore.getState().select(address.address)} data-testid="@addresses/row">
                      <td>
                        <button type="button" className="button button--link mono break" onClick={() => useAddressesStore.getState().select(address.address)} aria-label={t('payees.addresses.show', { address: address.address })}>
                          {address.address}
                        </button>
                      </td>
                      <td>{address.addressType}</td>
                      <td className="mono">{address.userOrder}</td>
                      <td className="small"><DateTime at={address.createdAt} /></td>
                      <td>
                        <RecordLabel type="addr" refValue={address.address} what={t('payees.addresses.what', { address: address.address })} testId="@addresses/label" />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
      <aside className="split__side" aria-label={t('payees.addresses.selected')}>
        {current === null ? (
          <section className="card">
            <h2>{t('payees.addresses.qrTitle')}</h2>
            <p className="muted">{t('payees.addresses.selectHint')}</p>
          </section>
        ) : (
          <AddressDetail address={current.address} />
        )}
      </aside>
    </div>
  );
}

/** The chains one address receives on: "Ethereum and BNB Smart Chain". */
function chainsText(chains: readonly Chain[]): string {
  const names = chains.map((chain) => CHAIN_INFO[chain].displayName);
  return names.length === 0 ? '' : names.reduce((first, second) => t('payees.addresses.chainsAnd', { first, second }));
}

function AddressDetail({ address }: { readonly address: string }): React.JSX.Element | null {
  const view = useAddressesStore((state) => state.addresses.find((candidate) => candidate.address === address));
  const qr = useAddressesStore((state) => state.qr[address]);
  const qrError = useAddressesStore((state) => state.qrErrors[address]);
  if (view === undefined) return null;
  return (
    <section className="card" aria-labelledby="address-detail-title" data-testid="@addresses/detail">
      <h2 id="address-detail-title">{t('payees.addresses.detailTitle')}</h2>
      <QrCode qr={qr} error={qrError} testId="@addresses/qr-image" caption={false} />
      <p className="address-block">
        <code className="address" data-testid="@addresses/selected-address">
          {view.address}
        </code>
      </p>
      <CopyButton text={view.address} label={t('payees.common.copyAddress')} testId="@addresses/copy-button" />
      <p className="explorer-links small">
        {view.chains.map((chain) => (
          <ExplorerLink key={chain} chain={chain} target="address" value={view.address} testId={`@addresses/explorer-${chain}`} />
        ))}
      </p>
      <dl className="facts">
        <dt>{t('payees.addresses.chains')}</dt>
        <dd>{chainsText(view.chains)}</dd>
        <dt>{t('payees.common.userOrder')}</dt>
        <dd className="mono">{view.userOrder}</dd>
        <dt>{t('payees.common.created')}</dt>
        <dd><DateTime at={view.createdAt} /></dd>
      </dl>
      {view.notes.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@addresses/notes">
          <p className="notice__title">{t('payees.addresses.notesTitle')}</p>
          <ul>
            {view.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function CreateAddress(): React.JSX.Element {
  const [addressType, setAddressType] = useState<AddressType>('trx');
  const [userOrder, setUserOrder] = useState('');
  const [error, setError] = useState<ContractError | null>(null);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const result = await askOperator({
      title: t('payees.addresses.create.title'),
      description:
        userOrder.trim() === ''
          ? t('payees.addresses.create.description', { type: addressTypeLabel(addressType) })
          : t('payees.addresses.create.descriptionOrder', { type: addressTypeLabel(addressType), userOrder: userOrder.trim() }),
      confirmLabel: t('payees.addresses.create.confirm'),
      run: (as) => useAddressesStore.getState().create(addressType, userOrder, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) setUserOrder('');
  }
  return (
    <section className="card" aria-labelledby="create-address-title">
      <h2 id="create-address-title">{t('payees.addresses.create.heading')}</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label={t('payees.common.chain')} error={fieldError(error?.fields, 'addressType')}>
          {(control) => <Select control={control} value={addressType} options={ADDRESS_TYPES} label={addressTypeLabel} onChange={setAddressType} testId="@addresses/type-select" />}
        </Field>
        <Field label={t('payees.addresses.create.userOrder')} hint={t('payees.addresses.create.userOrderHint')} error={fieldError(error?.fields, 'userOrder')}>
          {(control) => <input {...control} className="input input--mono" value={userOrder} maxLength={64} onChange={(event) => setUserOrder(event.target.value)} data-testid="@addresses/user-order" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" data-testid="@addresses/create-button">
            {t('payees.addresses.create.confirm')}
          </button>
        </div>
      </form>
      {addressType === 'trx' ? <p className="muted small">{t('payees.addresses.create.trxNote')}</p> : null}
      {addressType === 'eth_bnb' ? <p className="muted small">{t('payees.addresses.create.ethBnbNote')}</p> : null}
      <ErrorNotice error={error} testId="@addresses/create-error" />
    </section>
  );
}
