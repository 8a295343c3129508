// E2E support: the sandbox's admin interface (platform-staff actions over plain JSON on loopback): simulated
// transfers, merchant settings (IP whitelist, API version, withdrawal types, auditor messenger), currencies added after
// launch, the clock, moving withdrawals along the state table (with the platform's remark), and injected faults.
import { expect } from '@playwright/test';

export interface SandboxTransfer {
  readonly toAddress: string;
  readonly currency: string;
  readonly amount: string;
  readonly fromAddress?: string;
  readonly txid?: string;
}

export interface SandboxAdmin {
  readonly adminUrl: string;
  health(): Promise<{ readonly primaryMerchantId: string; readonly serverTime: number }>;
  transfer(transfer: SandboxTransfer): Promise<{ readonly credited: boolean; readonly txid: string }>;
  patchMerchant(merchantId: string, patch: Record<string, unknown>): Promise<void>;
  setClock(offsetSeconds: number): Promise<void>;
  /** Moves an order; `message` replaces its remark (e.g. a refund's reason). */
  advance(merchantId: string, userOrder: string, to: string, message?: string): Promise<void>;
  /** Adds a currency to the platform's table (getCurrencies, merchantInfo balances, deposits on its chain). */
  addCurrency(currency: Record<string, unknown>): Promise<void>;
  withdrawal(merchantId: string, userOrder: string): Promise<{ readonly order: { readonly orderStatus: string } }>;
  /** A fault (POST /sandbox/faults), e.g. getDeposits answering HTTP 503 from a page on. */
  addFault(fault: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
}

async function json(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  expect(response.ok, `${what}: HTTP ${response.status} ${text}`).toBe(true);
  return text === '' ? {} : (JSON.parse(text) as unknown);
}

/** The admin interface of a sandbox whose merchant base URL is `baseUrl` (admin lives under `/sandbox`). */
export function sandboxAdmin(baseUrl: string): SandboxAdmin {
  const adminUrl = `${baseUrl.replace(/\/+$/, '')}/sandbox`;
  const post = async (path: string, body: unknown, method = 'POST'): Promise<unknown> =>
    json(await fetch(`${adminUrl}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }), `${method} ${path}`);
  return {
    adminUrl,
    async health() {
      return (await json(await fetch(`${adminUrl}/health`), 'GET /health')) as { primaryMerchantId: string; serverTime: number };
    },
    async transfer(transfer) {
      return (await post('/transfers', transfer)) as { credited: boolean; txid: string };
    },
    async patchMerchant(merchantId, patch) {
      await post(`/merchants/${encodeURIComponent(merchantId)}`, patch, 'PATCH');
    },
    async setClock(offsetSeconds) {
      await post('/clock', { offsetSeconds });
    },
    async advance(merchantId, userOrder, to, message) {
      await post(`/withdrawals/${encodeURIComponent(merchantId)}/${encodeURIComponent(userOrder)}/advance`, message === undefined ? { to } : { to, message });
    },
    async addCurrency(currency) {
      await post('/currencies', currency);
    },
    async addFault(fault) {
      await post('/faults', fault);
    },
    async clearFaults() {
      await json(await fetch(`${adminUrl}/faults`, { method: 'DELETE' }), 'DELETE /faults');
    },
    async withdrawal(merchantId, userOrder) {
      const url = `${adminUrl}/withdrawals/${encodeURIComponent(merchantId)}/${encodeURIComponent(userOrder)}`;
      return (await json(await fetch(url), `GET ${url}`)) as { order: { orderStatus: string } };
    },
  };
}
