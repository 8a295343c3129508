// A deposit address QR code: the PNG data URL from addresses/qr (img-src allows data:), with the address as its text.
import type { ContractError } from '../api';
import type { QrCodeView } from '../../../electron/contract';
import { t } from '../i18n';
import { ErrorNotice } from './ErrorNotice';

interface QrCodeProps {
  readonly qr: QrCodeView | undefined;
  readonly error?: ContractError | undefined;
  readonly testId: string;
  /** Show the encoded text under the image (off where the address is shown next to it anyway). */
  readonly caption?: boolean;
}

export function QrCode({ qr, error, testId, caption = true }: QrCodeProps): React.JSX.Element {
  if (error !== undefined) return <ErrorNotice error={error} />;
  if (qr === undefined) return <div className="qr qr--loading" aria-busy="true">{t('payees.qr.making')}</div>;
  return (
    <figure className="qr">
      {qr.format === 'png' ? (
        <img src={qr.data} alt={t('payees.qr.alt', { content: qr.content })} width={240} height={240} data-testid={testId} />
      ) : (
        <p>{t('payees.qr.svg')}</p>
      )}
      {caption ? (
        <figcaption className="qr__caption">
          <code className="address">{qr.content}</code>
        </figcaption>
      ) : null}
    </figure>
  );
}
