// The admin interface under `/sandbox/` (not part of the merchant API): plain JSON for loopback clients only, every
// input validated with zod (bad input -> HTTP 400 with a reason). Platform-staff actions: merchants and their
// configuration, expiring a merchant's tokens, currencies added after launch, simulated chain transfers, moving
// withdrawals along the state table, the clock, the callback log; injected faults (faults.ts) for tests; and platform
// anomalies (anomalies.ts) a reconciliation must catch.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { CHAINS, CURRENCIES, isCurrencySymbol, WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../chains';
import { AMOUNT_PATTERN, WITHDRAW_TYPES } from '../protocol/profile';
import { anomalyInputSchema } from './anomalies';
import { callbackLog } from './callbacks';
import { faultInputSchema } from './faults';
import { header, isLoopbackAddress, isLoopbackHost, isLoopbackOrigin, readBody, sendJson } from './http';
import { addedCurrencies } from './added-currencies';
import { balancesOf, checkLedgerInvariant, findWithdrawal, transferCurrencyInfo, withdrawalHistory, withdrawalRecord } from './ledger';
import { credentialsOf, parseCidr, type MerchantConfig, type SandboxCredentials } from './merchants';
import { ORDER_STATUSES } from './order-states';
import type { SandboxService } from './service';

export const ADMIN_PREFIX = '/sandbox/';
/** Admin bodies are small JSON documents. */
const MAX_ADMIN_BODY_BYTES = 1024 * 1024;

const decimalText = z.string().regex(AMOUNT_PATTERN, 'must be a decimal string such as "125.5"');
const balancesSchema = z.partialRecord(z.enum(WITHDRAWAL_CURRENCIES), decimalText).superRefine((balances, context) => {
  for (const [symbol, amount] of Object.entries(balances) as Array<[CurrencySymbol, string]>) {
    const decimals = CURRENCIES[symbol].decimals;
    if ((amount.split('.')[1]?.length ?? 0) > decimals) {
      context.addIssue({ code: 'custom', path: [symbol], message: `${symbol} has at most ${decimals} decimals` });
    }
  }
});
const cidrSchema = z.string().refine((text) => parseCidr(text) !== undefined, 'must be an IPv4/IPv6 address or CIDR such as "10.0.0.0/8"');
const callbackUrlSchema = z
  .string()
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL')
  .nullable();
const apiVersionSchema = z.union([z.literal(1), z.literal(2)]);

const merchantSettings = {
  apiVersion: apiVersionSchema.optional(),
  ipWhitelist: z.array(cidrSchema).optional(),
  callbackUrl: callbackUrlSchema.optional(),
  auditorMessengerBound: z.boolean().optional(),
  withdrawTypes: z.array(z.enum(WITHDRAW_TYPES)).optional(),
  balances: balancesSchema.optional(),
};

const newMerchantSchema = z.strictObject({ merchantName: z.string().min(1).max(128).optional(), ...merchantSettings });
const patchMerchantSchema = z.strictObject(merchantSettings);
const transferSchema = z.strictObject({
  toAddress: z.string().min(1),
  currency: z.string().min(1),
  amount: decimalText,
  fromAddress: z.string().min(1).optional(),
  txid: z.string().min(1).optional(),
});
const newCurrencySchema = z.strictObject({
  symbol: z.string().min(1),
  name: z.string().min(1).max(64),
  chain: z.enum(CHAINS),
  decimals: z.int(),
  deposit_fixed_fee: decimalText,
  deposit_percent_fee: decimalText,
  deposit_min_fee: decimalText,
  deposit_max_fee: decimalText,
  withdraw_fixed_fee: decimalText,
  withdraw_percent_fee: decimalText,
  withdraw_min_fee: decimalText,
  withdraw_max_fee: decimalText,
  deposit_min: decimalText,
  withdraw_min: decimalText,
});
const advanceSchema = z.strictObject({ to: z.enum(ORDER_STATUSES as [string, ...string[]]), message: z.string().max(255).optional() });
/** Up to about 30 years either way: enough for any expiry test, small enough for exact millisecond arithmetic. */
const MAX_CLOCK_OFFSET_SECONDS = 1e9;
const clockSchema = z.strictObject({ offsetSeconds: z.number().finite().min(-MAX_CLOCK_OFFSET_SECONDS).max(MAX_CLOCK_OFFSET_SECONDS) });

class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly reason: string,
    /** For 405: the methods the route accepts. */
    readonly allow = '',
  ) {
    super(reason);
  }
}

const badRequest = (reason: string): AdminError => new AdminError(400, 'badRequest', reason);
const notFound = (reason: string): AdminError => new AdminError(404, 'notFound', reason);

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const reason = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
      .join('; ');
    throw badRequest(reason);
  }
  return result.data;
}

export interface AdminContext {
  readonly service: SandboxService;
  readonly baseUrl: () => string;
}

export class AdminApi {
  constructor(private readonly context: AdminContext) {}

  async handle(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (!isLoopbackAddress(request.socket.remoteAddress)) {
      request.resume();
      return sendJson(response, 403, { error: 'forbidden', reason: 'the sandbox admin interface answers loopback clients only' });
    }
    // A web page on this machine must not drive it: a Host that is not a loopback name is DNS rebinding, and a browser
    // names the page's origin on every cross-site write (a client that is not a browser sends no Origin).
    const refusal = this.browserRefusal(request);
    if (refusal !== null) {
      request.resume();
      return sendJson(response, 403, { error: 'forbidden', reason: refusal });
    }
    let status: number;
    let body: unknown;
    try {
      ({ status, body } = await this.route(request, url));
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      if (error.status === 405) response.setHeader('Allow', error.allow);
      ({ status, body } = { status: error.status, body: { error: error.error, reason: error.reason } });
    }
    await this.context.service.commits.settled(); // an admin change is answered once it is on disk
    sendJson(response, status, body);
  }

  private async route(request: IncomingMessage, url: URL): Promise<{ status: number; body: unknown }> {
    const { service } = this.context;
    let parts: string[];
    try {
      parts = url.pathname.slice(ADMIN_PREFIX.length).split('/').map(decodeURIComponent);
    } catch {
      throw badRequest('the path is not valid percent-encoding');
    }
    const method = request.method ?? 'GET';
    const route = `${method} ${parts[0] ?? ''}`;
    const expect = (allowed: string): never => {
      throw new AdminError(405, 'methodNotAllowed', `use ${allowed.replace(', ', ' or ')} on ${url.pathname}`, allowed);
    };

    switch (parts[0]) {
      case 'health': {
        if (parts.length !== 1) break;
        if (method !== 'GET') expect('GET');
        return {
          status: 200,
          body: {
            ok: true,
            serverTime: service.clock.nowSeconds(),
            clockOffsetSeconds: service.clock.offsetSeconds,
            auto: service.options.auto,
            timeScale: service.options.timeScale,
            primaryMerchantId: service.primaryMerchantId,
            baseUrl: this.context.baseUrl(),
          },
        };
      }
      case 'merchants': {
        if (parts.length === 1) {
          if (method !== 'POST') expect('POST');
          const input = parseWith(newMerchantSchema, await this.json(request, true));
          const merchantId = await service.createMerchant(input);
          const credentials: SandboxCredentials = credentialsOf(service.db, merchantId, this.context.baseUrl());
          return { status: 201, body: credentials };
        }
        if (parts.length === 3 && parts[2] === 'expireTokens') {
          if (method !== 'POST') expect('POST');
          const merchantId = parts[1] ?? '';
          if (!service.merchantConfig(merchantId)) throw notFound(`no merchant ${merchantId}`);
          return { status: 200, body: { expired: service.expireTokens(merchantId) } };
        }
        if (parts.length !== 2) break;
        const merchantId = parts[1] ?? '';
        if (!service.merchantConfig(merchantId)) throw notFound(`no merchant ${merchantId}`);
        if (method === 'PATCH') {
          const { balances, ...patch } = parseWith(patchMerchantSchema, await this.json(request, false));
          service.updateMerchant(merchantId, patch, balances);
        } else if (method !== 'GET') expect('GET, PATCH');
        return { status: 200, body: this.merchantView(merchantId) };
      }
      case 'transfers': {
        if (parts.length !== 1) break;
        if (method !== 'POST') expect('POST');
        const input = parseWith(transferSchema, await this.json(request, false));
        const currency = transferCurrencyInfo(service.db, input.currency);
        if (currency === undefined) throw badRequest('currency: must be a deposit currency symbol such as "bnb.usdt", "trx.usdc", or one added under /sandbox/currencies');
        const { decimals } = currency;
        if ((input.amount.split('.')[1]?.length ?? 0) > decimals) throw badRequest(`amount: ${input.currency} has at most ${decimals} decimals`);
        const result = service.transfer({ ...input, currency: input.currency });
        if (!result.ok) throw new AdminError(result.status, result.status === 409 ? 'conflict' : 'badRequest', result.reason);
        return {
          status: 200,
          body: result.credited
            ? { credited: true, txid: result.txid, merchantId: result.merchantId, deposit: result.deposit }
            : { credited: false, txid: result.txid, reason: result.reason },
        };
      }
      case 'currencies': {
        // Currencies the platform added after launch (added-currencies.ts): listed by getCurrencies from then on.
        if (parts.length !== 1) break;
        if (method === 'POST') {
          const input = parseWith(newCurrencySchema, await this.json(request, false));
          const result = service.addCurrency(input);
          if (!result.ok) throw new AdminError(result.status, result.status === 409 ? 'conflict' : 'badRequest', result.reason);
          return { status: 201, body: { currency: result.currency } };
        }
        if (method !== 'GET') expect('GET, POST');
        return { status: 200, body: { currencies: addedCurrencies(service.db) } };
      }
      case 'withdrawals': {
        const merchantId = parts[1] ?? '';
        const userOrder = parts[2] ?? '';
        if (parts.length === 4 && parts[3] === 'advance') {
          if (method !== 'POST') expect('POST');
          const input = parseWith(advanceSchema, await this.json(request, false));
          const to = ORDER_STATUSES.find((status) => status === input.to);
          if (to === undefined) throw badRequest('to: unknown state');
          const result = service.advance(merchantId, userOrder, to, 'admin', input.message);
          if (!result.ok) throw result.kind === 'notFound' ? notFound(result.reason) : new AdminError(409, 'illegalTransition', result.reason);
          return { status: 200, body: { order: result.record } };
        }
        if (parts.length !== 3) break;
        if (method !== 'GET') expect('GET');
        const row = findWithdrawal(service.db, merchantId, userOrder);
        if (!row) throw notFound(`no withdrawal order ${userOrder} for merchant ${merchantId}`);
        return { status: 200, body: { order: withdrawalRecord(row), history: withdrawalHistory(service.db, row.seq) } };
      }
      case 'clock': {
        if (parts.length !== 1) break;
        if (method === 'POST') {
          const input = parseWith(clockSchema, await this.json(request, false));
          service.setClockOffset(input.offsetSeconds);
        } else if (method !== 'GET') expect('GET, POST');
        return { status: 200, body: { offsetSeconds: service.clock.offsetSeconds, serverTime: service.clock.nowSeconds() } };
      }
      case 'callbacks': {
        if (parts.length !== 1) break;
        if (method !== 'GET') expect('GET');
        const merchantId = url.searchParams.get('merchantId') ?? undefined;
        return { status: 200, body: { callbacks: callbackLog(service.db, merchantId) } };
      }
      case 'faults': {
        if (parts.length === 1) {
          if (method === 'POST') {
            const input = parseWith(faultInputSchema, await this.json(request, false));
            if (input.merchantId !== undefined && !service.merchantConfig(input.merchantId)) throw notFound(`no merchant ${input.merchantId}`);
            return { status: 201, body: { fault: service.faults.add(input) } };
          }
          if (method === 'DELETE') {
            service.faults.clear();
            return { status: 200, body: { faults: [] } };
          }
          if (method !== 'GET') expect('GET, POST, DELETE');
          return { status: 200, body: { faults: service.faults.list() } };
        }
        if (parts.length !== 2) break;
        if (method !== 'DELETE') expect('DELETE');
        const id = Number(parts[1]);
        if (!Number.isSafeInteger(id) || !service.faults.clear(id)) throw notFound(`no fault ${parts[1] ?? ''}`);
        return { status: 200, body: { faults: service.faults.list() } };
      }
      case 'anomalies': {
        if (parts.length === 1) {
          if (method === 'POST') {
            const input = parseWith(anomalyInputSchema, await this.json(request, false));
            if ('merchantId' in input && input.merchantId !== undefined && !service.merchantConfig(input.merchantId)) throw notFound(`no merchant ${input.merchantId}`);
            if (input.kind === 'withdrawFee') {
              if (!isCurrencySymbol(input.currency)) throw badRequest(`currency: ${input.currency} is not a withdrawal currency`);
              const decimals = CURRENCIES[input.currency].decimals;
              if ((input.fee.split('.')[1]?.length ?? 0) > decimals) throw badRequest(`fee: ${input.currency} has at most ${decimals} decimals`);
            }
            return { status: 201, body: { anomaly: service.anomalies.add(input) } };
          }
          if (method === 'DELETE') {
            service.anomalies.clear();
            return { status: 200, body: { anomalies: [] } };
          }
          if (method !== 'GET') expect('GET, POST, DELETE');
          return { status: 200, body: { anomalies: service.anomalies.list() } };
        }
        if (parts.length !== 2) break;
        if (method !== 'DELETE') expect('DELETE');
        const id = Number(parts[1]);
        if (!Number.isSafeInteger(id) || !service.anomalies.clear(id)) throw notFound(`no anomaly ${parts[1] ?? ''}`);
        return { status: 200, body: { anomalies: service.anomalies.list() } };
      }
      case 'invariant': {
        if (parts.length !== 1) break;
        if (method !== 'GET') expect('GET');
        const merchantId = url.searchParams.get('merchantId') ?? undefined;
        return { status: 200, body: checkLedgerInvariant(service.db, merchantId) };
      }
      default:
        break;
    }
    throw notFound(`no admin route ${route} (${url.pathname})`);
  }

  private merchantView(merchantId: string): MerchantConfig & { balances: ReturnType<typeof balancesOf> } {
    const { service } = this.context;
    const config = service.merchantConfig(merchantId);
    if (!config) throw notFound(`no merchant ${merchantId}`);
    return { ...config, balances: balancesOf(service.db, merchantId) };
  }

  /** Why a request that a browser may have sent is refused (foreign Host or Origin), or null. */
  private browserRefusal(request: IncomingMessage): string | null {
    const host = header(request, 'host');
    if (!isLoopbackHost(host)) return `the sandbox admin interface answers requests for a loopback host only (localhost, 127.0.0.1, [::1]), not ${JSON.stringify(host ?? '')}`;
    const origin = header(request, 'origin');
    if (origin !== undefined && !isLoopbackOrigin(origin)) return `the sandbox admin interface does not answer web pages of other origins (${JSON.stringify(origin)})`;
    return null;
  }

  /** The JSON body; an empty body is `{}` where `emptyAllowed`. A body must be sent as application/json. */
  private async json(request: IncomingMessage, emptyAllowed: boolean): Promise<unknown> {
    const body = await readBody(request, MAX_ADMIN_BODY_BYTES);
    if (body.kind === 'tooLarge') throw new AdminError(413, 'tooLarge', `admin bodies are at most ${MAX_ADMIN_BODY_BYTES} bytes`);
    if (body.kind === 'aborted') throw badRequest('the request was aborted');
    const text = body.body.toString('utf8');
    if (text.trim().length === 0) {
      if (emptyAllowed) return {};
      throw badRequest('a JSON body is required');
    }
    const type = (header(request, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new AdminError(415, 'unsupportedMediaType', `send the body as Content-Type: application/json (not ${JSON.stringify(type ?? '')})`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw badRequest('the body is not JSON');
    }
  }
}
