// The merchant interface (`/api/merchant/`): the §4.5 pipeline (IP whitelist, body size, headers present, token,
// timestamp window, nonce, signature, decryption, then the endpoint's rules) and the seven business endpoints.
// Every answer is an envelope signed with the platform private key (§3.3, failures too with data ""), success data
// encrypted to the merchant public key (§2), every '/' escaped (§5.2). State changes commit before the answer.
import { randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAddressType, RESERVED_ADDRESS_TYPES } from '../chains';
import { decryptBytes, encryptJson, parsePlaintextJson } from '../protocol/cipher';
import { failureEnvelope, successEnvelope, toEscapedJson, type Envelope } from '../protocol/envelope';
import {
  API_VERSION,
  DEPOSITS_LIMIT_DEFAULT,
  DEPOSITS_LIMIT_MAX,
  DEPOSITS_LIMIT_MIN,
  HEADER,
  MAX_REQUEST_BODY_BYTES,
  NONCE_MEMORY_SECONDS,
  NOT_WHITELISTED_BODY,
  NOT_WHITELISTED_STATUS,
  PATHS,
  REQUEST_TOO_LARGE_STATUS,
  TOKEN_ABSOLUTE_SECONDS,
  TOKEN_BYTES,
  TOKEN_SLIDING_SECONDS,
  USER_ORDER_PATTERN,
  type KnownServiceErrorMessage,
} from '../protocol/profile';
import { signingInput, signText, verifyText } from '../protocol/signature';
import { authorizationHeader, isValidNonce, isWithinWindow, newNonce, parseTimestamp } from '../protocol/wire';
import { header, readBody, send, sendAndStopReading, sendMethodNotAllowed, sendNotFound } from './http';
import { balancesOf, depositsPage, findWithdrawal, isDepositCurrency, withdrawalRecord } from './ledger';
import { isWhitelisted, type MerchantContext } from './merchants';
import type { SandboxService } from './service';
import { sql, type Db, type TokenRow } from './store';

type BusinessEndpoint = 'createAddress' | 'createWithdrawOrder' | 'merchantInfo' | 'getDeposits' | 'checkWithdrawOrder' | 'selfcheck';

const SIGNED_ENDPOINTS: Readonly<Record<string, BusinessEndpoint>> = {
  [PATHS.createAddress]: 'createAddress',
  [PATHS.createWithdrawOrder]: 'createWithdrawOrder',
  [PATHS.merchantInfo]: 'merchantInfo',
  [PATHS.getDeposits]: 'getDeposits',
  [PATHS.checkWithdrawOrder]: 'checkWithdrawOrder',
  [PATHS.selfcheck]: 'selfcheck',
};

/** How often (sandbox seconds) expired nonces are deleted; lookups check expiry themselves. */
const NONCE_PRUNE_INTERVAL_SECONDS = 30;

/** What an envelope answers: the business value, or a failure message. */
type Answer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };
/** An answer, or an injected gateway failure (faults.ts): a bare HTTP error, no envelope. */
type Outcome = Answer | { readonly ok: false; readonly httpStatus: number };

const fail = (message: KnownServiceErrorMessage): Answer => ({ ok: false, message });
const succeed = (value: unknown): Answer => ({ ok: true, value });

export class MerchantApi {
  private lastNoncePrune = 0;

  constructor(
    private readonly service: SandboxService,
    private readonly platformPrivateKey: KeyObject,
  ) {}

  /** Answers one request under /api/merchant/ (§5.3: the whitelist guards every such path, unknown ones included). */
  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const appId = header(request, HEADER.appId);
    const merchant = appId === undefined ? undefined : this.service.merchants.get(appId);
    // §4.5 step 1 / §5.3: IP whitelist of the named merchant, before anything else (an unknown merchant has none).
    if (merchant && !isWhitelisted(merchant.whitelist, request.socket.remoteAddress)) {
      // A stranger's body is never read.
      return sendAndStopReading(response, NOT_WHITELISTED_STATUS, { 'Content-Type': 'text/plain' }, NOT_WHITELISTED_BODY);
    }
    const isGetToken = path === PATHS.getToken;
    const endpoint = SIGNED_ENDPOINTS[path];
    if (!isGetToken && endpoint === undefined) return sendNotFound(response); // §5.5
    if (request.method !== 'POST') return sendMethodNotAllowed(response, 'POST'); // §5.5
    // §4.5 step 2 / §5.4: body size, reading stops at the limit.
    const body = await readBody(request, MAX_REQUEST_BODY_BYTES);
    if (body.kind === 'aborted') return;
    if (body.kind === 'tooLarge') {
      const answer = this.envelope(merchant, fail('requestTooLarge'));
      return sendAndStopReading(response, REQUEST_TOO_LARGE_STATUS, answer.headers, answer.body);
    }
    const outcome = endpoint === undefined ? this.getToken(request, merchant) : this.signed(request, body.body.toString('utf8'), merchant, endpoint);
    if ('httpStatus' in outcome) {
      await this.service.commits.settled();
      return send(response, outcome.httpStatus, { 'Content-Type': 'text/plain' }, `injected fault: HTTP ${outcome.httpStatus}`);
    }
    const answer = this.envelope(merchant, outcome);
    await this.service.commits.settled(); // commit before answering: nothing acknowledged is lost by kill -9
    send(response, 200, answer.headers, answer.body); // §5.2 / §7: failures keep HTTP 200
  }

  // ---- getToken (§6) ------------------------------------------------------------------------------------------

  private getToken(request: IncomingMessage, merchant: MerchantContext | undefined): Answer {
    const authorization = header(request, HEADER.authorization);
    if (!merchant || authorization === undefined) return fail('authFailed');
    const expected = Buffer.from(authorizationHeader(merchant.config.merchantId, merchant.secret), 'utf8');
    const given = Buffer.from(authorization, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('authFailed');
    // §6.2: 43 characters of base64url from 32 random bytes; §6.3: expiry starts at now + 8 h.
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.service.clock.nowSeconds();
    const { db } = this.service;
    this.service.commits.write(() => {
      sql(db, 'INSERT INTO tokens (token, merchant_id, issued_at, expires_at) VALUES (?, ?, ?, ?)').run(
        token,
        merchant.config.merchantId,
        now,
        Math.min(now + TOKEN_SLIDING_SECONDS, now + TOKEN_ABSOLUTE_SECONDS),
      );
    });
    return succeed({ token });
  }

  // ---- the signed pipeline (§4.5) -----------------------------------------------------------------------------

  private signed(request: IncomingMessage, bodyText: string, merchant: MerchantContext | undefined, endpoint: BusinessEndpoint): Outcome {
    const { db, clock } = this.service;
    const appId = header(request, HEADER.appId);
    const tokenText = header(request, HEADER.token);
    const timestampText = header(request, HEADER.timestamp);
    const nonce = header(request, HEADER.nonce);
    const signature = header(request, HEADER.sign);
    // Step 3: headers present. A missing token is a token failure (§6.4), checked at step 4.
    if (appId === undefined || timestampText === undefined || nonce === undefined || signature === undefined) return fail('signatureFailed');
    const now = clock.nowSeconds();
    // Step 4: token (§6.3, §6.4): missing, unknown, another merchant's or expired -> tokenExpired.
    const token =
      tokenText === undefined ? undefined : (sql(db, 'SELECT * FROM tokens WHERE token = ?').get(tokenText) as TokenRow | undefined);
    if (!merchant || !token || token.merchant_id !== appId || now >= token.expires_at) return fail('tokenExpired');
    // Step 5: timestamp window (§4.1, §4.2).
    const timestamp = parseTimestamp(timestampText);
    if (timestamp === undefined || !isWithinWindow(timestamp, now)) return fail('signatureFailed');
    // Step 6: nonce syntax and replay (§4.3, §4.4); remembered inclusively for 600 s like the client's memory.
    if (!isValidNonce(nonce) || this.nonceSeen(db, appId, nonce, now)) return fail('signatureFailed');
    // Step 7: signature over TIMESTAMP \n NONCE \n BODY (§3.2) with the merchant public key (§3.4).
    if (!verifyText(signingInput(timestampText, nonce, bodyText), signature, merchant.merchantPublicKey)) return fail('signatureFailed');
    // Step 8: decryption (§2.4). The nonce is recorded now that the signature verified, in the same commit as the
    // token's new expiry and the endpoint's effects.
    let payload: unknown;
    let decrypted = true;
    try {
      payload = parsePlaintextJson(decryptBytes(bodyText, merchant.platformPrivateKey));
    } catch {
      decrypted = false;
    }
    return this.service.commits.write((): Outcome => {
      this.rememberNonce(db, appId, nonce, now);
      if (!decrypted) return fail('decryptFailed');
      // §6.3: each successful authenticated request slides the expiry, capped at issue + 24 h.
      sql(db, 'UPDATE tokens SET expires_at = ? WHERE token = ?').run(
        Math.min(now + TOKEN_SLIDING_SECONDS, token.issued_at + TOKEN_ABSOLUTE_SECONDS),
        token.token,
      );
      // Step 9: the endpoint's rules; §13 first: a version 1 account may only run selfcheck.
      if (endpoint !== 'selfcheck' && merchant.config.apiVersion !== API_VERSION) return fail('apiVersionNotEnabled');
      // A fault injected through the admin API answers instead of the endpoint (faults.ts).
      const fault = this.service.faults.take(endpoint, appId, payload);
      if (fault !== undefined) return 'httpStatus' in fault ? { ok: false, httpStatus: fault.httpStatus } : { ok: false, message: fault.message };
      return this.endpoint(endpoint, merchant, payload, now);
    });
  }

  private nonceSeen(db: Db, merchantId: string, nonce: string, now: number): boolean {
    return sql(db, 'SELECT 1 FROM nonces WHERE merchant_id = ? AND nonce = ? AND expires_at >= ?').get(merchantId, nonce, now) !== undefined;
  }

  private rememberNonce(db: Db, merchantId: string, nonce: string, now: number): void {
    if (now - this.lastNoncePrune >= NONCE_PRUNE_INTERVAL_SECONDS || now < this.lastNoncePrune) {
      this.lastNoncePrune = now;
      sql(db, 'DELETE FROM nonces WHERE expires_at < ?').run(now);
    }
    sql(db, 'INSERT OR REPLACE INTO nonces (merchant_id, nonce, expires_at) VALUES (?, ?, ?)').run(merchantId, nonce, now + NONCE_MEMORY_SECONDS);
  }

  // ---- endpoints (spec "Endpoints", §8) -----------------------------------------------------------------------

  private endpoint(endpoint: BusinessEndpoint, merchant: MerchantContext, payload: unknown, now: number): Answer {
    const merchantId = merchant.config.merchantId;
    switch (endpoint) {
      case 'selfcheck':
        // spec selfcheck + §8/§13: always version 2, serverTime in integer seconds, the payload echoed unchanged.
        return succeed({ pong: true, apiVersion: API_VERSION, serverTime: now, echo: payload });
      case 'createAddress':
        return this.createAddress(merchantId, payload);
      case 'createWithdrawOrder': {
        const result = this.service.createWithdrawal(merchant.config, payload);
        return result.ok ? succeed(result.record) : fail(result.message);
      }
      case 'merchantInfo': {
        if (!isObject(payload)) return fail('paramError');
        const { config } = merchant;
        return succeed({
          merchantId,
          merchantName: config.merchantName,
          apiVersion: config.apiVersion,
          withdrawTypes: config.withdrawTypes,
          auditorMessengerBound: config.auditorMessengerBound,
          balances: balancesOf(this.service.db, merchantId),
        });
      }
      case 'getDeposits':
        return this.getDeposits(merchantId, payload);
      case 'checkWithdrawOrder': {
        if (!isObject(payload) || typeof payload.userOrder !== 'string' || !USER_ORDER_PATTERN.test(payload.userOrder)) {
          return fail('paramError');
        }
        const row = findWithdrawal(this.service.db, merchantId, payload.userOrder);
        return row ? succeed(withdrawalRecord(row)) : fail('withdrawOrderNotExist');
      }
      default: {
        const unreachable: never = endpoint;
        return unreachable;
      }
    }
  }

  /** §8 createAddress `{userOrder, addressType}`; `btc` is reserved (paramError). */
  private createAddress(merchantId: string, payload: unknown): Answer {
    if (!isObject(payload)) return fail('paramError');
    const { userOrder, addressType } = payload;
    if (typeof userOrder !== 'string' || !USER_ORDER_PATTERN.test(userOrder)) return fail('paramError');
    if (typeof addressType !== 'string' || (RESERVED_ADDRESS_TYPES as readonly string[]).includes(addressType) || !isAddressType(addressType)) {
      return fail('paramError');
    }
    const result = this.service.createAddress(merchantId, userOrder, addressType);
    return result.ok ? succeed(result.record) : fail(result.message);
  }

  /** spec getDeposits: optional currency filter, page default 1, limit default 10, limit outside 1..100 -> limitError. */
  private getDeposits(merchantId: string, payload: unknown): Answer {
    if (!isObject(payload)) return fail('paramError');
    const { currency, page, limit } = payload;
    if (currency !== undefined && typeof currency !== 'string') return fail('paramError');
    if (page !== undefined && (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1)) return fail('paramError');
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit))) return fail('paramError');
    const pageSize = limit ?? DEPOSITS_LIMIT_DEFAULT;
    if (pageSize < DEPOSITS_LIMIT_MIN || pageSize > DEPOSITS_LIMIT_MAX) return fail('limitError'); // never clamped
    if (currency !== undefined && !isDepositCurrency(this.service.db, currency)) return fail('currencyNotSupported');
    return succeed(depositsPage(this.service.db, merchantId, currency, page ?? 1, pageSize, this.service.anomalies.unlistedDeposits()));
  }

  // ---- answers (§3.3, §5.2) -----------------------------------------------------------------------------------

  private envelope(merchant: MerchantContext | undefined, outcome: Answer): { headers: Record<string, string>; body: string } {
    let envelope: Envelope;
    if (outcome.ok) {
      if (!merchant) throw new Error('a success answer needs a merchant to encrypt to');
      envelope = successEnvelope(encryptJson(outcome.value, merchant.merchantPublicKey));
    } else {
      envelope = failureEnvelope(outcome.message);
    }
    const timestamp = String(this.service.clock.nowSeconds());
    const nonce = newNonce();
    const signature = signText(signingInput(timestamp, nonce, envelope.data), merchant?.platformPrivateKey ?? this.platformPrivateKey);
    return {
      headers: {
        'Content-Type': 'application/json',
        [HEADER.timestamp]: timestamp,
        [HEADER.nonce]: nonce,
        [HEADER.sign]: signature,
      },
      body: toEscapedJson(envelope),
    };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
