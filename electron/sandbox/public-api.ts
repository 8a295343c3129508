// The public interface (`/api/common/`, PROTOCOL §12, §5.6): getCurrencies (the 13, then any currency added later),
// isAddress, checkTransfer (5 s per-txid cooldown, 20 requests per minute per IP) and generateAddresssQrCode (three s;
// a PNG whose content is exactly the address). Plain JSON, no SVC headers checked or sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import QRCode from 'qrcode';
import { CURRENCIES, isCurrencySymbol, QR_ADDRESS_TYPES, validateForCurrency } from '../chains';
import { toEscapedJson } from '../protocol/envelope';
import {
  CHECK_TRANSFER_COOLDOWN_SECONDS,
  CHECK_TRANSFER_RATE_PER_MINUTE,
  CHECK_TRANSFER_RATE_WINDOW_SECONDS,
  CODE_FAILURE,
  CODE_SUCCESS,
  MAX_REQUEST_BODY_BYTES,
  PATHS,
  QR_ADDRESS_PATTERN,
  QR_CONTENT_TYPE,
  REQUEST_TOO_LARGE_STATUS,
  type KnownServiceErrorMessage,
} from '../protocol/profile';
import { isTxidFormat } from './chain-sim';
import { addedCurrencies } from './added-currencies';
import { CURRENCY_TABLE } from './currencies-table';
import { readBody, send, sendAndStopReading, sendMethodNotAllowed, sendNotFound } from './http';
import { findTransfer } from './ledger';
import type { SandboxService } from './service';

/** checkTransfer's answer for a well-formed txid that no simulated transfer of that currency has (ours, §12.2). */
export const TRANSFER_NOT_FOUND = 'transferNotFound';
const SUCCESS_MESSAGE = 'success';

interface PublicAnswer {
  readonly code: number;
  readonly data: unknown;
  readonly message: string;
}

const ok = (data: unknown = ''): PublicAnswer => ({ code: CODE_SUCCESS, data, message: SUCCESS_MESSAGE });
const refuse = (message: KnownServiceErrorMessage | typeof TRANSFER_NOT_FOUND): PublicAnswer => ({ code: CODE_FAILURE, data: '', message });

/** QR image size: a scannable module size for phone cameras and zbarimg alike. */
const QR_OPTIONS = { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 6 } as const;

export class PublicApi {
  /** txid -> the last answer and when it was given (§12.2 cooldown). */
  private readonly recentAnswers = new Map<string, { answer: PublicAnswer; at: number }>();
  /** source IP -> times (sandbox ms) of the checkTransfer requests answered in the last minute (§12.2 rate). */
  private readonly requestTimes = new Map<string, number[]>();

  constructor(private readonly service: SandboxService) {}

  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    switch (path) {
      case PATHS.getCurrencies:
      case PATHS.isAddress:
      case PATHS.checkTransfer: {
        if (request.method !== 'POST') return sendMethodNotAllowed(response, 'POST');
        const body = await readBody(request, MAX_REQUEST_BODY_BYTES);
        if (body.kind === 'aborted') return;
        if (body.kind === 'tooLarge') {
          return sendAndStopReading(response, REQUEST_TOO_LARGE_STATUS, { 'Content-Type': 'application/json' }, toEscapedJson(refuse('requestTooLarge')));
        }
        const form = new URLSearchParams(body.body.toString('utf8'));
        const answer =
          path === PATHS.getCurrencies
            ? ok([...CURRENCY_TABLE, ...addedCurrencies(this.service.db).map((added) => added.record)])
            : path === PATHS.isAddress
              ? this.isAddress(form)
              : this.checkTransfer(form, request.socket.remoteAddress ?? '');
        return send(response, 200, { 'Content-Type': 'application/json' }, toEscapedJson(answer));
      }
      case PATHS.generateAddressQrCode: {
        if (request.method !== 'GET' && request.method !== 'HEAD') return sendMethodNotAllowed(response, 'GET');
        request.resume();
        return this.qrCode(new URL(request.url ?? '/', 'http://sandbox').searchParams, response);
      }
      default:
        // Includes the two-s spelling generateAddressQrCode (§12.3).
        return sendNotFound(response);
    }
  }

  /** spec isAddress: 10000 when `address` is valid on the chain of `coin_type` (§11); 9999 otherwise. */
  private isAddress(form: URLSearchParams): PublicAnswer {
    const address = form.get('address');
    const coinType = form.get('coin_type');
    if (address === null || coinType === null || address.length === 0 || coinType.length === 0) return refuse('paramError');
    if (!isCurrencySymbol(coinType)) return refuse('currencyNotSupported');
    return validateForCurrency(coinType, address).valid ? ok() : refuse('invalidAddress');
  }

  /** spec checkTransfer + §12.2: rate per IP first, then the per-txid cooldown, then the simulated chains. */
  private checkTransfer(form: URLSearchParams, remoteAddress: string): PublicAnswer {
    const now = this.service.clock.nowMs();
    const windowStart = now - CHECK_TRANSFER_RATE_WINDOW_SECONDS * 1000;
    const times = (this.requestTimes.get(remoteAddress) ?? []).filter((time) => time > windowStart && time <= now);
    if (times.length >= CHECK_TRANSFER_RATE_PER_MINUTE) {
      this.requestTimes.set(remoteAddress, times);
      return refuse('rateLimited');
    }
    times.push(now);
    this.requestTimes.set(remoteAddress, times);

    const txid = form.get('txid');
    const coinType = form.get('coin_type');
    if (txid === null || coinType === null || txid.length === 0 || coinType.length === 0) return refuse('paramError');
    const cooldownStart = now - CHECK_TRANSFER_COOLDOWN_SECONDS * 1000;
    for (const [key, entry] of this.recentAnswers) if (entry.at <= cooldownStart || entry.at > now) this.recentAnswers.delete(key);
    const recent = this.recentAnswers.get(txid);
    if (recent) return recent.answer; // a repeat inside 5 s gets the previous answer unchanged
    let answer: PublicAnswer;
    if (!isCurrencySymbol(coinType)) answer = refuse('currencyNotSupported');
    else if (!isTxidFormat(CURRENCIES[coinType].chain, txid)) answer = refuse('paramError');
    else answer = findTransfer(this.service.db, coinType, txid) ? ok() : refuse(TRANSFER_NOT_FOUND);
    this.recentAnswers.set(txid, { answer, at: now });
    return answer;
  }

  /** spec generateAddresssQrCode: a PNG of exactly `address`; invalid parameters: HTTP 400 JSON, no image (§12.3). */
  private async qrCode(query: URLSearchParams, response: ServerResponse): Promise<void> {
    const address = query.get('address');
    const addressType = query.get('address_type');
    if (
      address === null ||
      addressType === null ||
      !QR_ADDRESS_PATTERN.test(address) ||
      !(QR_ADDRESS_TYPES as readonly string[]).includes(addressType)
    ) {
      return send(response, 400, { 'Content-Type': 'application/json' }, toEscapedJson(refuse('paramError')));
    }
    const png = await QRCode.toBuffer(address, QR_OPTIONS);
    send(response, 200, { 'Content-Type': QR_CONTENT_TYPE, 'Cache-Control': 'no-store' }, png);
  }
}
