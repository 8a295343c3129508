// A controllable fake of the payment platform for protocol tests: node:http on 127.0.0.1 port 0, answering with
// correctly signed and encrypted envelopes built from the protocol primitives, with switches to misbehave on purpose.
// Test-only: it is not the sandbox (electron/sandbox/), and it keeps just enough state for the client's tests.
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { ADDRESS_TYPES, QR_ADDRESS_TYPES, WITHDRAWAL_CURRENCIES } from '../../electron/chains/currencies';
import { decryptJson, encryptJson } from '../../electron/protocol/cipher';
import { failureEnvelope, successEnvelope, toEscapedJson, type Envelope } from '../../electron/protocol/envelope';
import {
  AMOUNT_PATTERN,
  CALLBACK_CONTENT_TYPE,
  CODE_FAILURE,
  DEPOSITS_LIMIT_MAX,
  DEPOSITS_LIMIT_MIN,
  HEADER,
  MAX_REQUEST_BODY_BYTES,
  NOT_WHITELISTED_BODY,
  PATHS,
  QR_ADDRESS_PATTERN,
  USER_ORDER_PATTERN,
} from '../../electron/protocol/profile';
import { signText, signingInput, verifyText } from '../../electron/protocol/signature';
import {
  authorizationHeader,
  isValidNonce,
  isWithinWindow,
  newNonce,
  NonceMemory,
  parseTimestamp,
  type Clock,
} from '../../electron/protocol/wire';

export interface FakeKeys {
  readonly platformPublicKey: KeyObject;
  readonly platformPrivateKey: KeyObject;
  readonly merchantPublicKey: KeyObject;
  readonly merchantPrivateKey: KeyObject;
}

let sharedKeys: FakeKeys | undefined;

/** Two 2048-bit RSA pairs, generated once per test process (key generation is the slow part). */
export function fakeKeys(): FakeKeys {
  if (!sharedKeys) {
    const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
    sharedKeys = {
      platformPublicKey: platform.publicKey,
      platformPrivateKey: platform.privateKey,
      merchantPublicKey: merchant.publicKey,
      merchantPrivateKey: merchant.privateKey,
    };
  }
  return sharedKeys;
}

/** Ways to break the transport for one path. */
export type TransportFault =
  | 'destroyAfterRequest' // read the request, then destroy the socket without answering
  | 'stall' // read the request and never answer
  | 'http500'
  | 'http413'
  | 'truncate' // promise 1000 bytes, send 10, close
  | 'oversized' // answer a 200 body of 5 MB
  | 'garbage'; // answer 200 with a non-JSON body

export interface FakeSwitches {
  /** Every /api/merchant/ path answers 403 `Oops` (§5.3). */
  notWhitelisted: boolean;
  /** The next N authenticated business calls answer tokenExpired whatever the token (Infinity: always). */
  tokenExpiredTimes: number;
  /** Answer with this nonce instead of a fresh one (replays). */
  fixedResponseNonce: string | undefined;
  /** Added to the signed response timestamp (seconds). */
  responseClockOffsetSeconds: number;
  corruptSignature: boolean;
  omitSignatureHeaders: boolean;
  extraEnvelopeField: boolean;
  /** Business JSON returned instead of the real result, per path. */
  dataOverride: Map<string, unknown>;
  transport: Map<string, TransportFault>;
  /** Delay before answering any business call (lets concurrent calls overlap). */
  latencyMs: number;
  /** getDeposits pages built by the test instead of slicing `deposits`. */
  depositsPager: ((page: number, limit: number) => unknown[]) | undefined;
  /** Content type of the QR answer. */
  qrContentType: string;
  /** A fixed JSON answer for a public path, instead of the normal one. */
  publicAnswer: Map<string, { status: number; json: unknown }>;
}

function defaultSwitches(): FakeSwitches {
  return {
    notWhitelisted: false,
    tokenExpiredTimes: 0,
    fixedResponseNonce: undefined,
    responseClockOffsetSeconds: 0,
    corruptSignature: false,
    omitSignatureHeaders: false,
    extraEnvelopeField: false,
    dataOverride: new Map(),
    transport: new Map(),
    latencyMs: 0,
    depositsPager: undefined,
    qrContentType: 'image/png',
    publicAnswer: new Map(),
  };
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface FakePlatformOptions {
  readonly merchantId?: string;
  readonly secret?: string;
  /** The platform's clock (ms); default Date.now. */
  readonly clock?: Clock;
}

export interface SignedMessage {
  readonly body: string;
  /** Lower-case header names, as node:http presents them. */
  readonly headers: Record<string, string>;
}

export interface SignOptions {
  readonly timestampOffsetSeconds?: number;
  readonly nonce?: string;
  readonly extraField?: boolean;
}

type Json = Record<string, unknown>;

/** Thrown by a handler or pager: answered as the service error `reason` (code 9999). */
export class Refusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export class FakePlatform {
  readonly keys = fakeKeys();
  readonly merchantId: string;
  readonly secret: string;
  readonly requests: RecordedRequest[] = [];
  readonly issuedTokens: string[] = [];
  switches: FakeSwitches = defaultSwitches();
  deposits: Json[] = [];
  readonly orders = new Map<string, Json>();
  readonly addresses = new Map<string, { address: string; addressType: string }>();
  readonly knownTxids = new Set<string>();
  clock: Clock;
  private readonly validTokens = new Set<string>();
  private readonly requestNonces = new NonceMemory();
  private server!: Server;
  private port = 0;

  private constructor(options: FakePlatformOptions) {
    this.merchantId = options.merchantId ?? 'M100200';
    this.secret = options.secret ?? 'fake-secret-do-not-leak-7f3a';
    this.clock = options.clock ?? (() => Date.now());
  }

  static async start(options: FakePlatformOptions = {}): Promise<FakePlatform> {
    const fake = new FakePlatform(options);
    fake.server = createServer((request, response) => {
      fake.handle(request, response).catch((error: unknown) => {
        response.statusCode = 599;
        response.end(String(error));
      });
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The credentials a MerchantClient needs to talk to this fake. */
  get credentials() {
    return {
      baseUrl: this.baseUrl,
      merchantId: this.merchantId,
      secret: this.secret,
      platformPublicKey: this.keys.platformPublicKey,
      merchantPrivateKey: this.keys.merchantPrivateKey,
    };
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Back to a well-behaved platform with empty logs (state such as orders is kept unless `clearState`). */
  reset(clearState = false): void {
    this.switches = defaultSwitches();
    this.requests.length = 0;
    if (clearState) {
      this.deposits = [];
      this.orders.clear();
      this.addresses.clear();
      this.knownTxids.clear();
    }
  }

  /** Every token issued so far stops working (§6.4 tokenExpired). */
  expireAllTokens(): void {
    this.validTokens.clear();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A signed envelope as the platform sends it (§3.3, §5.2): data encrypted to the merchant public key. */
  signEnvelope(envelope: Envelope, options: SignOptions = {}): SignedMessage {
    const timestamp = String(Math.floor(this.clock() / 1000) + (options.timestampOffsetSeconds ?? 0));
    const nonce = options.nonce ?? newNonce();
    const sign = signText(signingInput(timestamp, nonce, envelope.data), this.keys.platformPrivateKey);
    const body = toEscapedJson(options.extraField ? { ...envelope, traceId: 'x1' } : envelope);
    return {
      body,
      headers: {
        'content-type': CALLBACK_CONTENT_TYPE,
        [HEADER.timestamp.toLowerCase()]: timestamp,
        [HEADER.nonce.toLowerCase()]: nonce,
        [HEADER.sign.toLowerCase()]: sign,
      },
    };
  }

  /** A callback POST as the platform delivers it (§10.1), for `verifyCallback`. */
  callback(record: unknown, options: SignOptions & { appId?: string } = {}): SignedMessage {
    const envelope = successEnvelope(encryptJson(record, this.keys.merchantPublicKey));
    const signed = this.signEnvelope(envelope, options);
    return { body: signed.body, headers: { ...signed.headers, [HEADER.appId.toLowerCase()]: options.appId ?? this.merchantId } };
  }

  /** A deposit record with sensible defaults. */
  depositRecord(apiOrder: string, overrides: Json = {}): Json {
    return {
      businessType: 'deposit',
      txid: `0x${apiOrder.padStart(64, '0').slice(-64)}`,
      address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      addressType: 'trx',
      fromAddress: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj',
      amount: '99.5',
      currency: 'trx.usdt',
      fee: '0.5',
      apiOrder,
      userOrder: 'addr-1',
      ...overrides,
    };
  }

  // -------------------------------------------------------------------------------------------------------------

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = await readBody(request);
    this.requests.push({ method: request.method ?? '', path: url.pathname, query: url.searchParams, headers: request.headers, body });

    const fault = this.switches.transport.get(url.pathname);
    if (fault !== undefined) {
      this.applyFault(fault, request, response);
      return;
    }
    if (url.pathname.startsWith('/api/merchant/')) return this.handleBusiness(url.pathname, request, body, response);
    if (url.pathname.startsWith('/api/common/')) return this.handlePublic(url, request, body, response);
    response.writeHead(404).end();
  }

  private applyFault(fault: TransportFault, request: IncomingMessage, response: ServerResponse): void {
    switch (fault) {
      case 'destroyAfterRequest':
        request.socket.destroy();
        return;
      case 'stall':
        return;
      case 'http500':
        response.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      case 'http413':
        response
          .writeHead(413, { 'content-type': 'application/json' })
          .end(toEscapedJson(failureEnvelope('requestTooLarge')));
        return;
      case 'truncate':
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"code":100');
        setTimeout(() => request.socket.destroy(), 20);
        return;
      case 'oversized':
        response.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(5 * 1024 * 1024, 0x20));
        return;
      case 'garbage':
        response.writeHead(200, { 'content-type': 'application/json' }).end('<html>proxy error</html>');
        return;
      default: {
        const unreachable: never = fault;
        throw new Error(`unknown fault ${String(unreachable)}`);
      }
    }
  }

  private async handleBusiness(path: string, request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    if (this.switches.notWhitelisted) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end(NOT_WHITELISTED_BODY);
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    if (Buffer.byteLength(body) > MAX_REQUEST_BODY_BYTES) {
      this.answer(response, failureEnvelope('requestTooLarge'), 413);
      return;
    }
    if (this.switches.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.switches.latencyMs));

    let data: unknown;
    try {
      data = path === PATHS.getToken ? this.getToken(request) : this.business(path, request, body);
    } catch (error) {
      if (error instanceof Refusal) {
        this.answer(response, failureEnvelope(error.reason));
        return;
      }
      throw error;
    }
    if (data === NOT_FOUND) {
      response.writeHead(404).end();
      return;
    }
    const result = this.switches.dataOverride.has(path) ? this.switches.dataOverride.get(path) : data;
    this.answer(response, successEnvelope(encryptJson(result, this.keys.merchantPublicKey)));
  }

  private answer(response: ServerResponse, envelope: Envelope, status = 200): void {
    const signed = this.signEnvelope(envelope, {
      timestampOffsetSeconds: this.switches.responseClockOffsetSeconds,
      nonce: this.switches.fixedResponseNonce,
      extraField: this.switches.extraEnvelopeField,
    });
    const headers: Record<string, string> = { ...signed.headers };
    if (this.switches.corruptSignature) {
      const key = HEADER.sign.toLowerCase();
      const original = headers[key] ?? '';
      headers[key] = (original.startsWith('A') ? 'B' : 'A') + original.slice(1);
    }
    if (this.switches.omitSignatureHeaders) delete headers[HEADER.sign.toLowerCase()];
    response.writeHead(status, headers).end(signed.body);
  }

  private getToken(request: IncomingMessage): unknown {
    const appId = request.headers[HEADER.appId.toLowerCase()];
    const authorization = request.headers.authorization;
    if (appId !== this.merchantId || authorization !== authorizationHeader(this.merchantId, this.secret)) {
      throw new Refusal('authFailed');
    }
    const token = randomBytes(32).toString('base64url');
    this.validTokens.add(token);
    this.issuedTokens.push(token);
    return { token };
  }

  /** The server-side checks of §4.5 in order, then the endpoint. */
  private business(path: string, request: IncomingMessage, body: string): unknown {
    const header = (name: string): string | undefined => {
      const value = request.headers[name.toLowerCase()];
      return typeof value === 'string' ? value : undefined;
    };
    const appId = header(HEADER.appId);
    const token = header(HEADER.token);
    const timestamp = header(HEADER.timestamp);
    const nonce = header(HEADER.nonce);
    const sign = header(HEADER.sign);
    if (appId !== this.merchantId || !timestamp || !nonce || !sign) throw new Refusal('signatureFailed');
    if (token === undefined || !this.validTokens.has(token)) throw new Refusal('tokenExpired');
    if (this.switches.tokenExpiredTimes > 0) {
      this.switches.tokenExpiredTimes -= 1;
      throw new Refusal('tokenExpired');
    }
    const nowSeconds = Math.floor(this.clock() / 1000);
    const seconds = parseTimestamp(timestamp);
    if (seconds === undefined || !isWithinWindow(seconds, nowSeconds) || !isValidNonce(nonce)) throw new Refusal('signatureFailed');
    if (this.requestNonces.has(nonce, nowSeconds)) throw new Refusal('signatureFailed');
    if (!verifyText(signingInput(timestamp, nonce, body), sign, this.keys.merchantPublicKey)) throw new Refusal('signatureFailed');
    this.requestNonces.remember(nonce, nowSeconds);
    let payload: unknown;
    try {
      payload = decryptJson(body, this.keys.platformPrivateKey);
    } catch {
      throw new Refusal('decryptFailed');
    }
    const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Json;

    switch (path) {
      case PATHS.createAddress:
        return this.createAddress(fields);
      case PATHS.createWithdrawOrder:
        return this.createWithdrawOrder(fields);
      case PATHS.merchantInfo:
        return {
          merchantId: this.merchantId,
          merchantName: 'Fake Merchant',
          apiVersion: 2,
          withdrawTypes: ['normal', 'financialConfirmation'],
          auditorMessengerBound: true,
          balances: WITHDRAWAL_CURRENCIES.map((currency) => ({ currency, available: '1000', frozen: '0' })),
        };
      case PATHS.getDeposits:
        return this.getDeposits(fields);
      case PATHS.checkWithdrawOrder: {
        const order = typeof fields.userOrder === 'string' ? this.orders.get(fields.userOrder) : undefined;
        if (!order) throw new Refusal('withdrawOrderNotExist');
        return order;
      }
      case PATHS.selfcheck:
        return { pong: true, apiVersion: 2, serverTime: nowSeconds, echo: payload };
      default:
        return NOT_FOUND;
    }
  }

  private createAddress(fields: Json): unknown {
    const { userOrder, addressType } = fields;
    if (typeof userOrder !== 'string' || !USER_ORDER_PATTERN.test(userOrder)) throw new Refusal('paramError');
    if (typeof addressType !== 'string' || !(ADDRESS_TYPES as readonly string[]).includes(addressType)) throw new Refusal('paramError');
    const existing = this.addresses.get(userOrder);
    if (existing && existing.addressType !== addressType) throw new Refusal('userOrderConflict');
    const created = existing ?? { address: `T${randomBytes(16).toString('hex').slice(0, 33)}`, addressType };
    this.addresses.set(userOrder, created);
    return { ...created, userOrder };
  }

  private createWithdrawOrder(fields: Json): unknown {
    const { userOrder, currency, amount, toAddress } = fields;
    const withdrawType = fields.withdrawType ?? 'normal';
    if (typeof userOrder !== 'string' || !USER_ORDER_PATTERN.test(userOrder)) throw new Refusal('paramError');
    if (typeof currency !== 'string' || !(WITHDRAWAL_CURRENCIES as readonly string[]).includes(currency)) {
      throw new Refusal('currencyNotSupported');
    }
    if (typeof amount !== 'string' || !AMOUNT_PATTERN.test(amount)) throw new Refusal('invalidAmount');
    if (typeof toAddress !== 'string' || toAddress.length === 0) throw new Refusal('invalidAddress');
    const existing = this.orders.get(userOrder);
    if (existing) {
      if (existing.amount !== amount || existing.currency !== currency || existing.toAddress !== toAddress) {
        throw new Refusal('userOrderConflict');
      }
      return existing;
    }
    const order: Json = {
      businessType: 'withdraw',
      toAddress,
      amount,
      currency,
      fee: '1',
      apiOrder: `W${this.orders.size + 1}`,
      userOrder,
      withdrawType,
      message: '',
      txid: '',
      orderStatus: 'pendingConfirm',
    };
    this.orders.set(userOrder, order);
    return order;
  }

  private getDeposits(fields: Json): unknown {
    const page = fields.page ?? 1;
    const limit = fields.limit ?? 10;
    if (typeof limit !== 'number' || limit < DEPOSITS_LIMIT_MIN || limit > DEPOSITS_LIMIT_MAX) throw new Refusal('limitError');
    if (typeof page !== 'number' || page < 1) throw new Refusal('paramError');
    if (this.switches.depositsPager) return this.switches.depositsPager(page, limit);
    const filtered = typeof fields.currency === 'string' ? this.deposits.filter((deposit) => deposit.currency === fields.currency) : this.deposits;
    return filtered.slice((page - 1) * limit, page * limit);
  }

  private async handlePublic(url: URL, request: IncomingMessage, body: string, response: ServerResponse): Promise<void> {
    const json = (value: unknown, status = 200) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const form = new URLSearchParams(body);
    const fixed = this.switches.publicAnswer.get(url.pathname);
    if (fixed !== undefined) {
      json(fixed.json, fixed.status);
      return;
    }
    switch (url.pathname) {
      case PATHS.getCurrencies:
        json({
          code: 10000,
          message: 'success',
          data: WITHDRAWAL_CURRENCIES.map((symbol) => ({
            name: symbol.toUpperCase(),
            symbol,
            deposit_fixed_fee: '0',
            deposit_percent_fee: '0.5',
            withdraw_fixed_fee: '1',
            withdraw_percent_fee: '0',
            deposit_min_fee: '0',
            deposit_max_fee: '0',
            withdraw_min_fee: '1',
            withdraw_max_fee: '0',
            deposit_min: '1',
            withdraw_min: '10',
          })),
        });
        return;
      case PATHS.isAddress: {
        const address = form.get('address') ?? '';
        const coin = form.get('coin_type') ?? '';
        const valid = coin.startsWith('trx') ? /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address) : address.length > 0;
        json({ code: valid ? 10000 : CODE_FAILURE, data: '', message: valid ? 'success' : 'invalidAddress' });
        return;
      }
      case PATHS.checkTransfer: {
        const valid = this.knownTxids.has(form.get('txid') ?? '');
        json({ code: valid ? 10000 : CODE_FAILURE, data: '', message: valid ? 'success' : 'transactionNotFound' });
        return;
      }
      case PATHS.generateAddressQrCode: {
        if (request.method !== 'GET') {
          response.writeHead(405).end();
          return;
        }
        const address = url.searchParams.get('address') ?? '';
        const type = url.searchParams.get('address_type') ?? '';
        if (!QR_ADDRESS_PATTERN.test(address) || !(QR_ADDRESS_TYPES as readonly string[]).includes(type)) {
          json({ code: CODE_FAILURE, data: '', message: 'paramError' }, 400);
          return;
        }
        const png = await QRCode.toBuffer(address, { type: 'png' });
        response.writeHead(200, { 'content-type': this.switches.qrContentType }).end(png);
        return;
      }
      default:
        response.writeHead(404).end();
    }
  }
}

const NOT_FOUND = Symbol('not found');

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
