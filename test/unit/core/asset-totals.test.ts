// Totals per asset (issue 13, part 6): each asset's latest balances summed across its chains exactly (18-decimal BNB
// USDT beside 6-decimal TRON USDT, sums no JS number could hold), in the spec's asset order; a currency the service
// added after this desk was built counts toward no total and is named instead.
import { describe, expect, it } from 'vitest';
import { assetTotals } from '../../../electron/core/sync/dashboard-handlers';
import type { BalanceSnapshot } from '../../../electron/core/merchant/balances-table';

function snapshot(currency: string, available: string, frozen = '0'): BalanceSnapshot {
  return { id: 1, profile: 'p', currency, available, frozen, observedAt: 1, lastObservedAt: 1 };
}

describe('assetTotals', () => {
  it('sums USDT across five chains and USDC across three, exactly, as decimal strings', () => {
    const totals = assetTotals([
      snapshot('ton.usdt', '0.000001'),
      snapshot('trx.usdt', '9007199254740993.123456', '0.5'),
      snapshot('bnb.usdt', '0.000000000000000001', '1.999999999999999999'),
      snapshot('eth.usdt', '1.1'),
      snapshot('solana.usdt', '2.2'),
      snapshot('eth.usdc', '0.1'),
      snapshot('bnb.usdc', '0.2'),
      snapshot('solana.usdc', '0.000000000000000003'),
      snapshot('trx', '12.5'),
    ]);
    expect(totals.uncounted).toEqual([]);
    expect(totals.assets.map((asset) => asset.asset)).toEqual(['TRX', 'USDT', 'USDC']);
    const usdt = totals.assets.find((asset) => asset.asset === 'USDT');
    // 0.1 + 0.2 in floating point is 0.30000000000000004; 9007199254740993 is not a double.
    expect(usdt).toEqual({
      asset: 'USDT',
      available: '9007199254740996.423457000000000001',
      frozen: '2.499999999999999999',
      total: '9007199254740998.923457',
      currencies: [
        { currency: 'trx.usdt', available: '9007199254740993.123456', frozen: '0.5' },
        { currency: 'eth.usdt', available: '1.1', frozen: '0' },
        { currency: 'solana.usdt', available: '2.2', frozen: '0' },
        { currency: 'bnb.usdt', available: '0.000000000000000001', frozen: '1.999999999999999999' },
        { currency: 'ton.usdt', available: '0.000001', frozen: '0' },
      ],
    });
    expect(totals.assets.find((asset) => asset.asset === 'USDC')).toMatchObject({ available: '0.300000000000000003', frozen: '0', total: '0.300000000000000003' });
    expect(totals.assets.find((asset) => asset.asset === 'TRX')).toMatchObject({ available: '12.5', total: '12.5', currencies: [{ currency: 'trx' }] });
  });

  it('names the currencies it cannot count, and answers nothing for no balances', () => {
    const totals = assetTotals([snapshot('arb.usdt', '5'), snapshot('trx.usdt', '1'), snapshot('arb', '1')]);
    expect(totals.uncounted).toEqual(['arb', 'arb.usdt']);
    expect(totals.assets).toEqual([{ asset: 'USDT', available: '1', frozen: '0', total: '1', currencies: [{ currency: 'trx.usdt', available: '1', frozen: '0' }] }]);
    expect(assetTotals([])).toEqual({ assets: [], uncounted: [] });
  });

  it('refuses a balance that is not a decimal string rather than summing a guess', () => {
    expect(() => assetTotals([snapshot('trx.usdt', '1e3')])).toThrow(/not a decimal amount/);
  });
});
