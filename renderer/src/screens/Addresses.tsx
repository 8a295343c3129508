// Deposit addresses: create one as an operator (addresses/create), list them (addresses/list), show the selected
// one's QR code (addresses/qr) with copy, and the notes that matter (one eth_bnb address for two chains, no USDC on TRON).
// Each address carries its label, edited in place.
import { useEffect, useState, type FormEvent } from 'react';
import { ADDRESS_TYPES, CHAIN_INFO, type AddressType } from '../../../electron/chains';
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
import { askOperator } from '../stores/operator-prompt';

export const ADDRESS_TYPE_LABELS: Readonly<Record<AddressType, string>> = {
  trx: 'TRON (TRX, USDT)',
  eth_bnb: 'Ethereum + BNB Smart Chain (one address)',
  solana: 'Solana (SOL, USDT, USDC)',
  ton: 'TON (TON, USDT)',
};

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
          <h2 id="addresses-title">Addresses</h2>
          <ErrorNotice error={error} />
          {addresses.length === 0 ? <p className="muted">No deposit addresses yet.</p> : null}
          {addresses.length === 0 ? null : (
            <div className="table-wrap">
              <table className="table table--dense table--select" data-testid="@addresses/table">
                <thead>
                  <tr>
                    <th scope="col">Address</th>
                    <th scope="col">Type</th>
                    <th scope="col">User order</th>
                    <th scope="col">Created</th>
                    <th scope="col">Label</th>
                  </tr>
                </thead>
                <tbody>
                  {addresses.map((address) => (
                    <tr key={`${address.addressType}:${address.address}:${address.userOrder}`} aria-current={address.address === selected ? "true" : undefined} className={`clickable${address.address === selected ? ' is-selected' : ''}`} onClick={() => useAddressesStore.getState().select(address.address)} data-testid="@addresses/row">
                      <td>
                        <button type="button" className="button button--link mono" onClick={() => useAddressesStore.getState().select(address.address)} aria-label={`Show ${address.address}`}>
                          {address.address}
                        </button>
                      </td>
                      <td>{address.addressType}</td>
                      <td className="mono">{address.userOrder}</td>
                      <td className="small"><DateTime at={address.createdAt} /></td>
                      <td>
                        <RecordLabel type="addr" refValue={address.address} what={`address ${address.address}`} testId="@addresses/label" />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
      <aside className="split__side" aria-label="Selected address">
        {current === null ? (
          <section className="card">
            <h2>QR code</h2>
            <p className="muted">Select or create an address to show its QR code.</p>
          </section>
        ) : (
          <AddressDetail address={current.address} />
        )}
      </aside>
    </div>
  );
}

function AddressDetail({ address }: { readonly address: string }): React.JSX.Element | null {
  const view = useAddressesStore((state) => state.addresses.find((candidate) => candidate.address === address));
  const qr = useAddressesStore((state) => state.qr[address]);
  const qrError = useAddressesStore((state) => state.qrErrors[address]);
  if (view === undefined) return null;
  return (
    <section className="card" aria-labelledby="address-detail-title" data-testid="@addresses/detail">
      <h2 id="address-detail-title">Deposit address</h2>
      <QrCode qr={qr} error={qrError} testId="@addresses/qr-image" caption={false} />
      <p className="address-block">
        <code className="address" data-testid="@addresses/selected-address">
          {view.address}
        </code>
      </p>
      <CopyButton text={view.address} label="Copy address" testId="@addresses/copy-button" />
      <p className="explorer-links small">
        {view.chains.map((chain) => (
          <ExplorerLink key={chain} chain={chain} target="address" value={view.address} testId={`@addresses/explorer-${chain}`} />
        ))}
      </p>
      <dl className="facts">
        <dt>Chains</dt>
        <dd>{view.chains.map((chain) => CHAIN_INFO[chain].displayName).join(' and ')}</dd>
        <dt>User order</dt>
        <dd className="mono">{view.userOrder}</dd>
        <dt>Created</dt>
        <dd><DateTime at={view.createdAt} /></dd>
      </dl>
      {view.notes.length === 0 ? null : (
        <div className="notice notice--warn" data-testid="@addresses/notes">
          <p className="notice__title">Before you share this address</p>
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
      title: 'Create a deposit address',
      description: `A new ${ADDRESS_TYPE_LABELS[addressType]} deposit address${userOrder.trim() === '' ? '' : ` for user order ${userOrder.trim()}`} will be created at the service.`,
      confirmLabel: 'Create address',
      run: (as) => useAddressesStore.getState().create(addressType, userOrder, as),
    });
    if (result === null) return;
    setError(result.ok ? null : result.error);
    if (result.ok) setUserOrder('');
  }
  return (
    <section className="card" aria-labelledby="create-address-title">
      <h2 id="create-address-title">New deposit address</h2>
      <form className="inline-form" onSubmit={(event) => void submit(event)}>
        <Field label="Chain" error={fieldError(error?.fields, 'addressType')}>
          {(control) => <Select control={control} value={addressType} options={ADDRESS_TYPES} label={(type) => ADDRESS_TYPE_LABELS[type]} onChange={setAddressType} testId="@addresses/type-select" />}
        </Field>
        <Field label="User order (optional)" hint="Your order or customer reference; generated when empty." error={fieldError(error?.fields, 'userOrder')}>
          {(control) => <input {...control} className="input input--mono" value={userOrder} maxLength={64} onChange={(event) => setUserOrder(event.target.value)} data-testid="@addresses/user-order" />}
        </Field>
        <div className="inline-form__submit">
          <button type="submit" className="button button--primary" data-testid="@addresses/create-button">
            Create address
          </button>
        </div>
      </form>
      {addressType === 'trx' ? <p className="muted small">USDC sent to a TRON address is never credited: share TRON addresses for TRX and USDT only.</p> : null}
      {addressType === 'eth_bnb' ? <p className="muted small">One address receives on Ethereum and BNB Smart Chain; each deposit is credited under its own chain&apos;s currency.</p> : null}
      <ErrorNotice error={error} testId="@addresses/create-error" />
    </section>
  );
}
