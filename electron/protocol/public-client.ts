// PublicClient: the four public endpoints (spec "Public", PROTOCOL §5.6, §12): plain JSON or PNG, no token, no
// signature, no encryption (the v2 flow must not be applied). Guards checkTransfer locally: 20 requests per rolling
// minute and a 5 s per-txid repeat answered from the previous result, so the platform never rate-limits us.
import type { Dispatcher } from 'undici';
import { QR_ADDRESS_TYPES, WITHDRAWAL_CURRENCIES, type CurrencySymbol, type QrAddressType } from '../chains/currencies';
import { InvalidArgumentError, RateLimitedError, ResponseVerificationError, ServiceError, type RawEnvelope } from './errors';
import { HttpTransport, singleHeader, type HttpResponse, type HttpTimeouts } from './http';
import {
  CHECK_TRANSFER_COOLDOWN_SECONDS,
  CHECK_TRANSFER_RATE_PER_MINUTE,
  CHECK_TRANSFER_RATE_WINDOW_SECONDS,
  CODE_FAILURE,
  CODE_SUCCESS,
  PATHS,
  PNG_SIGNATURE,
  PUBLIC_FORM_CONTENT_TYPE,
  QR_ADDRESS_PATTERN,
  QR_CONTENT_TYPE,
} from './profile';
import { runWithRetry, type BackoffPolicy, type OperationName } from './retry';
import {
  currencyListSchema,
  currencySymbolSchema,
  describeIssues,
  publicEnvelopeSchema,
  qrAddressTypeSchema,
  type CurrencyRecord,
  type PublicEnvelope,
} from './schemas';
import { systemClock, type Clock } from './wire';

export interface PublicClientOptions {
  readonly baseUrl: string;
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly maxResponseBytes?: number;
  /** Milliseconds, like Date.now: drives the checkTransfer guards. */
  readonly clock?: Clock;
  readonly backoff?: BackoffPolicy;
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** isAddress / checkTransfer answer: code 10000 is valid; 9999 is invalid with the reason in `message`. */
export interface PublicCheck {
  readonly valid: boolean;
  readonly message: string;
}

/** checkTransfer answer; `cached` when it repeats the answer of a request for the same txid less than 5 s ago. */
export interface TransferCheck extends PublicCheck {
  readonly cached: boolean;
}

type PublicOperation = Extract<OperationName, 'getCurrencies' | 'isAddress' | 'checkTransfer' | 'generateAddressQrCode'>;

const MAX_TEXT_PARAMETER = 256;

export class PublicClient {
  readonly #http: HttpTransport;
  readonly #clock: Clock;
  readonly #retry: { backoff?: BackoffPolicy; random?: () => number; sleep?: (ms: number) => Promise<void> };
  /** Send times (ms) of checkTransfer requests inside the rolling window. */
  readonly #transferSends: number[] = [];
  /** Last answer per txid with its time (ms), for the 5 s repeat rule. */
  readonly #transferAnswers = new Map<string, { at: number; answer: PublicCheck }>();
  /** checkTransfer requests in flight per txid: a concurrent repeat waits for the same answer. */
  readonly #transferInflight = new Map<string, Promise<PublicCheck>>();

  constructor(options: PublicClientOptions) {
    this.#http = new HttpTransport(options.baseUrl, {
      dispatcher: options.dispatcher,
      timeouts: options.timeouts,
      maxResponseBytes: options.maxResponseBytes,
    });
    this.#clock = options.clock ?? systemClock;
    this.#retry = { backoff: options.backoff, random: options.random, sleep: options.sleep };
  }

  /** getCurrencies (§12.1): the currency records with fees and minimums as decimal strings (§9.3). */
  async getCurrencies(): Promise<CurrencyRecord[]> {
    const envelope = await this.postForm('getCurrencies', {});
    if (envelope.code !== CODE_SUCCESS) throw new ServiceError(envelope.message, 'getCurrencies', rawOf(envelope), 200);
    const parsed = currencyListSchema.safeParse(envelope.data);
    if (!parsed.success) {
      throw new ResponseVerificationError(
        'schemaMismatch',
        'getCurrencies',
        `the currency list does not have the expected shape (${describeIssues(parsed.error)}); nothing was used.`,
      );
    }
    return parsed.data;
  }

  /** isAddress (§12.2): whether `address` is valid on the chain of `coinType`. */
  async isAddress(address: string, coinType: CurrencySymbol): Promise<PublicCheck> {
    const checkedAddress = checkText('address', address);
    const coin = checkCoinType(coinType);
    const envelope = await this.postForm('isAddress', { address: checkedAddress, coin_type: coin });
    return { valid: envelope.code === CODE_SUCCESS, message: envelope.message };
  }

  /**
   * checkTransfer (§12.2): for manual, low-frequency checks (callbacks are the authority for crediting). A repeat for
   * the same txid within 5 s returns the previous answer without a request (as the platform would); beyond 20
   * requests per rolling minute a RateLimitedError is raised and nothing is sent.
   */
  async checkTransfer(txid: string, coinType: CurrencySymbol): Promise<TransferCheck> {
    const checkedTxid = checkText('txid', txid);
    const coin = checkCoinType(coinType);
    const now = this.#clock();

    const previous = this.#transferAnswers.get(checkedTxid);
    if (previous !== undefined && now - previous.at < CHECK_TRANSFER_COOLDOWN_SECONDS * 1000) {
      return { ...previous.answer, cached: true };
    }
    const inflight = this.#transferInflight.get(checkedTxid);
    if (inflight !== undefined) return { ...(await inflight), cached: true };

    const windowMs = CHECK_TRANSFER_RATE_WINDOW_SECONDS * 1000;
    while (this.#transferSends.length > 0 && (this.#transferSends[0] ?? 0) <= now - windowMs) this.#transferSends.shift();
    if (this.#transferSends.length >= CHECK_TRANSFER_RATE_PER_MINUTE) {
      const oldest = this.#transferSends[0] ?? now;
      throw new RateLimitedError(
        'checkTransfer',
        Math.max(0, oldest + windowMs - now),
        `at most ${CHECK_TRANSFER_RATE_PER_MINUTE} transfer checks per minute are allowed; nothing was sent`,
      );
    }
    this.#transferSends.push(now);
    for (const [key, entry] of this.#transferAnswers) {
      if (now - entry.at >= CHECK_TRANSFER_COOLDOWN_SECONDS * 1000) this.#transferAnswers.delete(key);
    }

    const request = this.requestTransferCheck(checkedTxid, coin);
    this.#transferInflight.set(checkedTxid, request);
    try {
      const answer = await request;
      this.#transferAnswers.set(checkedTxid, { at: now, answer });
      return { ...answer, cached: false };
    } finally {
      this.#transferInflight.delete(checkedTxid);
    }
  }

  private async requestTransferCheck(txid: string, coin: CurrencySymbol): Promise<PublicCheck> {
    const envelope = await this.postForm('checkTransfer', { txid, coin_type: coin });
    if (envelope.code === CODE_FAILURE && envelope.message === 'rateLimited') {
      throw new ServiceError('rateLimited', 'checkTransfer', rawOf(envelope), 200);
    }
    return { valid: envelope.code === CODE_SUCCESS, message: envelope.message };
  }

  /**
   * generateAddresssQrCode (three s, §12.3): a PNG of a QR code holding exactly `address`. The address charset and
   * the address type are checked before sending; the answer must be image/png starting with the PNG signature.
   */
  async generateAddressQrCode(address: string, addressType: QrAddressType): Promise<Uint8Array> {
    const endpoint = 'generateAddressQrCode';
    if (typeof address !== 'string' || !QR_ADDRESS_PATTERN.test(address)) {
      throw new InvalidArgumentError(
        'address',
        'may contain only letters, digits, "-", "_", "." and "+" (no spaces) for a QR code. Nothing was sent.',
      );
    }
    const type = qrAddressTypeSchema.safeParse(addressType);
    if (!type.success) {
      throw new InvalidArgumentError('addressType', `must be one of ${QR_ADDRESS_TYPES.join(', ')} for a QR code. Nothing was sent.`);
    }
    const response = await this.run(endpoint, () =>
      this.#http.request({
        method: 'GET',
        path: PATHS.generateAddressQrCode,
        endpoint,
        query: { address, address_type: type.data },
      }),
    );
    if (response.status !== 200) {
      const envelope = parseLooseEnvelope(response);
      if (envelope !== undefined && envelope.code === CODE_FAILURE) {
        throw new ServiceError(envelope.message, endpoint, rawOf(envelope), response.status);
      }
      throw new ResponseVerificationError(
        'unexpectedResponse',
        endpoint,
        `the service answered HTTP ${response.status} without an image; check the service base URL.`,
      );
    }
    const contentType = singleHeader(response.headers, 'content-type') ?? '';
    const isPng =
      contentType.split(';')[0]?.trim().toLowerCase() === QR_CONTENT_TYPE &&
      response.body.length > PNG_SIGNATURE.length &&
      PNG_SIGNATURE.every((byte, index) => response.body[index] === byte);
    if (!isPng) {
      throw new ResponseVerificationError('unexpectedResponse', endpoint, 'the answer is not a PNG image; nothing can be shown.');
    }
    return new Uint8Array(response.body);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  private run<T>(operation: PublicOperation, attempt: () => Promise<T>): Promise<T> {
    return runWithRetry(operation, attempt, this.#retry);
  }

  /** POSTs form parameters (§5.6) and parses the plain JSON envelope. */
  private async postForm(
    operation: Exclude<PublicOperation, 'generateAddressQrCode'>,
    form: Record<string, string>,
  ): Promise<PublicEnvelope> {
    const response = await this.run(operation, () =>
      this.#http.request({
        method: 'POST',
        path: PATHS[operation],
        endpoint: operation,
        headers: { 'content-type': PUBLIC_FORM_CONTENT_TYPE },
        body: new URLSearchParams(form).toString(),
      }),
    );
    if (response.status !== 200) {
      throw new ResponseVerificationError(
        'unexpectedResponse',
        operation,
        `the service answered HTTP ${response.status} instead of 200; check the service base URL.`,
      );
    }
    const envelope = parseLooseEnvelope(response);
    if (envelope === undefined || (envelope.code !== CODE_SUCCESS && envelope.code !== CODE_FAILURE)) {
      throw new ResponseVerificationError('malformedEnvelope', operation, 'the answer is not the JSON envelope {code, data, message}.');
    }
    return envelope;
  }
}

function parseLooseEnvelope(response: HttpResponse): PublicEnvelope | undefined {
  let json: unknown;
  try {
    json = JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = publicEnvelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function rawOf(envelope: PublicEnvelope): RawEnvelope {
  const data = typeof envelope.data === 'string' ? envelope.data : JSON.stringify(envelope.data);
  return { code: envelope.code, data, message: envelope.message };
}

function checkText(argument: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_PARAMETER || /\s/.test(value)) {
    throw new InvalidArgumentError(argument, `must be 1-${MAX_TEXT_PARAMETER} characters without spaces. Nothing was sent.`);
  }
  return value;
}

function checkCoinType(coinType: unknown): CurrencySymbol {
  const parsed = currencySymbolSchema.safeParse(coinType);
  if (!parsed.success) {
    throw new InvalidArgumentError('coinType', `must be one of ${WITHDRAWAL_CURRENCIES.join(', ')}. Nothing was sent.`);
  }
  return parsed.data;
}
