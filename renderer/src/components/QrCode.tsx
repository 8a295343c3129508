// A deposit address QR code: the PNG data URL from addresses/qr (img-src allows data:), with the address as its text.
import type { ContractError } from '../api';
import type { QrCodeView } from '../../../electron/contract';
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
  if (qr === undefined) return <div className="qr qr--loading" aria-busy="true">Making the QR code…</div>;
  return (
    <figure className="qr">
      {qr.format === 'png' ? (
        <img src={qr.data} alt={`QR code for ${qr.content}`} width={240} height={240} data-testid={testId} />
      ) : (
        <p>This QR code came as SVG, which this screen does not draw.</p>
      )}
      {caption ? (
        <figcaption className="qr__caption">
          <code className="address">{qr.content}</code>
        </figcaption>
      ) : null}
    </figure>
  );
}
