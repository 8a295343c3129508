// Zod schemas for every business JSON the service returns (spec "Resources", PROTOCOL §8, §9, §12) and the request
// validators the clients run before sending. Invariant: unknown fields are kept (loose objects, §8 last line); money
// stays a decimal string (§9.1) and is never turned into a JavaScript number.
import { z } from 'zod';
import {
  ADDRESS_TYPES,
  CURRENCIES,
  CURRENCY_SYMBOL_MAX_LENGTH,
  CURRENCY_SYMBOL_PATTERN,
  QR_ADDRESS_TYPES,
  RESERVED_ADDRESS_TYPES,
  WITHDRAWAL_CURRENCIES,
  type CurrencySymbol,
} from '../chains/currencies';
import {
  AMOUNT_PATTERN,
  API_VERSION,
  DEPOSITS_LIMIT_MAX,
  DEPOSITS_LIMIT_MIN,
  FINAL_ORDER_STATUSES,
  KNOWN_PENDING_ORDER_STATUSES,
  REMARK_MAX_LENGTH,
  USER_ORDER_PATTERN,
  WITHDRAW_TYPES,
} from './profile';

// ---------------------------------------------------------------------------------------------------------------
// Building blocks

/** §9.1 A decimal string: digits, optionally one '.' and more digits. "0" is allowed (fees, balances). */
export const decimalStringSchema = z.string().regex(AMOUNT_PATTERN, 'must be a decimal string such as "12.5" (§9.1)');

/**
 * A currency symbol as the service reports it (`trx`, `eth.usdt`, ...). Records are not limited to today's 13 symbols:
 * the spec says more currencies may be added (spec "Supported chains" rule 4), and one new symbol must not make a
 * whole getDeposits page unreadable. Use `isCurrencySymbol` (chains) to narrow.
 */
export const reportedCurrencySchema = z.string().max(CURRENCY_SYMBOL_MAX_LENGTH).regex(CURRENCY_SYMBOL_PATTERN, 'must be a currency symbol like "trx.usdt"');

/** An addressType as reported in records: today one of trx, solana, eth_bnb, ton (btc reserved); more may come. */
export const reportedAddressTypeSchema = z.string().regex(/^[a-z0-9_]+$/, 'must be an address type like "eth_bnb"');

const nonEmpty = z.string().min(1);

// ---------------------------------------------------------------------------------------------------------------
// Withdrawal order states (spec "States and transitions")

export type FinalOrderStatus = (typeof FINAL_ORDER_STATUSES)[number];
export type KnownPendingOrderStatus = (typeof KNOWN_PENDING_ORDER_STATUSES)[number];
/** Known names are typed; any other non-empty name is an intermediate state (spec rule 1: pending names may change). */
export type OrderStatus = FinalOrderStatus | KnownPendingOrderStatus | (string & {});

export function isFinalOrderStatus(status: string): status is FinalOrderStatus {
  return (FINAL_ORDER_STATUSES as readonly string[]).includes(status);
}

export function isKnownPendingOrderStatus(status: string): status is KnownPendingOrderStatus {
  return (KNOWN_PENDING_ORDER_STATUSES as readonly string[]).includes(status);
}

export const orderStatusSchema = z
  .string()
  .min(1, 'orderStatus must not be empty')
  .transform((status): OrderStatus => status);

export type WithdrawType = (typeof WITHDRAW_TYPES)[number];
export const withdrawTypeSchema = z.enum(WITHDRAW_TYPES);

// ---------------------------------------------------------------------------------------------------------------
// Response schemas (the decrypted `data` of each business endpoint)

/** getToken (§6.2). The token is opaque to the client; it must only be safe to put in a header. */
export const tokenResponseSchema = z.looseObject({
  token: z.string().regex(/^[\x21-\x7e]{1,512}$/, 'token must be 1-512 visible ASCII characters'),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** createAddress (§8): `{address, addressType, userOrder}`. */
export const createdAddressSchema = z.looseObject({
  address: nonEmpty,
  addressType: reportedAddressTypeSchema,
  userOrder: nonEmpty,
});
export type CreatedAddress = z.infer<typeof createdAddressSchema>;

/** Withdrawal order record (spec; checkWithdrawOrder, createWithdrawOrder, withdrawal callback). */
export const withdrawalOrderRecordSchema = z.looseObject({
  businessType: z.literal('withdraw'),
  toAddress: nonEmpty,
  amount: decimalStringSchema,
  currency: reportedCurrencySchema,
  fee: decimalStringSchema,
  apiOrder: nonEmpty,
  userOrder: nonEmpty,
  withdrawType: withdrawTypeSchema,
  message: z.string(),
  /** May be empty while the order is in progress. */
  txid: z.string(),
  orderStatus: orderStatusSchema,
});
export type WithdrawalOrderRecord = z.infer<typeof withdrawalOrderRecordSchema>;

/** Deposit record (spec; getDeposits element and deposit callback). */
export const depositRecordSchema = z.looseObject({
  businessType: z.literal('deposit'),
  txid: nonEmpty,
  address: nonEmpty,
  addressType: reportedAddressTypeSchema,
  fromAddress: z.string(),
  amount: decimalStringSchema,
  currency: reportedCurrencySchema,
  fee: decimalStringSchema,
  apiOrder: nonEmpty,
  userOrder: z.string(),
});
export type DepositRecord = z.infer<typeof depositRecordSchema>;

/** getDeposits `data`: newest first (§8). */
export const depositPageSchema = z.array(depositRecordSchema);

export const balanceSchema = z.looseObject({
  currency: reportedCurrencySchema,
  available: decimalStringSchema,
  frozen: decimalStringSchema,
});
export type Balance = z.infer<typeof balanceSchema>;

/**
 * merchantInfo (§8). `withdrawTypes` lists the platform's names as sent: a type added later must not make the whole
 * answer (and the balances in it) unreadable; the desk only ever sends the two it knows (WITHDRAW_TYPES).
 */
export const merchantInfoSchema = z.looseObject({
  merchantId: nonEmpty,
  merchantName: z.string(),
  apiVersion: z.int().min(1),
  withdrawTypes: z.array(nonEmpty),
  auditorMessengerBound: z.boolean(),
  balances: z.array(balanceSchema),
});
export type MerchantInfo = z.infer<typeof merchantInfoSchema>;

/** selfcheck (spec, §8: serverTime is integer Unix seconds). `echo` must be present (it may be null). */
export const selfcheckResultSchema = z.looseObject({
  pong: z.literal(true),
  apiVersion: z.literal(API_VERSION),
  serverTime: z.int().nonnegative(),
  echo: z.unknown(),
});
export type SelfcheckResult = z.infer<typeof selfcheckResultSchema>;

/** Currency record of getCurrencies (spec, §9.3: fee fields are decimal strings, percent fees in percent). */
export const currencyRecordSchema = z.looseObject({
  name: z.string(),
  symbol: reportedCurrencySchema,
  deposit_fixed_fee: decimalStringSchema,
  deposit_percent_fee: decimalStringSchema,
  withdraw_fixed_fee: decimalStringSchema,
  withdraw_percent_fee: decimalStringSchema,
  deposit_min_fee: decimalStringSchema,
  deposit_max_fee: decimalStringSchema,
  withdraw_min_fee: decimalStringSchema,
  withdraw_max_fee: decimalStringSchema,
  deposit_min: decimalStringSchema,
  withdraw_min: decimalStringSchema,
});
export type CurrencyRecord = z.infer<typeof currencyRecordSchema>;
export const currencyListSchema = z.array(currencyRecordSchema);

/** A callback's decrypted `data` (§10): a deposit or a withdrawal record, told apart by `businessType`. */
export const callbackRecordSchema = z.discriminatedUnion('businessType', [depositRecordSchema, withdrawalOrderRecordSchema]);
export type CallbackRecord = z.infer<typeof callbackRecordSchema>;

/** A public endpoint's plain JSON envelope (§12): not signed, `data` depends on the endpoint. */
export const publicEnvelopeSchema = z.looseObject({
  code: z.int(),
  data: z.unknown(),
  message: z.string(),
});
export type PublicEnvelope = z.infer<typeof publicEnvelopeSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Request-side validators (run before anything is sent)

/** §8 userOrder: 1–64 characters of [A-Za-z0-9_-]. */
export const userOrderSchema = z.string().regex(USER_ORDER_PATTERN, 'must be 1-64 characters of letters, digits, "_" or "-" (§8)');

/** §9.1 amount syntax only (no sign, exponent or spaces). */
export const amountSyntaxSchema = decimalStringSchema;

/** The 13 withdrawal symbols (spec "Enumerations"). */
export const currencySymbolSchema = z.enum(WITHDRAWAL_CURRENCIES);

/** createAddress addressType: the enum without the reserved `btc` (§8). */
export const addressTypeSchema = z.enum(ADDRESS_TYPES);

/** generateAddresssQrCode address_type (spec). */
export const qrAddressTypeSchema = z.enum(QR_ADDRESS_TYPES);

/** §8 remark: at most 255 characters. */
export const remarkSchema = z.string().max(REMARK_MAX_LENGTH, `must be at most ${REMARK_MAX_LENGTH} characters (§8)`);

/** getDeposits limit: an integer 1..100, never clamped (spec getDeposits). */
export const depositsLimitSchema = z.int().min(DEPOSITS_LIMIT_MIN).max(DEPOSITS_LIMIT_MAX);
export const depositsPageSchema = z.int().min(1);

export function isReservedAddressType(value: string): boolean {
  return (RESERVED_ADDRESS_TYPES as readonly string[]).includes(value);
}

/**
 * Why a withdrawal amount is refused before sending (§9.1): wrong syntax, zero, or more decimals than the currency
 * has (§9.2). Undefined when the amount is acceptable. Works on the string, never on a number.
 */
export function amountProblem(amount: string, currency: CurrencySymbol): string | undefined {
  if (!AMOUNT_PATTERN.test(amount)) return 'must be a decimal string of digits with at most one "." (no sign, exponent or spaces)';
  if (!/[1-9]/.test(amount)) return 'must be greater than zero';
  const decimals = amount.split('.')[1]?.length ?? 0;
  const allowed = CURRENCIES[currency].decimals;
  if (decimals > allowed) return `has ${decimals} decimal places; ${currency} allows at most ${allowed}`;
  return undefined;
}

/** The fields of a verified record that its schema does not name: what a client keeps without understanding it (§8). */
export function unknownFieldsOf(schema: { readonly shape: object }, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const known = new Set(Object.keys(schema.shape));
  return Object.fromEntries(Object.entries(record).filter(([field]) => !known.has(field)));
}

/** One line naming the fields a schema refused, without echoing their values (they are unverified or secret). */
export function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '';
  return parts.join('; ') + more;
}
