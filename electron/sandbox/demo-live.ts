// Demo mode's live activity: while the demo sandbox runs, a deposit arrives every so often at one of the primary
// merchant's addresses (those the desk created first, the seeded ones when it made none), through the same simulated
// transfer as the admin interface (credited, called back), so the desk's syncs take new balance readings over real
// time. Gaps and amounts come from a seeded random; the count is bounded per session; close() stops it.
import { CURRENCIES, type CurrencySymbol } from '../chains';
import { randomInt, seededRandom, type RandomSource } from './chain-sim';
import { randomAmount, SEEDED_ADDRESS_ORDER_PREFIX } from './demo-seed';
import type { SandboxService } from './service';
import { sql } from './store';

/** When live deposits arrive: each gap drawn in [minGapMs, maxGapMs] real milliseconds, at most maxCount a session. */
export interface LiveDepositTiming {
  readonly minGapMs: number;
  readonly maxGapMs: number;
  readonly maxCount: number;
}

/** Demo mode's default: a deposit every 45 to 90 seconds, at most 40 a session (half an hour or more). */
export const DEMO_LIVE_DEPOSITS: LiveDepositTiming = { minGapMs: 45_000, maxGapMs: 90_000, maxCount: 40 };

interface AddressRow {
  readonly address: string;
  readonly address_type: string;
  readonly user_order: string;
}

export class LiveDeposits {
  #timer: NodeJS.Timeout | undefined;
  #credited = 0;
  #closed = false;
  readonly #random: RandomSource;

  constructor(
    private readonly service: SandboxService,
    private readonly merchantId: string,
    private readonly timing: LiveDepositTiming,
    seed: string,
  ) {
    if (!(timing.minGapMs > 0) || timing.maxGapMs < timing.minGapMs || !Number.isInteger(timing.maxCount) || timing.maxCount < 0) {
      throw new RangeError('live deposits need 0 < minGapMs <= maxGapMs and a whole maxCount of at least 0');
    }
    this.#random = seededRandom(`treasury-desk-sandbox:live-deposits:${seed}`);
  }

  /** Deposits credited so far this session. */
  get credited(): number {
    return this.#credited;
  }

  start(): void {
    this.#schedule();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    if (this.#closed || this.#credited >= this.timing.maxCount) return;
    const gap = randomInt(this.#random, Math.round(this.timing.minGapMs), Math.round(this.timing.maxGapMs));
    this.#timer = setTimeout(() => this.#arrive(), gap);
    this.#timer.unref();
  }

  #arrive(): void {
    this.#timer = undefined;
    if (this.#closed || !this.service.db.open) return;
    const target = this.#pickAddress();
    if (target) {
      const symbols = (Object.keys(CURRENCIES) as CurrencySymbol[]).filter((symbol) => CURRENCIES[symbol].addressType === target.address_type);
      const currency = symbols[randomInt(this.#random, 0, symbols.length - 1)];
      if (currency !== undefined) {
        try {
          const result = this.service.transfer({ toAddress: target.address, currency, amount: randomAmount(this.#random, currency, 20) });
          if (result.ok && result.credited) this.#credited += 1;
        } catch (error) {
          if (this.service.db.open) console.error(`sandbox live deposit failed: ${(error as Error).message}`);
        }
      }
    }
    this.#schedule();
  }

  /** One of the addresses the desk created (not seeded), or of the seeded ones when there is none. */
  #pickAddress(): AddressRow | undefined {
    const rows = sql(this.service.db, 'SELECT address, address_type, user_order FROM addresses WHERE merchant_id = ? ORDER BY created_at, user_order').all(this.merchantId) as AddressRow[];
    const created = rows.filter((row) => !row.user_order.startsWith(SEEDED_ADDRESS_ORDER_PREFIX));
    const choices = created.length > 0 ? created : rows;
    return choices.length === 0 ? undefined : choices[randomInt(this.#random, 0, choices.length - 1)];
  }
}
