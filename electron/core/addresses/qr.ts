// QR codes for deposit addresses, made locally with `qrcode` (no network): PNG data URL or SVG markup whose
// content is exactly the address.
import QRCode from 'qrcode';

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

export async function qrPngBuffer(content: string, width = 320): Promise<Buffer> {
  return QRCode.toBuffer(content, { ...QR_OPTIONS, type: 'png', width });
}

export async function qrPngDataUrl(content: string, width = 320): Promise<string> {
  return `data:image/png;base64,${(await qrPngBuffer(content, width)).toString('base64')}`;
}

export async function qrSvg(content: string): Promise<string> {
  return QRCode.toString(content, { ...QR_OPTIONS, type: 'svg' });
}
