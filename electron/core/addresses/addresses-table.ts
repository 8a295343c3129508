// Deposit addresses created with createAddress: one per (profile, userOrder), the verified record kept whole.
// The same userOrder must keep its address (PROTOCOL §8); a different answer is reported as a conflict, never stored.
import { perDatabase, statementCache, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseObjectColumn } from '../store/json';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';

/** The createAddress answer (§8): `{address, addressType, userOrder}`, plus any fields the desk does not know. */
export interface DepositAddressRecord {
  readonly address: string;
  readonly addressType: string;
  readonly userOrder: string;
}

export interface DepositAddress extends DepositAddressRecord {
  readonly id: number;
  readonly profile: string;
  readonly label: string | null;
  readonly createdAt: number;
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface SaveDepositAddressResult {
  readonly isNew: boolean;
  /** The userOrder was known with a different address or addressType; the stored one is returned unchanged. */
  readonly conflict: boolean;
  readonly address: DepositAddress;
}

interface AddressRow {
  id: number;
  profile: string;
  address: string;
  address_type: string;
  user_order: string;
  label: string | null;
  created_at: number;
  raw_json: string;
}

const COLUMNS = 'id, profile, address, address_type, user_order, label, created_at, raw_json';

function toAddress(row: AddressRow): DepositAddress {
  return {
    id: row.id,
    profile: row.profile,
    address: row.address,
    addressType: row.address_type,
    userOrder: row.user_order,
    label: row.label,
    createdAt: row.created_at,
    raw: parseObjectColumn(row.raw_json),
  };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO deposit_addresses (profile, address, address_type, user_order, label, created_at, raw_json)
     VALUES (@profile, @address, @addressType, @userOrder, @label, @now, @raw)
     ON CONFLICT (profile, user_order) DO NOTHING RETURNING ${COLUMNS}`,
  ),
  byUserOrder: db.prepare(`SELECT ${COLUMNS} FROM deposit_addresses WHERE profile = ? AND user_order = ?`),
  byAddress: db.prepare(`SELECT ${COLUMNS} FROM deposit_addresses WHERE profile = ? AND address = ? ORDER BY id`),
  setLabel: db.prepare('UPDATE deposit_addresses SET label = ? WHERE profile = ? AND user_order = ?'),
}));
const dynamic = statementCache();

export function saveDepositAddress(
  db: WritableDB,
  profile: string,
  record: DepositAddressRecord,
  now: number = Date.now(),
  label: string | null = null,
): SaveDepositAddressResult {
  for (const field of ['address', 'addressType', 'userOrder'] as const) {
    if (typeof record[field] !== 'string' || record[field] === '') throw invalidArgument(`deposit address record field ${field} is missing`);
  }
  const s = statements(db);
  const row = s.insert.get({
    profile,
    address: record.address,
    addressType: record.addressType,
    userOrder: record.userOrder,
    label,
    now,
    raw: canonicalJson(record),
  }) as AddressRow | undefined;
  if (row !== undefined) return { isNew: true, conflict: false, address: toAddress(row) };
  const existing = toAddress(s.byUserOrder.get(profile, record.userOrder) as AddressRow);
  const conflict = existing.address !== record.address || existing.addressType !== record.addressType;
  return { isNew: false, conflict, address: existing };
}

export function getDepositAddressByUserOrder(db: ReadableDB, profile: string, userOrder: string): DepositAddress | undefined {
  const row = statements(db).byUserOrder.get(profile, userOrder) as AddressRow | undefined;
  return row === undefined ? undefined : toAddress(row);
}

export function findDepositAddresses(db: ReadableDB, profile: string, address: string): DepositAddress[] {
  return (statements(db).byAddress.all(profile, address) as AddressRow[]).map(toAddress);
}

export function setDepositAddressLabel(db: WritableDB, profile: string, userOrder: string, label: string | null): boolean {
  return statements(db).setLabel.run(label, profile, userOrder).changes === 1;
}

/** Addresses newest first by (created_at, id), keyset-paged. */
export function listDepositAddresses(
  db: ReadableDB,
  query: { readonly profile: string; readonly addressType?: string; readonly limit: number; readonly after?: string | null },
): Page<DepositAddress> {
  const limit = checkPageSize(query.limit);
  const where = ['profile = @profile'];
  const params: Record<string, string | number> = { profile: query.profile, fetch: limit + 1 };
  if (query.addressType !== undefined) {
    where.push('address_type = @addressType');
    params.addressType = query.addressType;
  }
  if (query.after !== undefined && query.after !== null) {
    const position = decodeCursor(query.after);
    where.push('(created_at, id) < (@afterAt, @afterId)');
    params.afterAt = position.at;
    params.afterId = position.id;
  }
  const sql = `SELECT ${COLUMNS} FROM deposit_addresses WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT @fetch`;
  const rows = (dynamic(db, sql).all(params) as AddressRow[]).map(toAddress);
  return toPage(rows, limit, (address) => ({ at: address.createdAt, id: address.id }));
}
