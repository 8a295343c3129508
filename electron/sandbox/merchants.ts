// Merchants of the sandbox: creation with fresh RSA key pairs (§1), configuration (API version §13, IP whitelist
// §5.3, callback URL §10, withdrawal policy), and a directory that parses each key once into KeyObjects (§1.2).
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { promisify } from 'node:util';
import { formatMoney, Money, WITHDRAWAL_CURRENCIES, type CurrencySymbol } from '../chains';
import { parsePrivateKey, parsePublicKey } from '../protocol/keys';
import { RSA_DEFAULT_MODULUS_BITS, WITHDRAW_TYPES } from '../protocol/profile';
import { addedCurrencies } from './added-currencies';
import { randomHex, randomInt, type RandomSource } from './chain-sim';
import { getMeta, setMeta, sql, type Db, type KeyRow, type MerchantRow } from './store';
import { isWithdrawType, type WithdrawType } from './order-states';

const generateKeyPairAsync = promisify(generateKeyPair);

/** The default source-IP whitelist (§5.3): loopback only. */
export const DEFAULT_IP_WHITELIST: readonly string[] = ['127.0.0.0/8', '::1/128'];
/** New merchants may use both withdrawal types and have a finance-audit messenger bound (admin PATCH narrows it). */
export const DEFAULT_WITHDRAW_TYPES: readonly WithdrawType[] = WITHDRAW_TYPES;
export const DEFAULT_API_VERSION = 2;

const MERCHANT_ID_DIGITS = 10;
const SECRET_BYTES = 16;
const PLATFORM_KEY_META = 'platform_key_id';

/** The four merchant credentials (§1.3) plus the base URL: the shape of credentials.json and of admin answers. */
export interface SandboxCredentials {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: string;
  readonly merchantPrivateKey: string;
}

export interface MerchantConfig {
  readonly merchantId: string;
  readonly merchantName: string;
  readonly apiVersion: 1 | 2;
  readonly ipWhitelist: readonly string[];
  readonly callbackUrl: string | null;
  readonly auditorMessengerBound: boolean;
  readonly withdrawTypes: readonly WithdrawType[];
}

/** A merchant as the request pipeline needs it: configuration plus keys parsed once. */
export interface MerchantContext {
  readonly config: MerchantConfig;
  readonly secret: string;
  /** Verifies request signatures and receives encrypted responses and callbacks (§3.4, §2). */
  readonly merchantPublicKey: KeyObject;
  /** Signs responses and callbacks, decrypts requests (§3.4). */
  readonly platformPrivateKey: KeyObject;
  readonly whitelist: BlockList;
}

function insertKey(db: Db, role: KeyRow['role'], pair: KeyPairPem, now: number): number {
  const result = sql(db, 'INSERT INTO keys (role, public_pem, private_pem, created_at) VALUES (?, ?, ?, ?)').run(
    role,
    pair.publicPem,
    pair.privatePem,
    now,
  );
  return Number(result.lastInsertRowid);
}

export function keyRow(db: Db, id: number): KeyRow {
  const row = sql(db, 'SELECT id, role, public_pem, private_pem FROM keys WHERE id = ?').get(id) as KeyRow | undefined;
  if (!row) throw new Error(`sandbox key ${id} is missing from the database`);
  return row;
}

/** The sandbox's platform key pair (one per sandbox, shared by its merchants), created on first start. */
export async function ensurePlatformKey(db: Db, now: number): Promise<KeyRow> {
  const existing = getMeta(db, PLATFORM_KEY_META);
  if (existing !== undefined) return keyRow(db, Number(existing));
  const pair = await newKeyPair();
  const id = db.transaction(() => {
    const keyId = insertKey(db, 'platform', pair, now);
    setMeta(db, PLATFORM_KEY_META, String(keyId));
    return keyId;
  })();
  return keyRow(db, id);
}

/** Parses a CIDR ("10.0.0.0/8", "::1/128") or a bare IP; returns undefined when it is neither. */
export function parseCidr(text: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [network = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const version = isIP(network);
  if (version === 0) return undefined;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const maxPrefix = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: maxPrefix, family };
  if (!/^[0-9]{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > maxPrefix) return undefined;
  return { network, prefix, family };
}

/** A net.BlockList holding the whitelist's subnets (used as an allow list). */
export function buildWhitelist(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr);
    if (parsed) list.addSubnet(parsed.network, parsed.prefix, parsed.family);
  }
  return list;
}

/** Whether a socket's remote address is on the whitelist; IPv4-mapped IPv6 addresses are checked as IPv4. */
export function isWhitelisted(list: BlockList, remoteAddress: string | undefined): boolean {
  if (!remoteAddress) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress);
  if (mapped?.[1]) return list.check(mapped[1], 'ipv4') || list.check(remoteAddress, 'ipv6');
  return list.check(remoteAddress, isIP(remoteAddress) === 4 ? 'ipv4' : 'ipv6');
}

export interface NewMerchantOptions {
  readonly merchantName?: string;
  readonly apiVersion?: 1 | 2;
  readonly balances?: Readonly<Partial<Record<CurrencySymbol, string>>>;
  readonly ipWhitelist?: readonly string[];
  readonly callbackUrl?: string | null;
  readonly auditorMessengerBound?: boolean;
  readonly withdrawTypes?: readonly WithdrawType[];
}

export interface KeyPairPem {
  readonly publicPem: string;
  readonly privatePem: string;
}

/** A fresh RSA key pair in the profile's default size (§1.1), generated off the event loop. */
export async function newKeyPair(): Promise<KeyPairPem> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: RSA_DEFAULT_MODULUS_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicPem: publicKey, privatePem: privateKey };
}

/**
 * Inserts a merchant with the given (fresh) merchant key pair; balances given are its opening balances. Runs in a
 * transaction (a savepoint inside the caller's) and returns the new merchant ID.
 */
export function insertMerchant(
  db: Db,
  platformKey: KeyRow,
  merchantKeys: KeyPairPem,
  options: NewMerchantOptions,
  random: RandomSource,
  now: number,
): string {
  return db.transaction(() => {
    let merchantId: string;
    do {
      merchantId = String(randomInt(random, 10 ** (MERCHANT_ID_DIGITS - 1), 10 ** MERCHANT_ID_DIGITS - 1));
    } while (sql(db, 'SELECT 1 FROM merchants WHERE merchant_id = ?').get(merchantId) !== undefined);
    const merchantKeyId = insertKey(db, 'merchant', merchantKeys, now);
    const count = (sql(db, 'SELECT COUNT(*) AS n FROM merchants').get() as { n: number }).n;
    sql(
      db,
      `INSERT INTO merchants (merchant_id, merchant_name, secret, api_version, platform_key_id, merchant_key_id,
         ip_whitelist, callback_url, auditor_messenger_bound, withdraw_types, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      merchantId,
      options.merchantName ?? `Sandbox Merchant ${count + 1}`,
      randomHex(random, SECRET_BYTES),
      options.apiVersion ?? DEFAULT_API_VERSION,
      platformKey.id,
      merchantKeyId,
      JSON.stringify(options.ipWhitelist ?? DEFAULT_IP_WHITELIST),
      options.callbackUrl ?? null,
      (options.auditorMessengerBound ?? true) ? 1 : 0,
      JSON.stringify(options.withdrawTypes ?? DEFAULT_WITHDRAW_TYPES),
      now,
    );
    const insertBalance = sql(
      db,
      'INSERT INTO balances (merchant_id, currency, available, frozen, opening) VALUES (?, ?, ?, ?, ?)',
    );
    for (const symbol of WITHDRAWAL_CURRENCIES) {
      const opening = formatMoney(new Money(options.balances?.[symbol] ?? '0'));
      insertBalance.run(merchantId, symbol, opening, '0', opening);
    }
    for (const added of addedCurrencies(db)) insertBalance.run(merchantId, added.symbol, '0', '0', '0');
    return merchantId;
  })();
}

export function merchantRow(db: Db, merchantId: string): MerchantRow | undefined {
  return sql(db, 'SELECT * FROM merchants WHERE merchant_id = ?').get(merchantId) as MerchantRow | undefined;
}

export function listMerchantIds(db: Db): string[] {
  return (sql(db, 'SELECT merchant_id FROM merchants ORDER BY created_at, rowid').all() as Array<{ merchant_id: string }>).map(
    (row) => row.merchant_id,
  );
}

export function configOf(row: MerchantRow): MerchantConfig {
  const withdrawTypes = (JSON.parse(row.withdraw_types) as string[]).filter(isWithdrawType);
  return {
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    apiVersion: row.api_version === 1 ? 1 : 2,
    ipWhitelist: JSON.parse(row.ip_whitelist) as string[],
    callbackUrl: row.callback_url,
    auditorMessengerBound: row.auditor_messenger_bound === 1,
    withdrawTypes,
  };
}

export function credentialsOf(db: Db, merchantId: string, baseUrl: string): SandboxCredentials {
  const row = merchantRow(db, merchantId);
  if (!row) throw new Error(`no sandbox merchant ${merchantId}`);
  return {
    baseUrl,
    merchantId,
    secret: row.secret,
    platformPublicKey: keyRow(db, row.platform_key_id).public_pem,
    merchantPrivateKey: keyRow(db, row.merchant_key_id).private_pem,
  };
}

export interface MerchantPatch {
  readonly apiVersion?: 1 | 2;
  readonly ipWhitelist?: readonly string[];
  readonly callbackUrl?: string | null;
  readonly auditorMessengerBound?: boolean;
  readonly withdrawTypes?: readonly WithdrawType[];
}

/** Applies an admin configuration change; balances are handled by the ledger. */
export function patchMerchant(db: Db, merchantId: string, patch: MerchantPatch): void {
  const set = (column: string, value: unknown): void => {
    sql(db, `UPDATE merchants SET ${column} = ? WHERE merchant_id = ?`).run(value, merchantId);
  };
  if (patch.apiVersion !== undefined) set('api_version', patch.apiVersion);
  if (patch.ipWhitelist !== undefined) set('ip_whitelist', JSON.stringify(patch.ipWhitelist));
  if (patch.callbackUrl !== undefined) set('callback_url', patch.callbackUrl);
  if (patch.auditorMessengerBound !== undefined) set('auditor_messenger_bound', patch.auditorMessengerBound ? 1 : 0);
  if (patch.withdrawTypes !== undefined) set('withdraw_types', JSON.stringify(patch.withdrawTypes));
}

/** Merchants by ID with keys parsed once (§1.2: never re-parse per request); invalidated on every admin change. */
export class MerchantDirectory {
  private readonly cache = new Map<string, MerchantContext>();
  private readonly keyCache = new Map<number, KeyObject>();

  constructor(private readonly db: Db) {}

  get(merchantId: string): MerchantContext | undefined {
    const cached = this.cache.get(merchantId);
    if (cached) return cached;
    const row = merchantRow(this.db, merchantId);
    if (!row) return undefined;
    const config = configOf(row);
    const context: MerchantContext = {
      config,
      secret: row.secret,
      merchantPublicKey: this.key(row.merchant_key_id, 'public'),
      platformPrivateKey: this.key(row.platform_key_id, 'private'),
      whitelist: buildWhitelist(config.ipWhitelist),
    };
    this.cache.set(merchantId, context);
    return context;
  }

  invalidate(merchantId: string): void {
    this.cache.delete(merchantId);
  }

  private key(id: number, kind: 'public' | 'private'): KeyObject {
    const cacheKey = kind === 'public' ? -id : id;
    let key = this.keyCache.get(cacheKey);
    if (!key) {
      const row = keyRow(this.db, id);
      // A private key row's public half is derived from its PEM so both halves come from one text.
      key = kind === 'public' ? parsePublicKey(row.public_pem, 'merchant public key') : parsePrivateKey(row.private_pem, 'platform private key');
      this.keyCache.set(cacheKey, key);
    }
    return key;
  }
}
