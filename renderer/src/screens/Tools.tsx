// Tools: address check (tools/checkAddress: chain rules plus the service's isAddress), transfer check
// (tools/checkTransfer, rate-limited by the service) and a QR code for any address (addresses/qr).
import { useState, type FormEvent } from 'react';
import { CHAINS, CHAIN_INFO, WITHDRAWAL_CURRENCIES, type Chain, type CurrencySymbol } from '../../../electron/chains';
import { ErrorNotice } from '../components/ErrorNotice';
import { Select } from '../components/Select';
import { Field, fieldError } from '../components/Field';
import { QrCode } from '../components/QrCode';
import { CopyButton } from '../components/CopyButton';
import { currencyLabel } from '../format';
import { useContractCall } from '../hooks';

export function Tools(): React.JSX.Element {
  return (
    <div className="tools">
      <AddressCheck />
      <TransferCheck />
      <AnyQr />
    </div>
  );
}

function AddressCheck(): React.JSX.Element {
  const [chain, setChain] = useState<Chain>('trx');
  const [address, setAddress] = useState('');
  const { result, error, busy, run } = useContractCall('tools/checkAddress');
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    await run({ chain, address });
  }
  return (
    <section className="card" aria-labelledby="tool-address-title">
      <h2 id="tool-address-title">Check an address</h2>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label="Chain" error={fieldError(error?.fields, 'chain')}>
          {(control) => <Select control={control} value={chain} options={CHAINS} label={(candidate) => CHAIN_INFO[candidate].displayName} onChange={setChain} testId="@tools/address-chain" />}
        </Field>
        <Field label="Address" error={fieldError(error?.fields, 'address')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={address} onChange={(event) => setAddress(event.target.value)} data-testid="@tools/address-input" />}
        </Field>
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@tools/address-check-button">
            {busy ? 'Checking…' : 'Check address'}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        <ErrorNotice error={error} />
        {result === null ? null : (
          <div className={`notice notice--${result.valid ? 'ok' : 'error'}`} data-testid="@tools/address-result" data-valid={String(result.valid)}>
            <p className="notice__title">
              {result.valid ? `Valid ${CHAIN_INFO[result.chain].displayName} address` : `Not a valid ${CHAIN_INFO[result.chain].displayName} address`}
            </p>
            {result.reason === null ? null : <p>{result.reason}</p>}
            <p className="small">
              The service&apos;s own check (isAddress):{' '}
              {result.service === null ? 'not reachable, so only the chain rules were checked' : result.service ? 'valid' : 'invalid'}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}

function TransferCheck(): React.JSX.Element {
  const [currency, setCurrency] = useState<CurrencySymbol>('trx.usdt');
  const [txid, setTxid] = useState('');
  const { result, error, busy, run } = useContractCall('tools/checkTransfer');
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    await run({ txid: txid.trim(), currency });
  }
  return (
    <section className="card" aria-labelledby="tool-transfer-title">
      <h2 id="tool-transfer-title">Check a transfer</h2>
      <p className="muted small">For occasional manual checks: the service allows 20 per minute and repeats its answer for the same txid within 5 seconds. Deposit callbacks, not this check, credit the balance.</p>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label="Currency" error={fieldError(error?.fields, 'currency')}>
          {(control) => <Select control={control} value={currency} options={WITHDRAWAL_CURRENCIES} label={currencyLabel} onChange={setCurrency} testId="@tools/transfer-currency" />}
        </Field>
        <Field label="Transaction hash (txid)" error={fieldError(error?.fields, 'txid')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={txid} onChange={(event) => setTxid(event.target.value)} required data-testid="@tools/transfer-txid" />}
        </Field>
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@tools/transfer-check-button">
            {busy ? 'Checking…' : 'Check transfer'}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        <ErrorNotice error={error} />
        {result === null ? null : (
          <div className={`notice notice--${result.valid ? 'ok' : 'error'}`} data-testid="@tools/transfer-result" data-valid={String(result.valid)}>
            <p className="notice__title">{result.valid ? 'The service reports this transaction as valid.' : 'The service reports this transaction as invalid.'}</p>
            <p>
              The service said: <code>{result.message}</code>
              {result.cached ? ' (repeated answer: asked again within 5 seconds)' : ''}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}

function AnyQr(): React.JSX.Element {
  const [address, setAddress] = useState('');
  const { result: qr, error, run } = useContractCall('addresses/qr');
  const [shown, setShown] = useState(false);
  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setShown(true);
    await run({ address: address.trim(), format: 'png' });
  }
  return (
    <section className="card" aria-labelledby="tool-qr-title">
      <h2 id="tool-qr-title">QR code for any address</h2>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label="Address" error={fieldError(error?.fields, 'address')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={address} onChange={(event) => setAddress(event.target.value)} required data-testid="@tools/qr-input" />}
        </Field>
        <div>
          <button type="submit" className="button" data-testid="@tools/qr-button">
            Make QR code
          </button>
        </div>
      </form>
      {shown ? (
        <div className="stack">
          <QrCode qr={qr ?? undefined} error={error ?? undefined} testId="@tools/qr-image" />
          {qr === null ? null : <CopyButton text={qr.content} label="Copy address" />}
        </div>
      ) : null}
    </section>
  );
}
