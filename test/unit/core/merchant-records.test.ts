// What the service says, as the faces get it (core/merchant/records.ts) and what the platform allows
// (withdrawals/platform-rules.ts): fields the spec does not name are kept and shown as "more fields" (PROTOCOL §8) for
// the merchant account, each balance entry and each currency; a currency added later is listed after the 13 with its
// service name, the decimals its record states (or none), and the note that the desk has no address rules for it; the
// platform's withdrawTypes and auditor messenger decide which withdrawal types would be refused, and why.
import { describe, expect, it } from 'vitest';
import { balanceViews, currencyViews, merchantInfoView, noAddressRulesReason } from '../../../electron/core/merchant/records';
import { recordBalances } from '../../../electron/core/merchant/balances-table';
import { replaceCurrencies } from '../../../electron/core/merchant/currencies-table';
import { saveMerchantInfo } from '../../../electron/core/merchant/merchant-info-table';
import { platformWithdrawalSettings, withdrawTypeRefusal, type PlatformWithdrawalSettings } from '../../../electron/core/withdrawals/platform-rules';
import { CURRENCY_TABLE } from '../../../electron/sandbox/currencies-table';
import { PROFILE, seededDatabase, useTempDir } from '../store/helpers';

const temp = useTempDir();
/** The sandbox's 13 records, as plain JSON objects (what the store keeps). */
const TABLE = CURRENCY_TABLE.map((record) => ({ ...record }));

const schedule = {
  deposit_fixed_fee: '0',
  deposit_percent_fee: '0.5',
  deposit_min_fee: '0.1',
  deposit_max_fee: '50',
  withdraw_fixed_fee: '1',
  withdraw_percent_fee: '0',
  withdraw_min_fee: '1',
  withdraw_max_fee: '0',
  deposit_min: '1',
  withdraw_min: '5',
};

const merchantInfo = {
  merchantId: 'M-1001',
  merchantName: 'Acme Ltd',
  apiVersion: 2,
  withdrawTypes: ['normal', 'financialConfirmation', 'express'],
  auditorMessengerBound: false,
  balances: [
    { currency: 'trx.usdt', available: '10.5', frozen: '1', reserved: '0.25' },
    { currency: 'ton.usdc', available: '3', frozen: '0' },
  ],
  tier: 'gold',
  limits: { daily: '1000' },
};

describe('the merchant account', () => {
  it('is null before merchantInfo answered, then every field, the unknown ones under more fields', () => {
    const db = seededDatabase(temp);
    expect(merchantInfoView(db, PROFILE)).toBeNull();
    saveMerchantInfo(db, PROFILE, merchantInfo, 1234);
    expect(merchantInfoView(db, PROFILE)).toEqual({
      merchantId: 'M-1001',
      merchantName: 'Acme Ltd',
      apiVersion: 2,
      withdrawTypes: ['normal', 'financialConfirmation', 'express'],
      auditorMessengerBound: false,
      moreFields: { limits: { daily: '1000' }, tier: 'gold' },
      fetchedAt: 1234,
    });
  });
});

describe('currencies and balances', () => {
  it('lists the 13 in the spec order, then one added later with its service name, stated decimals and the note', () => {
    const db = seededDatabase(temp);
    const added = { name: 'USDC on TON', symbol: 'ton.usdc', ...schedule, decimals: 6, network: 'TON' };
    const undeclared = { name: '', symbol: 'aaa.new', ...schedule, decimals: '6' };
    replaceCurrencies(db, PROFILE, [added, ...[...TABLE].reverse(), undeclared], 50);
    const views = currencyViews(db, PROFILE);
    expect(views.map((view) => view.symbol)).toEqual([...CURRENCY_TABLE.map((record) => record.symbol), 'aaa.new', 'ton.usdc']);
    expect(views.find((view) => view.symbol === 'trx.usdt')).toMatchObject({ displayName: 'USDT on TRON', decimals: 6, addressRules: true, note: null, moreFields: {} });
    expect(views.at(-1)).toEqual({
      symbol: 'ton.usdc',
      displayName: 'USDC on TON',
      serviceName: 'USDC on TON',
      decimals: 6,
      addressRules: false,
      note: noAddressRulesReason('ton.usdc'),
      depositMin: '1',
      depositFixedFee: '0',
      depositPercentFee: '0.5',
      depositMinFee: '0.1',
      depositMaxFee: '50',
      withdrawMin: '5',
      withdrawFixedFee: '1',
      withdrawPercentFee: '0',
      withdrawMinFee: '1',
      withdrawMaxFee: '0',
      moreFields: { decimals: 6, network: 'TON' },
      fetchedAt: 50,
    });
    // Decimals the record does not state as a whole number are unknown; a nameless currency is named by its symbol.
    expect(views.find((view) => view.symbol === 'aaa.new')).toMatchObject({ displayName: 'aaa.new', decimals: null, addressRules: false });
  });

  it('shows every balance merchantInfo reported, a new currency included, with its entry’s unknown fields', () => {
    const db = seededDatabase(temp);
    replaceCurrencies(db, PROFILE, [...TABLE, { name: 'USDC on TON', symbol: 'ton.usdc', ...schedule }], 50);
    saveMerchantInfo(db, PROFILE, merchantInfo, 60);
    recordBalances(db, PROFILE, merchantInfo.balances, 60);
    expect(balanceViews(db, PROFILE)).toEqual([
      { currency: 'trx.usdt', displayName: 'USDT on TRON', available: '10.5', frozen: '1', observedAt: 60, addressRules: true, note: null, moreFields: { reserved: '0.25' } },
      { currency: 'ton.usdc', displayName: 'USDC on TON', available: '3', frozen: '0', observedAt: 60, addressRules: false, note: noAddressRulesReason('ton.usdc'), moreFields: {} },
    ]);
  });
});

describe('what the platform allows', () => {
  const settings = (withdrawTypes: readonly string[], auditorMessengerBound: boolean): PlatformWithdrawalSettings => ({ withdrawTypes, auditorMessengerBound, fetchedAt: 1 });

  it('reads the settings of the last merchantInfo answer, or none before one', () => {
    const db = seededDatabase(temp);
    expect(platformWithdrawalSettings(db, PROFILE)).toBeNull();
    saveMerchantInfo(db, PROFILE, merchantInfo, 70);
    expect(platformWithdrawalSettings(db, PROFILE)).toEqual({ withdrawTypes: merchantInfo.withdrawTypes, auditorMessengerBound: false, fetchedAt: 70 });
  });

  it('refuses financialConfirmation without a bound auditor messenger, saying what to do', () => {
    expect(withdrawTypeRefusal(settings(['normal', 'financialConfirmation'], false), 'financialConfirmation')).toEqual({
      reason: "financialConfirmation needs a messenger bound to the merchant's auditor, and the platform reports none bound",
      remedy: "bind one in the platform's merchant settings (then sync, so the desk sees it), or use normal",
    });
    expect(withdrawTypeRefusal(settings(['normal', 'financialConfirmation'], true), 'financialConfirmation')).toBeNull();
    expect(withdrawTypeRefusal(settings(['normal', 'financialConfirmation'], false), 'normal')).toBeNull();
  });

  it('refuses a type the platform does not allow, naming the ones it does', () => {
    expect(withdrawTypeRefusal(settings(['normal'], true), 'financialConfirmation')?.reason).toBe(
      'the platform does not allow financialConfirmation withdrawals for this merchant (it allows: normal)',
    );
    expect(withdrawTypeRefusal(settings(['financialConfirmation'], true), 'normal')?.remedy).toBe(
      "ask the platform to allow normal withdrawals in the merchant's withdrawal policy, or use financialConfirmation",
    );
    expect(withdrawTypeRefusal(settings([], true), 'normal')?.reason).toContain('it allows none');
  });

  it('judges nothing before merchantInfo answered', () => {
    expect(withdrawTypeRefusal(null, 'financialConfirmation')).toBeNull();
  });
});
