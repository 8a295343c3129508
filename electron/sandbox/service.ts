// The sandbox's state and operations behind every interface (merchant API, admin API, demo seed): one SQLite
// database, the clock, the merchant directory, the callback outbox and the auto-advance timers. Each operation runs
// through the group commit (store.ts), so an answer always follows its commit.
import type { KeyObject } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressType, CurrencySymbol } from '../chains';
import { Money } from '../chains';
import { parsePrivateKey } from '../protocol/keys';
import { addCurrency, type AddCurrencyResult, type NewCurrency } from './added-currencies';
import { AutoAdvancer, type AutoTarget } from './auto-advance';
import { AnomalyPlan } from './anomalies';
import { CallbackDispatcher, enqueueCallback, recordLostCallback } from './callbacks';
import { cryptoRandom, seededRandom, type RandomSource } from './chain-sim';
import { SandboxClock } from './clock';
import { FaultPlan } from './faults';
import {
  advanceWithdrawal,
  createAddress,
  createWithdrawal,
  ensureInstanceTag,
  findWithdrawal,
  pendingWithdrawals,
  setAvailableBalance,
  simulateTransfer,
  type AdvanceResult,
  type CreateAddressResult,
  type CreateWithdrawalResult,
  type LedgerEnv,
  type LedgerEvents,
  type TransferInput,
  type TransferResult,
} from './ledger';
import {
  ensurePlatformKey,
  insertMerchant,
  MerchantDirectory,
  newKeyPair,
  patchMerchant,
  type MerchantConfig,
  type MerchantPatch,
  type NewMerchantOptions,
} from './merchants';
import { isOrderStatus, isWithdrawType, type OrderStatus } from './order-states';
import { getMeta, GroupCommit, openDatabase, setMeta, sql, type Db, type KeyRow } from './store';

const CLOCK_OFFSET_META = 'clock_offset_seconds';
const PRIMARY_MERCHANT_META = 'primary_merchant_id';

export interface SandboxServiceOptions {
  readonly dataDir: string;
  /** Advance normal withdrawals on timers (`--auto`). */
  readonly auto: boolean;
  /** Divides every timer (auto-advance, callback retries): 1 is real time, 1000 makes 15 s take 15 ms. */
  readonly timeScale: number;
  /** Demo seed of a fresh folder: makes the instance tag (part of every apiOrder) deterministic too. */
  readonly seed?: string;
}

export class SandboxService {
  readonly clock = new SandboxClock();
  /** Injected faults (admin API, tests); in memory only. */
  readonly faults = new FaultPlan();
  /** Every write of a request goes through this; answers wait for `commits.settled()`. */
  readonly commits: GroupCommit;
  readonly merchants: MerchantDirectory;
  readonly dispatcher: CallbackDispatcher;
  readonly env: LedgerEnv;
  /** Anomalies an admin asked for (anomalies.ts): lost callbacks, unlisted deposits, fees off the table. */
  readonly anomalies = new AnomalyPlan();
  private readonly autoAdvancer: AutoAdvancer | undefined;
  private platformKeyRow: KeyRow | undefined;
  private platformPrivate: KeyObject | undefined;

  private constructor(
    readonly db: Db,
    readonly options: SandboxServiceOptions,
    readonly random: RandomSource,
  ) {
    this.commits = new GroupCommit(db);
    this.merchants = new MerchantDirectory(db);
    this.dispatcher = new CallbackDispatcher({
      db,
      clock: this.clock,
      merchants: this.merchants,
      timeScale: options.timeScale,
      commits: this.commits,
    });
    this.autoAdvancer = options.auto ? new AutoAdvancer(options.timeScale, (target, to) => this.autoMove(target, to)) : undefined;
    this.env = {
      db,
      nowMs: this.clock.nowMs,
      random,
      events: this.events(),
      withdrawFee: (merchantId, currency) => this.anomalies.withdrawFee(merchantId, currency),
    };
    const offset = getMeta(db, CLOCK_OFFSET_META);
    if (offset !== undefined) this.clock.setOffsetSeconds(Number(offset));
  }

  /** Opens (or creates) the state in `dataDir`. */
  static async open(options: SandboxServiceOptions, random: RandomSource = cryptoRandom): Promise<SandboxService> {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const db = openDatabase(options.dataDir);
    const service = new SandboxService(db, options, random);
    try {
      db.transaction(() => ensureInstanceTag(db, options.seed === undefined ? random : seededRandom(`instance:${options.seed}`)))();
      service.platformKeyRow = await ensurePlatformKey(db, service.clock.nowMs());
    } catch (error) {
      db.close();
      throw error;
    }
    return service;
  }

  /** The platform private key, parsed once (§1.2): signs every answer, including those to unknown merchants. */
  get platformPrivateKey(): KeyObject {
    if (!this.platformKeyRow) throw new Error('the sandbox is not open');
    this.platformPrivate ??= parsePrivateKey(this.platformKeyRow.private_pem, 'platform private key');
    return this.platformPrivate;
  }

  /** True when no merchant exists yet (a fresh data folder). */
  isEmpty(): boolean {
    return getMeta(this.db, PRIMARY_MERCHANT_META) === undefined;
  }

  /** The merchant created on first start, whose credentials go to credentials.json. */
  get primaryMerchantId(): string {
    const id = getMeta(this.db, PRIMARY_MERCHANT_META);
    if (id === undefined) throw new Error('the sandbox has no primary merchant yet');
    return id;
  }

  /** Starts timers: callback deliveries (pending ones from before a restart too) and auto-advance of open orders. */
  start(): void {
    this.dispatcher.start();
    if (this.autoAdvancer) {
      for (const row of pendingWithdrawals(this.db)) {
        if (!isOrderStatus(row.status) || !isWithdrawType(row.withdraw_type)) continue;
        this.autoAdvancer.watch({ merchantId: row.merchant_id, userOrder: row.user_order, withdrawType: row.withdraw_type, status: row.status });
      }
    }
  }

  async close(): Promise<void> {
    this.autoAdvancer?.close();
    await this.dispatcher.close();
    await this.commits.settled().catch(() => undefined);
    this.commits.commitNow();
    this.db.close();
  }

  // ---- merchants ----------------------------------------------------------------------------------------------

  /** Creates a merchant with a fresh key pair; the primary one's credentials go to credentials.json. */
  async createMerchant(options: NewMerchantOptions, random: RandomSource = this.random, primary = false): Promise<string> {
    const platformKey = this.platformKeyRow;
    if (!platformKey) throw new Error('the sandbox is not open');
    const keys = await newKeyPair();
    return this.commits.write(() => {
      const merchantId = insertMerchant(this.db, platformKey, keys, options, random, this.clock.nowMs());
      if (primary) setMeta(this.db, PRIMARY_MERCHANT_META, merchantId);
      return merchantId;
    });
  }

  merchantConfig(merchantId: string): MerchantConfig | undefined {
    return this.merchants.get(merchantId)?.config;
  }

  /** Admin change of configuration and/or available balances, in one transaction. */
  updateMerchant(merchantId: string, patch: MerchantPatch, balances?: Readonly<Partial<Record<CurrencySymbol, string>>>): void {
    this.commits.write(() => {
      patchMerchant(this.db, merchantId, patch);
      for (const [currency, amount] of Object.entries(balances ?? {}) as Array<[CurrencySymbol, string]>) {
        setAvailableBalance(this.db, merchantId, currency, new Money(amount));
      }
    });
    this.merchants.invalidate(merchantId);
    // A new callback URL may unblock deliveries waiting for their next attempt; they keep their schedule.
  }

  /**
   * Platform-side token expiry: every token of the merchant expires now (as when each reached its 8 h / 24 h limit,
   * §6.3), so its next request answers tokenExpired. Returns how many were live.
   */
  expireTokens(merchantId: string): number {
    const now = this.clock.nowSeconds();
    return this.commits.write(() => sql(this.db, 'UPDATE tokens SET expires_at = ? WHERE merchant_id = ? AND expires_at > ?').run(now, merchantId, now).changes);
  }

  /** A currency the platform adds after launch (admin): listed, balanced and credited from now on. */
  addCurrency(input: NewCurrency): AddCurrencyResult {
    return this.commits.write(() => addCurrency(this.db, input, this.clock.nowMs()));
  }

  // ---- clock --------------------------------------------------------------------------------------------------

  setClockOffset(seconds: number): void {
    this.clock.setOffsetSeconds(seconds);
    this.commits.write(() => setMeta(this.db, CLOCK_OFFSET_META, String(seconds)));
  }

  // ---- ledger operations --------------------------------------------------------------------------------------

  createAddress(merchantId: string, userOrder: string, addressType: AddressType): CreateAddressResult {
    return this.commits.write(() => createAddress(this.env, merchantId, userOrder, addressType));
  }

  createWithdrawal(merchant: MerchantConfig, body: unknown): CreateWithdrawalResult {
    return this.commits.write(() => createWithdrawal(this.env, merchant, body));
  }

  transfer(input: TransferInput): TransferResult {
    return this.commits.write(() => simulateTransfer(this.env, input));
  }

  advance(merchantId: string, userOrder: string, to: OrderStatus, actor: 'auto' | 'admin', message?: string): AdvanceResult {
    return this.commits.write(() => advanceWithdrawal(this.env, merchantId, userOrder, to, { actor, ...(message === undefined ? {} : { message }) }));
  }

  /** Ledger operations with events silenced (demo history: no callbacks, no timers). */
  withEvents(events: LedgerEvents): LedgerEnv {
    return { ...this.env, events };
  }

  private autoMove(target: AutoTarget, to: OrderStatus): void {
    try {
      this.commits.write(() => {
        const row = findWithdrawal(this.db, target.merchantId, target.userOrder);
        if (!row || row.status !== target.status) return; // moved meanwhile (admin): that move re-armed the timer
        advanceWithdrawal(this.env, target.merchantId, target.userOrder, to, { actor: 'auto' });
      });
    } catch (error) {
      if (this.db.open) console.error(`sandbox auto-advance of ${target.userOrder} failed: ${(error as Error).message}`);
    }
  }

  private events(): LedgerEvents {
    const { timeScale } = this.options;
    return {
      // §10.4: a deposit callback when a deposit is credited.
      depositCredited: (merchantId, record) => {
        if (this.anomalies.dropsDepositCallback(merchantId)) {
          recordLostCallback(this.db, merchantId, 'deposit', record.apiOrder, record, this.clock.realMs());
          return;
        }
        enqueueCallback(this.db, merchantId, 'deposit', record.apiOrder, record, this.clock.realMs(), timeScale);
        this.dispatcher.kick();
      },
      // Creation itself is not called back (§10.4: "every status change after creation").
      withdrawalCreated: (merchantId, record) => this.watch(merchantId, record.userOrder, record.withdrawType, record.orderStatus),
      withdrawalMoved: (merchantId, record) => {
        enqueueCallback(this.db, merchantId, 'withdraw', `${record.userOrder}:${record.orderStatus}`, record, this.clock.realMs(), timeScale);
        this.dispatcher.kick();
        this.watch(merchantId, record.userOrder, record.withdrawType, record.orderStatus);
      },
    };
  }

  private watch(merchantId: string, userOrder: string, withdrawType: string, status: string): void {
    if (!this.autoAdvancer || !isWithdrawType(withdrawType) || !isOrderStatus(status)) return;
    this.autoAdvancer.watch({ merchantId, userOrder, withdrawType, status });
  }
}
