// A small signing client for tests and benchmarks that speaks the merchant API with raw HTTP (node:http): correct
// requests per PROTOCOL §2–§6 by default, and any part deliberately wrong on request (missing or bad headers, stale
// timestamps, replayed nonces, foreign signatures, raw bodies, declared lengths). Answers are verified per §3.3.
import type { KeyObject } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { decryptJson, encryptJson } from '../../electron/protocol/cipher';
import { parseEnvelope, type Envelope } from '../../electron/protocol/envelope';
import { parsePrivateKey, parsePublicKey } from '../../electron/protocol/keys';
import { BUSINESS_REQUEST_CONTENT_TYPE, CODE_SUCCESS, HEADER, PATHS, PUBLIC_FORM_CONTENT_TYPE } from '../../electron/protocol/profile';
import { signingInput, signText, verifyText } from '../../electron/protocol/signature';
import { authorizationHeader, newNonce } from '../../electron/protocol/wire';

export interface RawCredentials {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: string;
  readonly merchantPrivateKey: string;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
}

export interface RawRequestOptions {
  readonly method?: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  readonly agent?: Agent | false;
  readonly timeoutMs?: number;
}

/** One HTTP request; resolves with the whole answer (never rejects on HTTP status). */
export function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent ?? false });
    request.setTimeout(options.timeoutMs ?? 15_000, () => request.destroy(new Error(`no answer from ${url}`)));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

/** POST form parameters to a public endpoint (§5.6). */
export async function postForm(baseUrl: string, path: string, params: Record<string, string>): Promise<RawResponse & { json: unknown }> {
  const response = await rawRequest(baseUrl + path, {
    method: 'POST',
    headers: { 'Content-Type': PUBLIC_FORM_CONTENT_TYPE },
    body: new URLSearchParams(params).toString(),
  });
  return { ...response, json: JSON.parse(response.text) as unknown };
}

/** Admin JSON call. */
export async function admin<T = Record<string, unknown>>(adminUrl: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await rawRequest(adminUrl + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, json: JSON.parse(response.text) as T };
}

/** What can be overridden on a signed business request; `null` omits a header. */
export interface CallOverrides {
  readonly appId?: string | null;
  readonly token?: string | null;
  readonly timestamp?: string | null;
  readonly nonce?: string | null;
  /** An explicit SVC-SIGN value (else the correct signature of what is sent). */
  readonly sign?: string | null;
  /** Sign with this private key instead of the merchant's. */
  readonly signWith?: KeyObject;
  /** Encrypt to this public key instead of the platform's. */
  readonly encryptWith?: KeyObject;
  /** Send this body text instead of the encrypted payload (it is still signed unless `sign` is given). */
  readonly rawBody?: string;
  readonly method?: string;
  readonly headers?: OutgoingHttpHeaders;
}

export interface SignedCall extends RawResponse {
  /** The parsed envelope, when the body is one. */
  readonly envelope?: Envelope;
  /** True when SVC-SIGN verifies over timestamp, nonce and data with the platform public key (§3.3). */
  readonly verified: boolean;
  /** The decrypted business JSON of a success answer. */
  readonly data?: unknown;
  /** The headers of the request as sent (for replays). */
  readonly sent: { readonly headers: Record<string, string>; readonly body: string };
}

export class RawMerchant {
  readonly platformPublicKey: KeyObject;
  readonly merchantPrivateKey: KeyObject;
  /** Added to the local clock when stamping requests (follow the sandbox's /sandbox/clock offset). */
  clockOffsetSeconds = 0;
  token: string | undefined;
  /** Decrypt success data (default). Throughput runs turn it off: a 100-record page is 167 private-key operations. */
  decryptAnswers = true;

  constructor(
    readonly credentials: RawCredentials,
    readonly agent: Agent | false = false,
  ) {
    this.platformPublicKey = parsePublicKey(credentials.platformPublicKey, 'platform public key');
    this.merchantPrivateKey = parsePrivateKey(credentials.merchantPrivateKey, 'merchant private key');
  }

  /** A keep-alive agent for throughput runs. */
  static keepAliveAgent(): Agent {
    return new Agent({ keepAlive: true, maxSockets: 8 });
  }

  nowSeconds(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
  }

  /** getToken (§6.1); `authorization` overrides the header (`null` omits it). Stores the token on success. */
  async getToken(authorization?: string | null, appId?: string | null): Promise<SignedCall> {
    const headers: Record<string, string> = { 'Content-Type': BUSINESS_REQUEST_CONTENT_TYPE };
    const id = appId === undefined ? this.credentials.merchantId : appId;
    if (id !== null) headers[HEADER.appId] = id;
    const auth = authorization === undefined ? authorizationHeader(this.credentials.merchantId, this.credentials.secret) : authorization;
    if (auth !== null) headers[HEADER.authorization] = auth;
    const response = await rawRequest(this.credentials.baseUrl + PATHS.getToken, { method: 'POST', headers, body: '', agent: this.agent });
    const call = this.open(response, { headers, body: '' });
    if (call.envelope?.code === CODE_SUCCESS) this.token = (call.data as { token: string }).token;
    return call;
  }

  /** Builds the headers and body of a signed business request (§2, §3.2, §5.1). */
  build(payload: unknown, overrides: CallOverrides = {}): { headers: Record<string, string>; body: string } {
    const body = overrides.rawBody ?? encryptJson(payload, overrides.encryptWith ?? this.platformPublicKey);
    const timestamp = overrides.timestamp === undefined ? String(this.nowSeconds()) : overrides.timestamp;
    const nonce = overrides.nonce === undefined ? newNonce() : overrides.nonce;
    const headers: Record<string, string> = { 'Content-Type': BUSINESS_REQUEST_CONTENT_TYPE };
    const appId = overrides.appId === undefined ? this.credentials.merchantId : overrides.appId;
    const token = overrides.token === undefined ? this.token : overrides.token;
    if (appId !== null) headers[HEADER.appId] = appId;
    if (token !== null && token !== undefined) headers[HEADER.token] = token;
    if (timestamp !== null) headers[HEADER.timestamp] = timestamp;
    if (nonce !== null) headers[HEADER.nonce] = nonce;
    const sign =
      overrides.sign === undefined
        ? signText(signingInput(timestamp ?? '', nonce ?? '', body), overrides.signWith ?? this.merchantPrivateKey)
        : overrides.sign;
    if (sign !== null) headers[HEADER.sign] = sign;
    for (const [name, value] of Object.entries(overrides.headers ?? {})) if (value !== undefined) headers[name] = String(value);
    return { headers, body };
  }

  /** A signed, encrypted business request; the answer verified and decrypted. */
  async call(path: string, payload: unknown = {}, overrides: CallOverrides = {}): Promise<SignedCall> {
    const sent = this.build(payload, overrides);
    return this.send(path, sent, overrides.method);
  }

  /** Sends exactly these headers and body (a replay sends the same twice). */
  async send(path: string, sent: { headers: Record<string, string>; body: string }, method = 'POST'): Promise<SignedCall> {
    const response = await rawRequest(this.credentials.baseUrl + path, { method, headers: sent.headers, body: sent.body, agent: this.agent });
    return this.open(response, sent);
  }

  /** Parses and verifies an answer (§3.3: timestamp \n nonce \n data, platform public key) and decrypts success data. */
  open(response: RawResponse, sent: { headers: Record<string, string>; body: string }): SignedCall {
    const parsed = parseEnvelope(response.text);
    if (!parsed.ok) return { ...response, verified: false, sent };
    const envelope = parsed.envelope;
    const timestamp = response.headers[HEADER.timestamp.toLowerCase()];
    const nonce = response.headers[HEADER.nonce.toLowerCase()];
    const sign = response.headers[HEADER.sign.toLowerCase()];
    const verified =
      typeof timestamp === 'string' &&
      typeof nonce === 'string' &&
      typeof sign === 'string' &&
      verifyText(signingInput(timestamp, nonce, envelope.data), sign, this.platformPublicKey);
    const data = envelope.code === CODE_SUCCESS && verified && this.decryptAnswers ? decryptJson(envelope.data, this.merchantPrivateKey) : undefined;
    return { ...response, envelope, verified, data, sent };
  }
}

/** The data of a verified success answer, or an error naming the refusal. */
export function expectData<T = Record<string, unknown>>(call: SignedCall): T {
  if (call.envelope?.code !== CODE_SUCCESS || !call.verified) {
    throw new Error(`expected a verified success, got HTTP ${call.status}: ${call.text.slice(0, 200)}`);
  }
  return call.data as T;
}
