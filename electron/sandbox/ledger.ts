// The ledger: balances per merchant and currency in exact decimal (§9.7), deposits credited from simulated
// transfers (§9.6, §11.5, §11.6), withdrawal orders with fees (§9.4, §9.5) moving along the spec's state table.
// Invariant (checkLedgerInvariant): available + frozen = opening + credited deposits - succeeded withdrawals
// (amount + fee), and frozen = amount + fee of the orders not yet final. Every function runs inside the caller's
// transaction: nothing here is visible to a client before its commit.
import type { DepositRecord, WithdrawalOrderRecord } from '../protocol';
import {
  CHAIN_INFO,
  checkAmount,
  CURRENCIES,
  isCurrencySymbol,
  formatMoney,
  Money,
  parseTonAddress,
  tonRawForm,
  validateAddress,
  validateForCurrency,
  WITHDRAWAL_CURRENCIES,
  type AddressType,
  type Chain,
  type CurrencySymbol,
} from '../chains';
import { computeFee, minimumAmount, type FeeSchedule } from '../protocol/fees';
import { AMOUNT_PATTERN, REMARK_MAX_LENGTH, USER_ORDER_PATTERN } from '../protocol/profile';
import { isTxidFormat, newChainAddress, newDepositAddress, newTxid, txidKey, type RandomSource } from './chain-sim';
import { addedCurrencies, addedCurrency } from './added-currencies';
import { currencyRecord } from './currencies-table';
import type { MerchantConfig } from './merchants';
import {
  hasOnChainTransfer,
  INITIAL_STATUS,
  isFinal,
  isLegalMove,
  isOrderStatus,
  isWithdrawType,
  type OrderStatus,
  type WithdrawType,
} from './order-states';
import { getMeta, nextCounter, setMeta, sql, type AddressRow, type BalanceRow, type Db, type DepositRow, type WithdrawalRow } from './store';

// ---- records (spec "Deposit record", "Withdrawal order record"; field order as in the spec) ----------------------

/** The deposit record as the protocol layer types it: the sandbox produces exactly what clients verify. */
export type { DepositRecord };

/** The withdrawal order record as the protocol layer types it. */
export type WithdrawalRecord = WithdrawalOrderRecord;

export function depositRecord(row: DepositRow): DepositRecord {
  return {
    businessType: 'deposit',
    txid: row.txid,
    address: row.address,
    addressType: row.address_type,
    fromAddress: row.from_address,
    amount: row.amount,
    currency: row.currency,
    fee: row.fee,
    apiOrder: row.api_order,
    userOrder: row.user_order,
  };
}

export function withdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    businessType: 'withdraw',
    toAddress: row.to_address,
    amount: row.amount,
    currency: row.currency,
    fee: row.fee,
    apiOrder: row.api_order,
    userOrder: row.user_order,
    withdrawType: row.withdraw_type === 'financialConfirmation' ? 'financialConfirmation' : 'normal',
    message: row.message,
    txid: row.txid,
    orderStatus: row.status,
  };
}

// ---- environment ------------------------------------------------------------------------------------------------

/** Hooks the ledger calls inside the transaction; callbacks (§10.4) and auto-advance subscribe here. */
export interface LedgerEvents {
  depositCredited(merchantId: string, record: DepositRecord): void;
  withdrawalCreated(merchantId: string, record: WithdrawalRecord): void;
  /** Every status change after creation, the final one included (§10.4). */
  withdrawalMoved(merchantId: string, record: WithdrawalRecord): void;
}

export const SILENT_EVENTS: LedgerEvents = {
  depositCredited: () => undefined,
  withdrawalCreated: () => undefined,
  withdrawalMoved: () => undefined,
};

export interface LedgerEnv {
  readonly db: Db;
  /** Sandbox milliseconds (clock offset included), stored on records for the admin's eyes only. */
  readonly nowMs: () => number;
  readonly random: RandomSource;
  readonly events: LedgerEvents;
  /** A fee to charge a new order instead of the currency table's (admin anomalies, anomalies.ts); undefined: the table's. */
  readonly withdrawFee?: (merchantId: string, currency: string) => string | undefined;
}

const INSTANCE_TAG_META = 'instance_tag';
const API_ORDER_DIGITS = 12;

/** A short tag making apiOrder numbers of different sandboxes differ; created once per data folder. */
export function ensureInstanceTag(db: Db, random: RandomSource): string {
  const existing = getMeta(db, INSTANCE_TAG_META);
  if (existing !== undefined) return existing;
  const tag = random(2).toString('hex').toUpperCase();
  setMeta(db, INSTANCE_TAG_META, tag);
  return tag;
}

/** Unique platform order numbers: DP... for deposits, WD... for withdrawals (spec `apiOrder`, §8 "unique per deposit"). */
function newApiOrder(db: Db, kind: 'DP' | 'WD'): string {
  const tag = getMeta(db, INSTANCE_TAG_META) ?? '0000';
  return `${kind}${tag}${String(nextCounter(db, kind)).padStart(API_ORDER_DIGITS, '0')}`;
}

// ---- balances -----------------------------------------------------------------------------------------------------

interface Balance {
  readonly available: Money;
  readonly frozen: Money;
}

function readBalance(db: Db, merchantId: string, currency: string): Balance {
  const row = sql(db, 'SELECT available, frozen FROM balances WHERE merchant_id = ? AND currency = ?').get(merchantId, currency) as
    | Pick<BalanceRow, 'available' | 'frozen'>
    | undefined;
  if (!row) throw new Error(`no balance row for ${merchantId} ${currency}`);
  return { available: new Money(row.available), frozen: new Money(row.frozen) };
}

function writeBalance(db: Db, merchantId: string, currency: string, balance: Balance): void {
  sql(db, 'UPDATE balances SET available = ?, frozen = ? WHERE merchant_id = ? AND currency = ?').run(
    formatMoney(balance.available),
    formatMoney(balance.frozen),
    merchantId,
    currency,
  );
}

export interface BalanceView {
  readonly currency: string;
  readonly available: string;
  readonly frozen: string;
}

/** One entry per currency symbol, the spec's 13 in its order, then those added later (§8 merchantInfo). */
export function balancesOf(db: Db, merchantId: string): BalanceView[] {
  const rows = sql(db, 'SELECT currency, available, frozen FROM balances WHERE merchant_id = ?').all(merchantId) as BalanceRow[];
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  return [...WITHDRAWAL_CURRENCIES, ...addedCurrencies(db).map((added) => added.symbol)].map((currency) => ({
    currency,
    available: byCurrency.get(currency)?.available ?? '0',
    frozen: byCurrency.get(currency)?.frozen ?? '0',
  }));
}

/**
 * Sets `available` (admin); the difference is booked as an opening-balance adjustment so the invariant still holds.
 * `frozen` is untouched: it belongs to orders in flight.
 */
export function setAvailableBalance(db: Db, merchantId: string, currency: CurrencySymbol, amount: Money): void {
  const row = sql(db, 'SELECT available, opening FROM balances WHERE merchant_id = ? AND currency = ?').get(merchantId, currency) as
    | Pick<BalanceRow, 'available' | 'opening'>
    | undefined;
  if (!row) throw new Error(`no balance row for ${merchantId} ${currency}`);
  const delta = amount.minus(new Money(row.available));
  sql(db, 'UPDATE balances SET available = ?, opening = ? WHERE merchant_id = ? AND currency = ?').run(
    formatMoney(amount),
    formatMoney(new Money(row.opening).plus(delta)),
    merchantId,
    currency,
  );
}

// ---- addresses ----------------------------------------------------------------------------------------------------

/** The key under which an address is matched: EVM hex case-insensitively, TON by raw form, others exactly. */
export function addressKey(chain: Chain, address: string): string {
  if (chain === 'eth' || chain === 'bnb') return address.toLowerCase();
  if (chain === 'ton') {
    const parsed = parseTonAddress(address);
    return parsed.ok ? tonRawForm(parsed.account) : address;
  }
  return address;
}

function chainOfAddressType(addressType: AddressType): Chain {
  const chain = (Object.keys(CHAIN_INFO) as Chain[]).find((candidate) => CHAIN_INFO[candidate].addressType === addressType);
  if (!chain) throw new Error(`no chain for ${addressType}`);
  return chain;
}

export type CreateAddressResult =
  | { readonly ok: true; readonly record: { address: string; addressType: string; userOrder: string } }
  | { readonly ok: false; readonly message: 'userOrderConflict' };

/** createAddress (§8): same userOrder and addressType return the same address; another addressType conflicts. */
export function createAddress(
  env: LedgerEnv,
  merchantId: string,
  userOrder: string,
  addressType: AddressType,
): CreateAddressResult {
  const { db } = env;
  const existing = sql(db, 'SELECT * FROM addresses WHERE merchant_id = ? AND user_order = ?').get(merchantId, userOrder) as
    | AddressRow
    | undefined;
  if (existing) {
    if (existing.address_type !== addressType) return { ok: false, message: 'userOrderConflict' };
    return { ok: true, record: { address: existing.address, addressType, userOrder } };
  }
  const chain = chainOfAddressType(addressType);
  let address: string;
  do {
    address = newDepositAddress(addressType, env.random);
  } while (sql(db, 'SELECT 1 FROM addresses WHERE address_type = ? AND address_key = ?').get(addressType, addressKey(chain, address)));
  sql(
    db,
    'INSERT INTO addresses (merchant_id, user_order, address_type, address, address_key, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(merchantId, userOrder, addressType, address, addressKey(chain, address), env.nowMs());
  return { ok: true, record: { address, addressType, userOrder } };
}

// ---- deposits -----------------------------------------------------------------------------------------------------

/** The symbol of USDC on TRON: exists on chain, never credited (§11.6). */
export const TRON_USDC = 'trx.usdc';
const TRON_USDC_DECIMALS = 6;

/** A symbol a simulated transfer may carry: the 13, USDC on TRON (never credited), or a currency added later. */
export type TransferCurrency = string;

/** How a transfer of a currency is simulated: its chain, decimals, and deposit fees (none for USDC on TRON). */
export interface TransferCurrencyInfo {
  readonly chain: Chain;
  readonly decimals: number;
  /** Null for USDC on TRON, which is never credited (§11.6). */
  readonly schedule: FeeSchedule | null;
}

export function transferCurrencyInfo(db: Db, currency: string): TransferCurrencyInfo | undefined {
  if (currency === TRON_USDC) return { chain: 'trx', decimals: TRON_USDC_DECIMALS, schedule: null };
  if (isCurrencySymbol(currency)) return { chain: CURRENCIES[currency].chain, decimals: CURRENCIES[currency].decimals, schedule: currencyRecord(currency) };
  const added = addedCurrency(db, currency);
  return added === undefined ? undefined : { chain: added.chain, decimals: added.decimals, schedule: added.record };
}

/** Whether a simulated transfer may carry `value` (see TransferCurrency). */
export function isTransferCurrency(db: Db, value: string): boolean {
  return transferCurrencyInfo(db, value) !== undefined;
}

/** Whether getDeposits can filter by `value`: one of the 13, or a currency added later. */
export function isDepositCurrency(db: Db, value: string): boolean {
  return isCurrencySymbol(value) || addedCurrency(db, value) !== undefined;
}

export interface TransferInput {
  readonly toAddress: string;
  readonly currency: TransferCurrency;
  /** Gross amount sent on chain (decimal string, at most the currency's decimals). */
  readonly amount: string;
  readonly fromAddress?: string;
  readonly txid?: string;
}

export type NotCreditedReason = 'trxUsdcNotSupported' | 'addressNotIssued' | 'belowDepositMin' | 'feeExceedsAmount';

export type TransferResult =
  | { readonly ok: true; readonly credited: true; readonly txid: string; readonly deposit: DepositRecord; readonly merchantId: string }
  | { readonly ok: true; readonly credited: false; readonly txid: string; readonly reason: NotCreditedReason }
  | { readonly ok: false; readonly status: 400 | 409; readonly reason: string };

/**
 * A simulated on-chain transfer to `toAddress`. It is credited only to an issued address of the right chain, never
 * for USDC on TRON (§11.6), never below deposit_min (§9.6); fee per §9.6, the record's amount = gross - fee.
 */
export function simulateTransfer(env: LedgerEnv, input: TransferInput): TransferResult {
  const { db } = env;
  const currencyInfo = transferCurrencyInfo(db, input.currency);
  if (currencyInfo === undefined) return { ok: false, status: 400, reason: `currency ${input.currency} is not one the platform knows` };
  const { chain, decimals, schedule } = currencyInfo;
  const amountText = input.amount;
  if (!AMOUNT_PATTERN.test(amountText) || (amountText.split('.')[1]?.length ?? 0) > decimals) {
    return { ok: false, status: 400, reason: `amount must be a decimal string with at most ${decimals} decimals` };
  }
  const gross = new Money(amountText);
  if (gross.isZero()) return { ok: false, status: 400, reason: 'amount must be greater than zero' };
  const to = validateAddress(chain, input.toAddress);
  if (!to.valid) return { ok: false, status: 400, reason: `toAddress is not a valid ${chain} address: ${to.reason}` };
  let fromAddress = input.fromAddress;
  if (fromAddress !== undefined) {
    const from = validateAddress(chain, fromAddress);
    if (!from.valid) return { ok: false, status: 400, reason: `fromAddress is not a valid ${chain} address: ${from.reason}` };
  } else {
    fromAddress = newChainAddress(chain, env.random);
  }
  let txid = input.txid;
  if (txid !== undefined) {
    if (!isTxidFormat(chain, txid)) return { ok: false, status: 400, reason: `txid is not in the ${chain} transaction-id format` };
    if (sql(db, 'SELECT 1 FROM chain_transfers WHERE chain = ? AND txid_key = ?').get(chain, txidKey(chain, txid))) {
      return { ok: false, status: 409, reason: `a transfer with this txid already exists on ${chain}` };
    }
  } else {
    do {
      txid = newTxid(chain, env.random);
    } while (sql(db, 'SELECT 1 FROM chain_transfers WHERE chain = ? AND txid_key = ?').get(chain, txidKey(chain, txid)));
  }

  const addressType = CHAIN_INFO[chain].addressType;
  const target = sql(db, 'SELECT * FROM addresses WHERE address_type = ? AND address_key = ?').get(
    addressType,
    addressKey(chain, input.toAddress),
  ) as AddressRow | undefined;

  let reason: NotCreditedReason | undefined;
  let fee = new Money(0);
  if (schedule === null) reason = 'trxUsdcNotSupported';
  else if (!target) reason = 'addressNotIssued';
  else {
    if (gross.lessThan(minimumAmount(schedule, 'deposit'))) reason = 'belowDepositMin';
    else {
      fee = computeFee(schedule, 'deposit', gross, decimals);
      if (!gross.greaterThan(fee)) reason = 'feeExceedsAmount';
    }
  }

  sql(
    db,
    `INSERT INTO chain_transfers (chain, txid_key, txid, currency, from_address, to_address, amount, source, credited, reason, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'deposit', ?, ?, ?)`,
  ).run(chain, txidKey(chain, txid), txid, input.currency, fromAddress, input.toAddress, formatMoney(gross), reason ? 0 : 1, reason ?? null, env.nowMs());
  if (reason !== undefined || !target || schedule === null) {
    return { ok: true, credited: false, txid, reason: reason ?? 'addressNotIssued' };
  }

  const currency = input.currency;
  const net = gross.minus(fee);
  const apiOrder = newApiOrder(db, 'DP');
  const result = sql(
    db,
    `INSERT INTO deposits (api_order, merchant_id, txid, chain, currency, address, address_type, from_address, gross, amount, fee,
       user_order, credited_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    apiOrder,
    target.merchant_id,
    txid,
    chain,
    currency,
    target.address,
    target.address_type,
    fromAddress,
    formatMoney(gross),
    formatMoney(net),
    formatMoney(fee),
    target.user_order,
    env.nowMs(),
  );
  const balance = readBalance(db, target.merchant_id, currency);
  writeBalance(db, target.merchant_id, currency, { available: balance.available.plus(net), frozen: balance.frozen });
  const row = sql(db, 'SELECT * FROM deposits WHERE seq = ?').get(result.lastInsertRowid) as DepositRow;
  const deposit = depositRecord(row);
  env.events.depositCredited(target.merchant_id, deposit);
  return { ok: true, credited: true, txid, deposit, merchantId: target.merchant_id };
}

/**
 * Where each getDeposits page a client read ended (the seq of its last row), by merchant, currency filter, unlisted set
 * and rows skipped, so that the next page starts there (`seq < end`) instead of stepping over every row before it with
 * OFFSET: page 10,000 of 1,000,000 deposits took 229 ms that way, and a first sync of a million asks for all of them.
 * The rows are the same: deposits are only ever inserted, each with a larger seq than any before, and an insert (a new
 * newest seq) clears the ends.
 */
const depositPageEnds = new WeakMap<Db, { newestSeq: number; readonly ends: Map<string, number> }>();
/** Page ends remembered at most (about 50 bytes each); past it they are forgotten and pages fall back to OFFSET. */
const DEPOSIT_PAGE_ENDS_MAX = 200_000;

/**
 * getDeposits: newest credited first, optional currency filter, 1-based pages (§8, spec getDeposits); `unlisted`
 * apiOrders are left out (an admin anomaly, anomalies.ts).
 */
export function depositsPage(db: Db, merchantId: string, currency: string | undefined, page: number, limit: number, unlisted: readonly string[] = []): DepositRecord[] {
  const offset = (page - 1) * limit;
  const hidden = JSON.stringify(unlisted);
  const newestSeq = (sql(db, 'SELECT MAX(seq) AS seq FROM deposits').get() as { seq: number | null }).seq ?? 0;
  let known = depositPageEnds.get(db);
  if (known === undefined || known.newestSeq !== newestSeq || known.ends.size >= DEPOSIT_PAGE_ENDS_MAX) {
    known = { newestSeq, ends: new Map() };
    depositPageEnds.set(db, known);
  }
  const query = `${merchantId}\0${currency ?? ''}\0${hidden}\0`;
  const end = offset === 0 ? undefined : known.ends.get(query + String(offset));
  const filter = `merchant_id = ?${currency === undefined ? '' : ' AND currency = ?'} AND api_order NOT IN (SELECT value FROM json_each(?))`;
  const keys = currency === undefined ? [merchantId, hidden] : [merchantId, currency, hidden];
  const rows = (
    end !== undefined
      ? sql(db, `SELECT * FROM deposits WHERE ${filter} AND seq < ? ORDER BY seq DESC LIMIT ?`).all(...keys, end, limit)
      : sql(db, `SELECT * FROM deposits WHERE ${filter} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...keys, limit, offset)
  ) as DepositRow[];
  const last = rows.at(-1);
  if (last !== undefined) known.ends.set(query + String(offset + rows.length), last.seq);
  return rows.map(depositRecord);
}

/** checkTransfer: the simulated transfer with this txid on the currency's chain and of that currency, if any. */
export function findTransfer(db: Db, currency: CurrencySymbol, txid: string): { credited: boolean; source: string } | undefined {
  const chain = CURRENCIES[currency].chain;
  const row = sql(db, 'SELECT credited, source, currency FROM chain_transfers WHERE chain = ? AND txid_key = ?').get(
    chain,
    txidKey(chain, txid),
  ) as { credited: number; source: string; currency: string } | undefined;
  if (!row || row.currency !== currency) return undefined;
  return { credited: row.credited === 1, source: row.source };
}

// ---- withdrawals --------------------------------------------------------------------------------------------------

/** The longest destination text accepted before address rules run (a length limit, §7 paramError). */
const TO_ADDRESS_MAX_LENGTH = 128;

export type WithdrawalFailure =
  | 'paramError'
  | 'userOrderConflict'
  | 'currencyNotSupported'
  | 'invalidAmount'
  | 'withdrawMinAmount'
  | 'invalidAddress'
  | 'withdrawTypeNotAllowed'
  | 'auditorMessengerNotBound'
  | 'insufficientBalance';

export type CreateWithdrawalResult =
  | { readonly ok: true; readonly record: WithdrawalRecord; readonly created: boolean }
  | { readonly ok: false; readonly message: WithdrawalFailure };

interface WithdrawalParams {
  readonly userOrder: string;
  readonly currency: string;
  readonly amount: string;
  readonly toAddress: string;
  readonly withdrawType: WithdrawType;
  readonly remark: string;
}

/** Shape check of the request (§7 paramError: missing, wrong JSON type, unknown enum value, over a length limit). */
function parseWithdrawalParams(body: unknown): WithdrawalParams | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { userOrder, currency, amount, toAddress, withdrawType, remark } = body as Record<string, unknown>;
  if (typeof userOrder !== 'string' || !USER_ORDER_PATTERN.test(userOrder)) return undefined;
  if (typeof currency !== 'string' || currency.length === 0) return undefined;
  if (typeof amount !== 'string') return undefined;
  if (typeof toAddress !== 'string' || toAddress.length === 0 || toAddress.length > TO_ADDRESS_MAX_LENGTH) return undefined;
  if (withdrawType !== undefined && (typeof withdrawType !== 'string' || !isWithdrawType(withdrawType))) return undefined;
  if (remark !== undefined && (typeof remark !== 'string' || remark.length > REMARK_MAX_LENGTH)) return undefined;
  return { userOrder, currency, amount, toAddress, withdrawType: withdrawType ?? 'normal', remark: remark ?? '' };
}

/** Same parameters as the stored order (amount compared by value: "1.50" equals "1.5"). */
function sameParams(row: WithdrawalRow, params: WithdrawalParams): boolean {
  let sameAmount = false;
  if (AMOUNT_PATTERN.test(params.amount)) sameAmount = new Money(params.amount).equals(new Money(row.amount));
  return (
    sameAmount &&
    row.currency === params.currency &&
    row.to_address === params.toAddress &&
    row.withdraw_type === params.withdrawType &&
    row.remark === params.remark
  );
}

/**
 * createWithdrawOrder (§8, §7, §9): idempotent by userOrder; validation in the order paramError, currencyNotSupported,
 * invalidAmount, withdrawMinAmount, invalidAddress, withdrawTypeNotAllowed, auditorMessengerNotBound,
 * insufficientBalance; on success amount + fee move from available to frozen (§9.5) and the order is pendingConfirm.
 */
export function createWithdrawal(env: LedgerEnv, merchant: MerchantConfig, body: unknown): CreateWithdrawalResult {
  const { db } = env;
  const params = parseWithdrawalParams(body);
  if (!params) return { ok: false, message: 'paramError' };
  const existing = sql(db, 'SELECT * FROM withdrawals WHERE merchant_id = ? AND user_order = ?').get(merchant.merchantId, params.userOrder) as
    | WithdrawalRow
    | undefined;
  if (existing) {
    // §8: identical parameters return the existing record and deduct nothing; different ones conflict.
    return sameParams(existing, params) ? { ok: true, record: withdrawalRecord(existing), created: false } : { ok: false, message: 'userOrderConflict' };
  }
  if (!isCurrencySymbol(params.currency)) return { ok: false, message: 'currencyNotSupported' };
  const currency = params.currency;
  const amountCheck = checkAmount(currency, params.amount);
  if (!amountCheck.ok) return { ok: false, message: 'invalidAmount' };
  const amount = amountCheck.value;
  const schedule = currencyRecord(currency);
  if (amount.lessThan(minimumAmount(schedule, 'withdraw'))) return { ok: false, message: 'withdrawMinAmount' };
  if (!validateForCurrency(currency, params.toAddress).valid) return { ok: false, message: 'invalidAddress' };
  if (!merchant.withdrawTypes.includes(params.withdrawType)) return { ok: false, message: 'withdrawTypeNotAllowed' };
  if (params.withdrawType === 'financialConfirmation' && !merchant.auditorMessengerBound) {
    return { ok: false, message: 'auditorMessengerNotBound' };
  }
  const charged = env.withdrawFee?.(merchant.merchantId, currency);
  const fee = charged === undefined ? computeFee(schedule, 'withdraw', amount, CURRENCIES[currency].decimals) : new Money(charged);
  const total = amount.plus(fee);
  const balance = readBalance(db, merchant.merchantId, currency);
  if (balance.available.lessThan(total)) return { ok: false, message: 'insufficientBalance' };

  writeBalance(db, merchant.merchantId, currency, { available: balance.available.minus(total), frozen: balance.frozen.plus(total) });
  const now = env.nowMs();
  const result = sql(
    db,
    `INSERT INTO withdrawals (merchant_id, user_order, api_order, currency, amount, fee, to_address, withdraw_type, remark, message,
       txid, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)`,
  ).run(
    merchant.merchantId,
    params.userOrder,
    newApiOrder(db, 'WD'),
    currency,
    formatMoney(amount),
    formatMoney(fee),
    params.toAddress,
    params.withdrawType,
    params.remark,
    params.remark,
    INITIAL_STATUS,
    now,
    now,
  );
  sql(db, 'INSERT INTO withdrawal_history (withdrawal_seq, from_status, to_status, actor, at) VALUES (?, NULL, ?, ?, ?)').run(
    result.lastInsertRowid,
    INITIAL_STATUS,
    'merchant',
    now,
  );
  const record = withdrawalRecord(sql(db, 'SELECT * FROM withdrawals WHERE seq = ?').get(result.lastInsertRowid) as WithdrawalRow);
  env.events.withdrawalCreated(merchant.merchantId, record);
  return { ok: true, record, created: true };
}

export function findWithdrawal(db: Db, merchantId: string, userOrder: string): WithdrawalRow | undefined {
  return sql(db, 'SELECT * FROM withdrawals WHERE merchant_id = ? AND user_order = ?').get(merchantId, userOrder) as WithdrawalRow | undefined;
}

export type AdvanceResult =
  | { readonly ok: true; readonly record: WithdrawalRecord }
  | { readonly ok: false; readonly kind: 'notFound' | 'illegal'; readonly reason: string };

export interface AdvanceOptions {
  /** Replaces the record's `message` (remarks), e.g. a rejection reason. */
  readonly message?: string;
  readonly actor: 'auto' | 'admin' | 'seed';
}

/**
 * Moves an order along the state table. Entering pendingCallback (or success without one) records the on-chain
 * transfer's txid; success releases frozen funds (they left); WithdrawRefund and fail return amount + fee (§9.5).
 */
export function advanceWithdrawal(env: LedgerEnv, merchantId: string, userOrder: string, to: OrderStatus, options: AdvanceOptions): AdvanceResult {
  const { db } = env;
  const row = findWithdrawal(db, merchantId, userOrder);
  if (!row) return { ok: false, kind: 'notFound', reason: `no withdrawal order ${userOrder} for merchant ${merchantId}` };
  const from = row.status;
  if (!isOrderStatus(from) || !isWithdrawType(row.withdraw_type)) throw new Error(`stored order ${row.api_order} has an unknown state`);
  if (!isLegalMove(row.withdraw_type, from, to)) {
    return { ok: false, kind: 'illegal', reason: `${from} -> ${to} is not a move of the state table for a ${row.withdraw_type} order` };
  }
  const currency = row.currency as CurrencySymbol;
  const total = new Money(row.amount).plus(new Money(row.fee));
  let txid = row.txid;
  if (hasOnChainTransfer(to) && txid === '') {
    const chain = CURRENCIES[currency].chain;
    do {
      txid = newTxid(chain, env.random);
    } while (sql(db, 'SELECT 1 FROM chain_transfers WHERE chain = ? AND txid_key = ?').get(chain, txidKey(chain, txid)));
    sql(
      db,
      `INSERT INTO chain_transfers (chain, txid_key, txid, currency, from_address, to_address, amount, source, credited, reason, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'withdrawal', 0, NULL, ?)`,
    ).run(chain, txidKey(chain, txid), txid, currency, newChainAddress(chain, env.random), row.to_address, row.amount, env.nowMs());
  }
  if (isFinal(to)) {
    const balance = readBalance(db, merchantId, currency);
    const refund = to !== 'success';
    writeBalance(db, merchantId, currency, {
      available: refund ? balance.available.plus(total) : balance.available,
      frozen: balance.frozen.minus(total),
    });
  }
  const now = env.nowMs();
  sql(db, 'UPDATE withdrawals SET status = ?, txid = ?, message = ?, updated_at = ? WHERE seq = ?').run(
    to,
    txid,
    options.message ?? row.message,
    now,
    row.seq,
  );
  sql(db, 'INSERT INTO withdrawal_history (withdrawal_seq, from_status, to_status, actor, at) VALUES (?, ?, ?, ?, ?)').run(
    row.seq,
    from,
    to,
    options.actor,
    now,
  );
  const record = withdrawalRecord(sql(db, 'SELECT * FROM withdrawals WHERE seq = ?').get(row.seq) as WithdrawalRow);
  env.events.withdrawalMoved(merchantId, record);
  return { ok: true, record };
}

/** Orders not yet final, oldest first (auto-advance resumes them after a restart). */
export function pendingWithdrawals(db: Db): WithdrawalRow[] {
  return sql(
    db,
    `SELECT * FROM withdrawals WHERE status NOT IN ('success', 'WithdrawRefund', 'fail') ORDER BY seq`,
  ).all() as WithdrawalRow[];
}

export function withdrawalHistory(db: Db, seq: number): Array<{ from: string | null; to: string; actor: string; at: number }> {
  return (
    sql(db, 'SELECT from_status, to_status, actor, at FROM withdrawal_history WHERE withdrawal_seq = ? ORDER BY id').all(seq) as Array<{
      from_status: string | null;
      to_status: string;
      actor: string;
      at: number;
    }>
  ).map((row) => ({ from: row.from_status, to: row.to_status, actor: row.actor, at: row.at }));
}

// ---- the invariant ------------------------------------------------------------------------------------------------

export interface InvariantEntry {
  readonly merchantId: string;
  readonly currency: string;
  readonly available: string;
  readonly frozen: string;
  readonly opening: string;
  readonly credited: string;
  readonly withdrawn: string;
  readonly inFlight: string;
}

export interface InvariantViolation extends InvariantEntry {
  readonly rule: 'conservation' | 'frozen' | 'negative';
  readonly detail: string;
}

export interface InvariantReport {
  readonly ok: boolean;
  readonly checked: number;
  readonly violations: readonly InvariantViolation[];
}

/**
 * The ledger invariant, per merchant and currency:
 *   conservation: available + frozen = opening + credited deposits - succeeded withdrawals (amount + fee);
 *   frozen: frozen = amount + fee of the merchant's orders not yet final;
 *   negative: neither available nor frozen is below zero.
 * Sums are computed in decimal.js from the TEXT columns (never SQL SUM, which would use floating point).
 */
export function checkLedgerInvariant(db: Db, merchantId?: string): InvariantReport {
  const balances = (
    merchantId === undefined
      ? sql(db, 'SELECT * FROM balances ORDER BY merchant_id, currency').all()
      : sql(db, 'SELECT * FROM balances WHERE merchant_id = ? ORDER BY currency').all(merchantId)
  ) as BalanceRow[];
  const zero = new Money(0);
  const totals = new Map<string, { credited: Money; withdrawn: Money; inFlight: Money }>();
  const bucket = (merchant: string, currency: string) => {
    const key = `${merchant}\u0000${currency}`;
    let entry = totals.get(key);
    if (!entry) {
      entry = { credited: zero, withdrawn: zero, inFlight: zero };
      totals.set(key, entry);
    }
    return entry;
  };
  const deposits = (
    merchantId === undefined
      ? sql(db, 'SELECT merchant_id, currency, amount FROM deposits').all()
      : sql(db, 'SELECT merchant_id, currency, amount FROM deposits WHERE merchant_id = ?').all(merchantId)
  ) as Array<{ merchant_id: string; currency: string; amount: string }>;
  for (const row of deposits) {
    const entry = bucket(row.merchant_id, row.currency);
    entry.credited = entry.credited.plus(new Money(row.amount));
  }
  const orders = (
    merchantId === undefined
      ? sql(db, 'SELECT merchant_id, currency, amount, fee, status FROM withdrawals').all()
      : sql(db, 'SELECT merchant_id, currency, amount, fee, status FROM withdrawals WHERE merchant_id = ?').all(merchantId)
  ) as Array<{ merchant_id: string; currency: string; amount: string; fee: string; status: string }>;
  for (const row of orders) {
    const entry = bucket(row.merchant_id, row.currency);
    const total = new Money(row.amount).plus(new Money(row.fee));
    if (row.status === 'success') entry.withdrawn = entry.withdrawn.plus(total);
    else if (!isOrderStatus(row.status) || !isFinal(row.status)) entry.inFlight = entry.inFlight.plus(total);
  }
  const violations: InvariantViolation[] = [];
  for (const row of balances) {
    const { credited, withdrawn, inFlight } = bucket(row.merchant_id, row.currency);
    const available = new Money(row.available);
    const frozen = new Money(row.frozen);
    const opening = new Money(row.opening);
    const entry: InvariantEntry = {
      merchantId: row.merchant_id,
      currency: row.currency,
      available: row.available,
      frozen: row.frozen,
      opening: row.opening,
      credited: formatMoney(credited),
      withdrawn: formatMoney(withdrawn),
      inFlight: formatMoney(inFlight),
    };
    const expected = opening.plus(credited).minus(withdrawn);
    if (!available.plus(frozen).equals(expected)) {
      violations.push({ ...entry, rule: 'conservation', detail: `available + frozen = ${formatMoney(available.plus(frozen))}, expected ${formatMoney(expected)}` });
    }
    if (!frozen.equals(inFlight)) {
      violations.push({ ...entry, rule: 'frozen', detail: `frozen = ${row.frozen}, orders in flight hold ${formatMoney(inFlight)}` });
    }
    if (available.isNegative() || frozen.isNegative()) {
      violations.push({ ...entry, rule: 'negative', detail: 'a balance is below zero' });
    }
  }
  return { ok: violations.length === 0, checked: balances.length, violations };
}
