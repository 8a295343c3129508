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
import { t, tRich } from '../i18n';

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
      <h2 id="tool-address-title">{t('payees.tools.address.title')}</h2>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label={t('payees.common.chain')} error={fieldError(error?.fields, 'chain')}>
          {(control) => <Select control={control} value={chain} options={CHAINS} label={(candidate) => CHAIN_INFO[candidate].displayName} onChange={setChain} testId="@tools/address-chain" />}
        </Field>
        <Field label={t('payees.common.address')} error={fieldError(error?.fields, 'address')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={address} onChange={(event) => setAddress(event.target.value)} data-testid="@tools/address-input" />}
        </Field>
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@tools/address-check-button">
            {busy ? t('payees.common.checking') : t('payees.tools.address.button')}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        <ErrorNotice error={error} />
        {result === null ? null : (
          <div className={`notice notice--${result.valid ? 'ok' : 'error'}`} data-testid="@tools/address-result" data-valid={String(result.valid)}>
            <p className="notice__title">
              {result.valid ? t('payees.tools.address.valid', { chain: CHAIN_INFO[result.chain].displayName }) : t('payees.tools.address.invalid', { chain: CHAIN_INFO[result.chain].displayName })}
            </p>
            {result.reason === null ? null : <p>{result.reason}</p>}
            <p className="small">
              {t('payees.tools.address.serviceCheck', {
                verdict: result.service === null ? t('payees.tools.address.serviceUnreachable') : result.service ? t('payees.tools.address.serviceValid') : t('payees.tools.address.serviceInvalid'),
              })}
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
      <h2 id="tool-transfer-title">{t('payees.tools.transfer.title')}</h2>
      <p className="muted small">{t('payees.tools.transfer.intro')}</p>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label={t('payees.tools.transfer.currency')} error={fieldError(error?.fields, 'currency')}>
          {(control) => <Select control={control} value={currency} options={WITHDRAWAL_CURRENCIES} label={currencyLabel} onChange={setCurrency} testId="@tools/transfer-currency" />}
        </Field>
        <Field label={t('payees.tools.transfer.txid')} error={fieldError(error?.fields, 'txid')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={txid} onChange={(event) => setTxid(event.target.value)} required data-testid="@tools/transfer-txid" />}
        </Field>
        <div>
          <button type="submit" className="button button--primary" disabled={busy} data-testid="@tools/transfer-check-button">
            {busy ? t('payees.common.checking') : t('payees.tools.transfer.button')}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        <ErrorNotice error={error} />
        {result === null ? null : (
          <div className={`notice notice--${result.valid ? 'ok' : 'error'}`} data-testid="@tools/transfer-result" data-valid={String(result.valid)}>
            <p className="notice__title">{result.valid ? t('payees.tools.transfer.valid') : t('payees.tools.transfer.invalid')}</p>
            <p>{tRich(result.cached ? 'payees.tools.transfer.saidCached' : 'payees.tools.transfer.said', { message: <code>{result.message}</code> })}</p>
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
      <h2 id="tool-qr-title">{t('payees.tools.qr.title')}</h2>
      <form className="stack" onSubmit={(event) => void submit(event)}>
        <Field label={t('payees.common.address')} error={fieldError(error?.fields, 'address')}>
          {(control) => <input {...control} className="input input--mono" spellCheck={false} value={address} onChange={(event) => setAddress(event.target.value)} required data-testid="@tools/qr-input" />}
        </Field>
        <div>
          <button type="submit" className="button" data-testid="@tools/qr-button">
            {t('payees.tools.qr.button')}
          </button>
        </div>
      </form>
      {shown ? (
        <div className="stack">
          <QrCode qr={qr ?? undefined} error={error ?? undefined} testId="@tools/qr-image" />
          {qr === null ? null : <CopyButton text={qr.content} label={t('payees.common.copyAddress')} />}
        </div>
      ) : null}
    </section>
  );
}
