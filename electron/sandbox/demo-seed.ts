// Demo data (`--seed demo`, the app's demo mode): one merchant with opening balances in several currencies, a few
// deposit addresses and a realistic history of a few hundred deposits and withdrawals in every final state, built
// through the same ledger functions as live traffic (so the ledger invariant holds) with callbacks silenced.
// Deterministic given the seed: IDs, addresses, txids, amounts and states repeat; only the RSA keys are fresh.
// Invariant: every seeded order is final. A desk knows only the orders it sent (the merchant API lists none), so an
// order still open here would hold frozen funds no verified record of the desk explains, and a fresh demo would open
// its Reconciliation screen with an unexplained difference (issue 22); orders in flight in a demo are the desk's own.
import { CURRENCIES, formatMoney, Money, type AddressType, type CurrencySymbol } from '../chains';
import { newChainAddress, randomInt, seededRandom, type RandomSource } from './chain-sim';
import {
  advanceWithdrawal,
  createAddress,
  createWithdrawal,
  simulateTransfer,
  SILENT_EVENTS,
  type LedgerEnv,
  type TransferCurrency,
} from './ledger';
import { flowStates, type FinalStatus, type WithdrawType } from './order-states';
import type { SandboxService } from './service';

export const DEMO_SEED = 'demo';

const DEMO_MERCHANT_NAME = 'Northwind Goods (demo)';
const DEPOSIT_COUNT = 240;
const WITHDRAWAL_COUNT = 90;
/** The seeded addresses' userOrders start so (`INV-2026-0001`); addresses a desk creates later never do in a demo. */
export const SEEDED_ADDRESS_ORDER_PREFIX = 'INV-2026-';
/** The seeded history's service-side times spread over this many days before the seeding, oldest first. */
const HISTORY_DAYS = 30;

const OPENING_BALANCES: Readonly<Partial<Record<CurrencySymbol, string>>> = {
  trx: '50000',
  'trx.usdt': '25000',
  eth: '3.5',
  'eth.usdt': '12000',
  bnb: '20',
  'bnb.usdt': '8000',
  solana: '120',
  'solana.usdc': '4000',
  ton: '900',
  'ton.usdt': '5000',
};

const ADDRESS_PLAN: ReadonlyArray<[AddressType, number]> = [
  ['trx', 3],
  ['eth_bnb', 2],
  ['solana', 2],
  ['ton', 1],
];

/** Typical transfer sizes per asset, in whole minor units of `decimals` places (integers: no float money). */
interface AmountRange {
  readonly minUnits: number;
  readonly maxUnits: number;
  readonly decimals: number;
}

function amountRange(symbol: CurrencySymbol): AmountRange {
  if (symbol === 'trx') return { minUnits: 5_000, maxUnits: 2_000_000, decimals: 2 }; // 50 .. 20,000
  if (symbol === 'eth') return { minUnits: 100, maxUnits: 15_000, decimals: 4 }; // 0.01 .. 1.5
  if (symbol === 'bnb') return { minUnits: 500, maxUnits: 50_000, decimals: 4 }; // 0.05 .. 5
  if (symbol === 'solana') return { minUnits: 500, maxUnits: 40_000, decimals: 3 }; // 0.5 .. 40
  if (symbol === 'ton') return { minUnits: 500, maxUnits: 80_000, decimals: 2 }; // 5 .. 800
  return { minUnits: 1_000, maxUnits: 300_000, decimals: 2 }; // stablecoins: 10 .. 3,000
}

/** `units` minor units of `decimals` places as a decimal string. */
function fromUnits(units: number, decimals: number): string {
  return formatMoney(new Money(units).dividedBy(new Money(10).pow(decimals)));
}

/** A random amount in the asset's range; `percentOfMax` narrows the top (withdrawals stay below the balance). */
export function randomAmount(random: RandomSource, symbol: CurrencySymbol, percentOfMax = 100): string {
  const { minUnits, maxUnits, decimals } = amountRange(symbol);
  return fromUnits(randomInt(random, minUnits, Math.floor((maxUnits * percentOfMax) / 100)), decimals);
}

function pick<T>(random: RandomSource, items: readonly T[]): T {
  const item = items[randomInt(random, 0, items.length - 1)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** The final state of a seeded order: mostly success, some refunds and failures, none left open (see the invariant). */
function plannedOutcome(random: RandomSource): FinalStatus {
  const roll = randomInt(random, 1, 100);
  if (roll <= 72) return 'success';
  if (roll <= 87) return 'WithdrawRefund';
  return 'fail';
}

/**
 * The seeded records' service-side times (the sandbox's own, for the admin's eyes: the merchant API carries none): the
 * deposits, and separately the orders, each walk forward from HISTORY_DAYS before the seeding, a seeded while apart,
 * never past it. The desk's own times (first seen, balance readings, audit) are this workstation's facts and stay real.
 */
class HistoryClock {
  #at: number;
  readonly #start: number;

  constructor(
    private readonly end: number,
    private readonly random: RandomSource,
  ) {
    this.#start = end - HISTORY_DAYS * 24 * 60 * 60 * 1000;
    this.#at = this.#start;
  }

  readonly nowMs = (): number => this.#at;

  /** Moves on by a seeded number of minutes in [minMinutes, maxMinutes], never past the end. */
  advance(minMinutes: number, maxMinutes: number): void {
    this.#at = Math.min(this.end, this.#at + randomInt(this.random, minMinutes * 60_000, maxMinutes * 60_000));
  }

  /** Back to the start of the history (the next kind of record walks the same 30 days). */
  restart(): void {
    this.#at = this.#start;
  }
}

/** Creates the demo merchant and its history in one transaction; returns the merchant ID. */
export async function seedDemo(service: SandboxService, seed: string): Promise<string> {
  const random = seededRandom(`treasury-desk-sandbox:${seed}`);
  const merchantId = await service.createMerchant(
    { merchantName: DEMO_MERCHANT_NAME, balances: OPENING_BALANCES, auditorMessengerBound: true },
    random,
    true,
  );
  const config = service.merchantConfig(merchantId);
  if (!config) throw new Error('the demo merchant vanished');
  const history = new HistoryClock(service.clock.nowMs(), seededRandom(`treasury-desk-sandbox:${seed}:history-times`));
  const env: LedgerEnv = { ...service.withEvents(SILENT_EVENTS), random, nowMs: history.nowMs };

  service.db.transaction(() => {
    const addresses: Array<{ address: string; addressType: AddressType }> = [];
    let invoice = 1;
    for (const [addressType, count] of ADDRESS_PLAN) {
      for (let i = 0; i < count; i += 1) {
        history.advance(1, 10);
        const userOrder = `${SEEDED_ADDRESS_ORDER_PREFIX}${String(invoice).padStart(4, '0')}`;
        invoice += 1;
        const result = createAddress(env, merchantId, userOrder, addressType);
        if (result.ok) addresses.push({ address: result.record.address, addressType });
      }
    }

    // Deposits, with the odd transfer that is never credited (USDC on TRON, dust below deposit_min).
    // 240 deposits about 2.7 hours apart on average: some 27 days.
    for (let i = 0; i < DEPOSIT_COUNT; i += 1) {
      history.advance(40, 280);
      const target = pick(random, addresses);
      const symbols = (Object.keys(CURRENCIES) as CurrencySymbol[]).filter((symbol) => CURRENCIES[symbol].addressType === target.addressType);
      const symbol = pick(random, symbols);
      let currency: TransferCurrency = symbol;
      let amount = randomAmount(random, symbol);
      if (i % 60 === 17 && target.addressType === 'trx') {
        currency = 'trx.usdc';
      } else if (i % 45 === 31) {
        // A hundredth of the smallest typical transfer: below deposit_min, so it is not credited.
        const { minUnits, decimals } = amountRange(symbol);
        amount = fromUnits(minUnits, decimals + 2);
      }
      simulateTransfer(env, { toAddress: target.address, currency, amount });
    }

    // Withdrawals: both types, every final state.
    const funded = Object.keys(OPENING_BALANCES) as CurrencySymbol[];
    // 90 orders about 7 hours apart on average, each moving on minutes after the step before: some 27 days.
    history.restart();
    for (let i = 0; i < WITHDRAWAL_COUNT; i += 1) {
      history.advance(120, 720);
      const currency = pick(random, funded);
      const withdrawType: WithdrawType = randomInt(random, 1, 5) === 1 ? 'financialConfirmation' : 'normal';
      const userOrder = `PAYOUT-${String(i + 1).padStart(5, '0')}`;
      const created = createWithdrawal(env, config, {
        userOrder,
        currency,
        amount: randomAmount(random, currency, 30),
        toAddress: newChainAddress(CURRENCIES[currency].chain, random),
        withdrawType,
        remark: i % 7 === 0 ? `supplier invoice ${1000 + i}` : '',
      });
      if (!created.ok) continue; // e.g. the balance ran low: a realistic history has those too
      const outcome = plannedOutcome(random);
      const path = flowStates(withdrawType);
      const stop = outcome === 'WithdrawRefund' || outcome === 'fail' ? randomInt(random, 0, path.length - 2) : path.indexOf(outcome);
      for (let step = 1; step <= stop; step += 1) {
        const to = path[step];
        history.advance(2, 20);
        if (to !== undefined) advanceWithdrawal(env, merchantId, userOrder, to, { actor: 'seed' });
      }
      if (outcome === 'WithdrawRefund' || outcome === 'fail') {
        history.advance(2, 20);
        advanceWithdrawal(env, merchantId, userOrder, outcome, {
          actor: 'seed',
          message: outcome === 'WithdrawRefund' ? 'rejected by finance: beneficiary not verified' : 'on-chain transfer failed',
        });
      }
    }
  })();
  return merchantId;
}
