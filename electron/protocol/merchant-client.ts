// MerchantClient: the typed merchant API v2 client (stripe-node style): small methods over one private send() that
// encrypts (§2), refuses oversize bodies before sending (§5.4), signs (§3.2), sends (§5.1), verifies (§4) and retries
// (retry.ts). It reports what the desk watches about the connection (the token's lifetime, the clock drift read from
// each verified answer, the whitelist refusals). Invariant: the secret and tokens go only into request headers,
// never into an error, a log or those reports.
import type { KeyObject } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import Decimal from 'decimal.js';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { WITHDRAWAL_CURRENCIES, type AddressType, type CurrencySymbol } from '../chains/currencies';
import { encryptBytes } from './cipher';
import { inlineDecryptor, type PayloadDecryptor } from './decryptor';
import { InvalidArgumentError, NotWhitelistedError, RequestTooLargeError, ResponseVerificationError, ServiceError, TransportError } from './errors';
import { HttpTransport, singleHeader, type HttpTimeouts } from './http';
import { modulusBytes } from './keys';
import {
  BUSINESS_REQUEST_CONTENT_TYPE,
  DEPOSITS_LIMIT_MAX,
  DEPOSITS_LIMIT_MIN,
  HEADER,
  MAX_REQUEST_BODY_BYTES,
  OAEP_OVERHEAD_BYTES,
  PATHS,
  REMARK_MAX_LENGTH,
  WITHDRAW_TYPES,
} from './profile';
import { decideRetry, realSleep, runWithRetry, type BackoffPolicy, type OperationName } from './retry';
import {
  amountProblem,
  createdAddressSchema,
  currencySymbolSchema,
  depositPageSchema,
  isReservedAddressType,
  merchantInfoSchema,
  selfcheckResultSchema,
  userOrderSchema,
  withdrawalOrderRecordSchema,
  addressTypeSchema,
  type CreatedAddress,
  type DepositRecord,
  type MerchantInfo,
  type SelfcheckResult,
  type WithdrawType,
  type WithdrawalOrderRecord,
} from './schemas';
import { signText, signingInput } from './signature';
import { readBusinessResponse, type VerifyContext } from './verify';
import { TokenManager, requestToken, type TokenLifetime } from './token-manager';
import { NonceMemory, newNonce, parseTimestamp, systemClock, unixSeconds, type Clock, type ReplayMemory } from './wire';

export interface MerchantClientOptions {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secret: string;
  /** Parsed once (§1.2, house rule 3): encrypts requests and verifies answers. */
  readonly platformPublicKey: KeyObject;
  /** Parsed once: signs requests; decrypts answers through `decryptor` (default: inline on this thread). */
  readonly merchantPrivateKey: KeyObject;
  /** Decrypts answers, e.g. the worker pool. Owned by the caller: `close()` does not close an injected one. */
  readonly decryptor?: PayloadDecryptor;
  readonly clock?: Clock;
  /** Response nonces seen (§4.4); share one with the callback receiver so a callback cannot replay a response. */
  readonly nonceMemory?: ReplayMemory;
  readonly dispatcher?: Dispatcher;
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly maxResponseBytes?: number;
  readonly backoff?: BackoffPolicy;
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told each session token as it arrives (the engine registers it with its log redactor); never told anything else. */
  readonly onToken?: (token: string) => void;
  /** Told the clock drift (server minus local, whole seconds) read from each verified answer's SVC-TIMESTAMP. */
  readonly onClockDrift?: (driftSeconds: number) => void;
  /** Told each `Oops` (§5.3, the IP whitelist refusal), getToken's included, with the endpoint refused. */
  readonly onNotWhitelisted?: (endpoint: string) => void;
}

export interface CreateAddressParams {
  readonly userOrder: string;
  readonly addressType: AddressType;
}

export interface CreateWithdrawOrderParams {
  readonly userOrder: string;
  readonly currency: CurrencySymbol;
  /** Decimal string (§9.1), at most the currency's decimals (§9.2). */
  readonly amount: string;
  readonly toAddress: string;
  /** Default `normal` on the service side (§8). */
  readonly withdrawType?: WithdrawType;
  /** At most 255 characters (§8). */
  readonly remark?: string;
}

export interface GetDepositsParams {
  readonly currency?: CurrencySymbol;
  /** 1-based; default 1. */
  readonly page?: number;
  /** 1..100, default 10 on the service; outside the range is refused here, never clamped. */
  readonly limit?: number;
}

export interface DepositScanParams {
  readonly currency?: CurrencySymbol;
  /** Page size, 1..100; default 100 (fewest requests). */
  readonly limit?: number;
  /** The page to start from (1-based; default 1): a walk interrupted earlier resumes where it stopped. */
  readonly firstPage?: number;
  /**
   * Ask for page N+1 while page N is still being decrypted, so the service's work (and the wire) overlaps the
   * private-key work. It costs one request past the last page, or past the page where the consumer stops: use it
   * for long walks (a full or first sync), not for a check of the newest page. Default false.
   */
  readonly prefetch?: boolean;
}

export interface DepositPage {
  readonly page: number;
  /** Records of this page not seen on an earlier page of the same scan (deduplicated by apiOrder, §8). */
  readonly records: readonly DepositRecord[];
  /** This page is short or empty: the end of the service's list (always yielded, even with no new record). */
  readonly last: boolean;
}

export interface SelfcheckOutcome {
  readonly result: SelfcheckResult;
  /** Server time minus this computer's time, whole seconds (positive: the local clock is behind). */
  readonly clockDriftSeconds: number;
  /** Whether `echo` equals the payload sent (the whole v2 pipeline round-tripped). */
  readonly echoMatches: boolean;
}

type BusinessOperation = Exclude<
  OperationName,
  'getToken' | 'getCurrencies' | 'isAddress' | 'checkTransfer' | 'generateAddressQrCode'
>;

/** A scan stops when this many full pages in a row bring nothing new (a server ignoring `page` would loop forever). */
const MAX_PAGES_WITHOUT_NEW_RECORDS = 3;

/**
 * A scan leaves out the records of this many pages before the one it reads (by apiOrder). Deposits that arrive while
 * a scan runs push the list down, so a page repeats the tail of the pages before it: 20 pages cover 2,000 arrivals
 * between two reads, and the store keeps a record once in any case. The scan's memory stays the same at any length
 * (remembering every apiOrder of a first sync of 1,000,000 deposits took about 80 MB).
 */
const REMEMBERED_PAGES = 20;
/** A destination as text: visible ASCII, no spaces; chain rules are the service's (§11) and the engine's. */
const DESTINATION_PATTERN = /^[\x21-\x7e]{1,128}$/;

export class MerchantClient {
  readonly merchantId: string;
  readonly #secret: string;
  readonly #platformPublicKey: KeyObject;
  readonly #merchantPrivateKey: KeyObject;
  readonly #http: HttpTransport;
  readonly #decryptor: PayloadDecryptor;
  readonly #ownsDecryptor: boolean;
  readonly #clock: Clock;
  readonly #verify: VerifyContext;
  readonly #tokens: TokenManager;
  readonly #retry: { backoff?: BackoffPolicy; random?: () => number; sleep?: (ms: number) => Promise<void> };
  readonly #onClockDrift: ((driftSeconds: number) => void) | undefined;
  readonly #onNotWhitelisted: ((endpoint: string) => void) | undefined;

  constructor(options: MerchantClientOptions) {
    if (options.merchantId.length === 0) {
      throw new InvalidArgumentError('merchantId', 'is empty; enter the merchant ID from the platform.');
    }
    if (options.secret.length === 0) {
      throw new InvalidArgumentError('secret', 'is empty; enter the merchant secret from the platform.');
    }
    if (options.platformPublicKey.type !== 'public') {
      throw new InvalidArgumentError('platformPublicKey', 'must be a parsed public key (see keys.ts parsePublicKey).');
    }
    if (options.merchantPrivateKey.type !== 'private') {
      throw new InvalidArgumentError('merchantPrivateKey', 'must be a parsed private key (see keys.ts parsePrivateKey).');
    }
    this.merchantId = options.merchantId;
    this.#secret = options.secret;
    this.#platformPublicKey = options.platformPublicKey;
    this.#merchantPrivateKey = options.merchantPrivateKey;
    this.#clock = options.clock ?? systemClock;
    this.#ownsDecryptor = options.decryptor === undefined;
    this.#decryptor = options.decryptor ?? inlineDecryptor(options.merchantPrivateKey);
    this.#http = new HttpTransport(options.baseUrl, {
      dispatcher: options.dispatcher,
      timeouts: options.timeouts,
      maxResponseBytes: options.maxResponseBytes,
    });
    this.#verify = {
      platformPublicKey: options.platformPublicKey,
      decryptor: this.#decryptor,
      nonceMemory: options.nonceMemory ?? new NonceMemory(),
      clock: this.#clock,
    };
    this.#retry = { backoff: options.backoff, random: options.random, sleep: options.sleep };
    this.#onClockDrift = options.onClockDrift;
    this.#onNotWhitelisted = options.onNotWhitelisted;
    this.#tokens = new TokenManager(
      () =>
        runWithRetry(
          'getToken',
          () => requestToken({ http: this.#http, merchantId: this.merchantId, secret: this.#secret, verify: this.#verify }),
          this.#retry,
        ).then(
          (token) => {
            options.onToken?.(token);
            return token;
          },
          (error: unknown) => {
            this.#noticeRefusal(error);
            throw error;
          },
        ),
      this.#clock,
    );
  }

  /** The current session token's issue and last-acceptance times and estimated expiry (§6.3); never the token. */
  get tokenLifetime(): TokenLifetime | null {
    return this.#tokens.lifetime;
  }

  /** Fetches a fresh token now (§6), shared with any refresh already in flight. Mostly for diagnostics. */
  async getToken(): Promise<string> {
    return this.#tokens.refresh();
  }

  /** createAddress (§8): idempotent by userOrder; same userOrder and addressType give the same address. */
  async createAddress(params: CreateAddressParams): Promise<CreatedAddress> {
    const userOrder = checkUserOrder(params.userOrder);
    const addressType = checkAddressType(params.addressType);
    const created = await this.send('createAddress', { userOrder, addressType }, createdAddressSchema);
    if (created.userOrder !== userOrder || created.addressType !== addressType) {
      throw new ResponseVerificationError(
        'unexpectedResponse',
        'createAddress',
        'the service answered with an address for another userOrder or addressType; do not use it, and report this to the platform.',
      );
    }
    return created;
  }

  /**
   * createWithdrawOrder (§8): idempotent by userOrder. Never resent after an ambiguous failure: a TransportError with
   * `ambiguous` surfaces, and the caller resolves it with checkWithdrawOrder(userOrder) (house rule 5).
   */
  async createWithdrawOrder(params: CreateWithdrawOrderParams): Promise<WithdrawalOrderRecord> {
    const userOrder = checkUserOrder(params.userOrder);
    const currency = checkCurrency(params.currency, 'currency');
    const problem = typeof params.amount === 'string' ? amountProblem(params.amount, currency) : 'must be a decimal string, not a number';
    if (problem !== undefined) throw new InvalidArgumentError('amount', `${problem}. Nothing was sent.`);
    if (typeof params.toAddress !== 'string' || !DESTINATION_PATTERN.test(params.toAddress)) {
      throw new InvalidArgumentError('toAddress', 'must be 1-128 visible characters without spaces. Nothing was sent.');
    }
    if (params.withdrawType !== undefined && !(WITHDRAW_TYPES as readonly string[]).includes(params.withdrawType)) {
      throw new InvalidArgumentError('withdrawType', `must be one of ${WITHDRAW_TYPES.join(', ')}. Nothing was sent.`);
    }
    if (params.remark !== undefined && (typeof params.remark !== 'string' || params.remark.length > REMARK_MAX_LENGTH)) {
      throw new InvalidArgumentError('remark', `must be text of at most ${REMARK_MAX_LENGTH} characters (§8). Nothing was sent.`);
    }
    const payload: Record<string, string> = { userOrder, currency, amount: params.amount, toAddress: params.toAddress };
    if (params.withdrawType !== undefined) payload.withdrawType = params.withdrawType;
    if (params.remark !== undefined) payload.remark = params.remark;

    const order = await this.send('createWithdrawOrder', payload, withdrawalOrderRecordSchema);
    if (order.userOrder !== userOrder || order.currency !== currency || !new Decimal(order.amount).eq(params.amount)) {
      throw new ResponseVerificationError(
        'unexpectedResponse',
        'createWithdrawOrder',
        `the service answered with a different order than requested; ` +
          `check it with checkWithdrawOrder("${userOrder}") before anything else.`,
      );
    }
    return order;
  }

  /** merchantInfo (§8): merchant data and per-currency balances. */
  async merchantInfo(): Promise<MerchantInfo> {
    return this.send('merchantInfo', {}, merchantInfoSchema);
  }

  /** getDeposits: one page, newest first. Out-of-range limit or page is refused before sending. */
  async getDeposits(params: GetDepositsParams = {}): Promise<DepositRecord[]> {
    const payload: Record<string, string | number> = {};
    if (params.currency !== undefined) payload.currency = checkCurrency(params.currency, 'currency');
    if (params.page !== undefined) {
      if (!Number.isSafeInteger(params.page) || params.page < 1) {
        throw new InvalidArgumentError('page', 'must be a whole number of at least 1. Nothing was sent.');
      }
      payload.page = params.page;
    }
    if (params.limit !== undefined) payload.limit = checkLimit(params.limit);
    return this.send('getDeposits', payload, depositPageSchema);
  }

  /**
   * Walks getDeposits page by page from `firstPage`, yielding only records not seen in the REMEMBERED_PAGES pages
   * before (by apiOrder), and stops at an empty or short page, which is yielded with `last` (or, without yielding a last page,
   * after repeated pages with nothing new: a service ignoring `page`).
   */
  async *depositPages(params: DepositScanParams = {}): AsyncGenerator<DepositPage, void, undefined> {
    const limit = checkLimit(params.limit ?? DEPOSITS_LIMIT_MAX);
    const currency = params.currency === undefined ? undefined : checkCurrency(params.currency, 'currency');
    const firstPage = params.firstPage ?? 1;
    if (!Number.isSafeInteger(firstPage) || firstPage < 1) {
      throw new InvalidArgumentError('firstPage', 'must be a whole number of at least 1. Nothing was sent.');
    }
    const fetchPage = (page: number): Promise<DepositRecord[]> => this.getDeposits({ currency, page, limit });
    const remembered: Array<ReadonlySet<string>> = [];
    let pagesWithoutNew = 0;
    let pending = fetchPage(firstPage);
    for (let page = firstPage; ; page += 1) {
      const ahead = params.prefetch === true ? fetchPage(page + 1) : undefined;
      // The page asked for ahead may fail while the consumer holds this one, or never be read when the walk ends
      // here: mark its failure handled now; whoever awaits it later still gets the error.
      ahead?.catch(() => undefined);
      const records = await pending;
      const thisPage = new Set<string>();
      const fresh = records.filter((record) => {
        if (thisPage.has(record.apiOrder) || remembered.some((earlier) => earlier.has(record.apiOrder))) return false;
        thisPage.add(record.apiOrder);
        return true;
      });
      remembered.push(thisPage);
      if (remembered.length > REMEMBERED_PAGES) remembered.shift();
      const last = records.length < limit;
      if (fresh.length > 0 || last) yield { page, records: fresh, last };
      if (last) return;
      pagesWithoutNew = fresh.length === 0 ? pagesWithoutNew + 1 : 0;
      if (pagesWithoutNew >= MAX_PAGES_WITHOUT_NEW_RECORDS) return;
      pending = ahead ?? fetchPage(page + 1);
    }
  }

  /** Every credited deposit once, newest first (see depositPages). */
  async *allDeposits(params: DepositScanParams = {}): AsyncGenerator<DepositRecord, void, undefined> {
    for await (const page of this.depositPages(params)) yield* page.records;
  }

  /** checkWithdrawOrder: the order's current record; ServiceError('withdrawOrderNotExist') when there is none. */
  async checkWithdrawOrder(userOrder: string): Promise<WithdrawalOrderRecord> {
    const checked = checkUserOrder(userOrder);
    const order = await this.send('checkWithdrawOrder', { userOrder: checked }, withdrawalOrderRecordSchema);
    if (order.userOrder !== checked) {
      throw new ResponseVerificationError(
        'unexpectedResponse',
        'checkWithdrawOrder',
        'the service answered with another order than the one asked for; report this to the platform.',
      );
    }
    return order;
  }

  /**
   * selfcheck (spec, §13): runs the whole v2 pipeline without side effects. Returns the result, the clock drift
   * (serverTime minus local time) and whether the echo came back unchanged.
   */
  async selfcheck(payload: unknown = { ping: 'treasury-desk' }): Promise<SelfcheckOutcome> {
    const result = await this.send('selfcheck', payload, selfcheckResultSchema);
    return {
      result,
      clockDriftSeconds: result.serverTime - unixSeconds(this.#clock),
      echoMatches: isDeepStrictEqual(result.echo, JSON.parse(jsonText(payload)) as unknown),
    };
  }

  /** Closes connections and forgets the token; closes the decryptor only if this client created it. Idempotent. */
  async close(): Promise<void> {
    this.#tokens.clear();
    await this.#http.close();
    if (this.#ownsDecryptor) await this.#decryptor.close();
  }

  /** The one request path of every business call: encrypt once, then per attempt token, sign, send, verify. */
  private async send<S extends z.ZodType>(operation: BusinessOperation, payload: unknown, schema: S): Promise<z.output<S>> {
    const plaintext = Buffer.from(jsonText(payload), 'utf8');
    const bodyBytes = encryptedLength(plaintext.length, modulusBytes(this.#platformPublicKey));
    if (bodyBytes > MAX_REQUEST_BODY_BYTES) throw new RequestTooLargeError(operation, bodyBytes, MAX_REQUEST_BODY_BYTES);
    const body = encryptBytes(plaintext, this.#platformPublicKey);

    let attempt = 1;
    let tokenRefreshes = 0;
    for (;;) {
      // Outside the retry decision: getToken retries itself, and its failure means this request was never sent.
      const token = await this.tokenFor(operation);
      try {
        const value = await this.sendOnce(operation, body, token, schema);
        this.#tokens.accepted(token);
        return value;
      } catch (error) {
        this.#noticeRefusal(error);
        if (error instanceof ServiceError && error.reason === 'tokenExpired') this.#tokens.invalidate(token);
        const decision = decideRetry({
          error,
          attempt,
          operation,
          tokenRefreshes,
          backoff: this.#retry.backoff,
          random: this.#retry.random,
        });
        if (!decision.retry) throw error;
        if (decision.refreshToken) tokenRefreshes += 1;
        else attempt += 1;
        if (decision.delayMs > 0) await (this.#retry.sleep ?? realSleep)(decision.delayMs);
      }
    }
  }

  /**
   * The current token, fetched if needed. A transport failure of getToken is re-raised for `operation` as not
   * ambiguous: without a token the business request was never sent (so a withdrawal needs no reconciliation).
   */
  private async tokenFor(operation: BusinessOperation): Promise<string> {
    try {
      return await this.#tokens.get();
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      throw new TransportError(operation, false, `could not get a session token, so nothing was sent. ${error.message}`, error.httpStatus, {
        cause: error,
      });
    }
  }

  private async sendOnce<S extends z.ZodType>(
    operation: BusinessOperation,
    body: string,
    token: string,
    schema: S,
  ): Promise<z.output<S>> {
    const timestamp = String(unixSeconds(this.#clock));
    const nonce = newNonce();
    const sign = signText(signingInput(timestamp, nonce, body), this.#merchantPrivateKey);
    const response = await this.#http.request({
      method: 'POST',
      path: PATHS[operation],
      endpoint: operation,
      headers: {
        'content-type': BUSINESS_REQUEST_CONTENT_TYPE,
        [HEADER.appId]: this.merchantId,
        [HEADER.token]: token,
        [HEADER.timestamp]: timestamp,
        [HEADER.nonce]: nonce,
        [HEADER.sign]: sign,
      },
      body,
    });
    const value = await readBusinessResponse(operation, response, schema, this.#verify);
    // Verified, so the timestamp is present and within the window.
    const serverSeconds = parseTimestamp(singleHeader(response.headers, HEADER.timestamp) ?? '');
    if (serverSeconds !== undefined) this.#onClockDrift?.(serverSeconds - unixSeconds(this.#clock));
    return value;
  }

  #noticeRefusal(error: unknown): void {
    if (error instanceof NotWhitelistedError) this.#onNotWhitelisted?.(error.endpoint);
  }
}

/** Length of the base64 ciphertext for a plaintext of `plaintextBytes` (§2.2–§2.3), computed without encrypting. */
export function encryptedLength(plaintextBytes: number, modulus: number): number {
  const blocks = Math.max(1, Math.ceil(plaintextBytes / (modulus - OAEP_OVERHEAD_BYTES)));
  return 4 * Math.ceil((blocks * modulus) / 3);
}

/** The JSON text of a request payload (§2.1), or InvalidArgumentError for values JSON cannot carry. */
function jsonText(payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new InvalidArgumentError('payload', 'must be a JSON value (no functions, BigInt or cycles). Nothing was sent.');
  }
  return text;
}

function checkUserOrder(userOrder: unknown): string {
  const result = userOrderSchema.safeParse(userOrder);
  if (!result.success) {
    throw new InvalidArgumentError('userOrder', 'must be 1-64 characters of letters, digits, "_" or "-" (§8). Nothing was sent.');
  }
  return result.data;
}

function checkAddressType(addressType: unknown): AddressType {
  if (typeof addressType === 'string' && isReservedAddressType(addressType)) {
    throw new InvalidArgumentError('addressType', `"${addressType}" is reserved and not offered in production. Nothing was sent.`);
  }
  const result = addressTypeSchema.safeParse(addressType);
  if (!result.success) {
    throw new InvalidArgumentError('addressType', `must be one of ${addressTypeSchema.options.join(', ')}. Nothing was sent.`);
  }
  return result.data;
}

function checkCurrency(currency: unknown, argument: string): CurrencySymbol {
  const result = currencySymbolSchema.safeParse(currency);
  if (!result.success) {
    throw new InvalidArgumentError(argument, `must be one of ${WITHDRAWAL_CURRENCIES.join(', ')}. Nothing was sent.`);
  }
  return result.data;
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < DEPOSITS_LIMIT_MIN || limit > DEPOSITS_LIMIT_MAX) {
    throw new InvalidArgumentError(
      'limit',
      `must be a whole number from ${DEPOSITS_LIMIT_MIN} to ${DEPOSITS_LIMIT_MAX} ` +
        '(the service refuses others with limitError). Nothing was sent.',
    );
  }
  return limit;
}
