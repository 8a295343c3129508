// Currencies platform staff add after launch (admin POST /sandbox/currencies, spec "Supported chains" rule 4): listed by
// getCurrencies with their fees, minimums and decimals, given a balance entry in merchantInfo for every merchant (old
// and new), credited like any deposit on their chain and filterable in getDeposits, while createWithdrawOrder keeps
// refusing them (§7 currencyNotSupported); bad input answers 400, a second add or a spec symbol 409. The ledger
// invariant holds throughout.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../../electron/protocol/profile';
import { TON_USDC } from '../../support/added-currency';
import { expectData, postForm, type SignedCall } from '../../support/raw-merchant';
import { openSandbox, tempDir, type TestSandbox } from './harness';

const dir = tempDir();
let t: TestSandbox;

beforeAll(async () => {
  t = await openSandbox({ dir });
});
afterEach(() => t.expectInvariant());
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectFailure(call: SignedCall, message: string): void {
  expect(call.verified).toBe(true);
  expect(call.envelope?.message).toBe(message);
}

interface CurrencyRecord {
  readonly symbol: string;
  readonly name: string;
  readonly [field: string]: unknown;
}

interface MerchantInfo {
  readonly balances: ReadonlyArray<{ readonly currency: string; readonly available: string; readonly frozen: string }>;
}

describe('a currency added after launch', () => {
  it('refuses bad input, spec symbols and USDC on TRON', async () => {
    const bad: Array<[Record<string, unknown>, number]> = [
      [{ ...TON_USDC, symbol: 'TON.USDC' }, 400],
      [{ ...TON_USDC, symbol: 'ton.usdc.x' }, 400],
      [{ ...TON_USDC, chain: 'btc' }, 400],
      [{ ...TON_USDC, decimals: 37 }, 400],
      [{ ...TON_USDC, decimals: 1.5 }, 400],
      [{ ...TON_USDC, deposit_min: '-1' }, 400],
      [{ symbol: 'ton.usdc', name: 'x', chain: 'ton', decimals: 6 }, 400],
      [{ ...TON_USDC, extra: true }, 400],
      [{ ...TON_USDC, symbol: 'trx.usdt' }, 409],
      [{ ...TON_USDC, symbol: 'trx.usdc', chain: 'trx' }, 409],
    ];
    for (const [body, status] of bad) {
      const answer = await t.admin<{ error: string; reason: string }>('POST', '/currencies', body);
      expect([body, answer.status]).toEqual([body, status]);
      expect(answer.json.reason.length).toBeGreaterThan(0);
    }
    expect((await t.admin<{ currencies: unknown[] }>('GET', '/currencies')).json.currencies).toEqual([]);
  });

  it('is listed by getCurrencies after the 13, with its decimals, and has a zero balance for every merchant', async () => {
    const before = await t.newMerchant();
    const added = await t.admin<{ currency: { symbol: string; chain: string; decimals: number } }>('POST', '/currencies', TON_USDC);
    expect(added.status).toBe(201);
    expect(added.json.currency).toMatchObject({ symbol: 'ton.usdc', chain: 'ton', decimals: 6 });
    expect((await t.admin('POST', '/currencies', TON_USDC)).status).toBe(409);

    const listed = (await postForm(t.sandbox.baseUrl, PATHS.getCurrencies, {})).json as { code: number; data: CurrencyRecord[] };
    expect(listed.data).toHaveLength(14);
    const { chain: _chain, ...record } = TON_USDC;
    expect(listed.data[13]).toEqual(record);

    const after = await t.newMerchant();
    expectData(await t.merchant.getToken());
    for (const client of [t.merchant, before, after]) {
      const info = expectData<MerchantInfo>(await client.call(PATHS.merchantInfo, {}));
      expect(info.balances).toHaveLength(14);
      expect(info.balances.at(-1)).toEqual({ currency: 'ton.usdc', available: '0', frozen: '0' });
    }
  });

  it('is credited to a TON address like any deposit, filterable in getDeposits, and refused for withdrawals', async () => {
    const client = await t.newMerchant();
    const { address } = expectData<{ address: string }>(await client.call(PATHS.createAddress, { userOrder: 'usdc-ton', addressType: 'ton' }));
    const tooPrecise = await t.admin('POST', '/transfers', { toAddress: address, currency: 'ton.usdc', amount: '1.1234567' });
    expect(tooPrecise.status).toBe(400);
    const transfer = await t.admin<{ credited: boolean; deposit: { amount: string; fee: string; currency: string } }>('POST', '/transfers', {
      toAddress: address,
      currency: 'ton.usdc',
      amount: '100',
    });
    expect(transfer.json.credited).toBe(true);
    // §9.6: fee = 0.5 % of 100 = 0.5 (above the 0.1 floor); the record's amount is gross - fee.
    expect(transfer.json.deposit).toMatchObject({ currency: 'ton.usdc', amount: '99.5', fee: '0.5' });

    const info = expectData<MerchantInfo>(await client.call(PATHS.merchantInfo, {}));
    expect(info.balances.find((balance) => balance.currency === 'ton.usdc')).toEqual({ currency: 'ton.usdc', available: '99.5', frozen: '0' });
    const filtered = expectData<Array<{ currency: string }>>(await client.call(PATHS.getDeposits, { currency: 'ton.usdc' }));
    expect(filtered.map((deposit) => deposit.currency)).toEqual(['ton.usdc']);
    expectFailure(await client.call(PATHS.getDeposits, { currency: 'ton.dai' }), 'currencyNotSupported');

    const withdrawal = await client.call(PATHS.createWithdrawOrder, {
      userOrder: 'wd-usdc-ton',
      currency: 'ton.usdc',
      amount: '10',
      toAddress: address,
    });
    expectFailure(withdrawal, 'currencyNotSupported');
  });

  it('survives a restart of the sandbox', async () => {
    await t.close();
    t = await openSandbox({ dir });
    expect((await t.admin<{ currencies: Array<{ symbol: string }> }>('GET', '/currencies')).json.currencies.map((currency) => currency.symbol)).toEqual(['ton.usdc']);
    const listed = (await postForm(t.sandbox.baseUrl, PATHS.getCurrencies, {})).json as { data: CurrencyRecord[] };
    expect(listed.data.map((currency) => currency.symbol)).toContain('ton.usdc');
  });
});
