// Withdrawal policy rows per (profile, currency): approval thresholds as JSON `[{above, approvals}]`, an optional
// daily limit, and whether to use financialConfirmation. The arithmetic on them lives in core/withdrawals/policy.
import { z } from 'zod';
import { AMOUNT_SYNTAX } from '../../chains/amounts';
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseJsonColumn } from '../store/json';

const decimalText = z.string().regex(AMOUNT_SYNTAX, 'must be a decimal string');
const thresholdsSchema = z.array(z.strictObject({ above: decimalText, approvals: z.int().min(0).max(100) }));

/** Same shape as core/withdrawals/policy's WithdrawalPolicy. */
export interface StoredPolicy {
  readonly thresholds: readonly { readonly above: string; readonly approvals: number }[];
  readonly dailyLimit: string | null;
  readonly useFinancialConfirmation: boolean;
}

export interface PolicyRecord extends StoredPolicy {
  readonly profile: string;
  readonly currency: string;
  readonly updatedAt: number;
}

interface PolicyRow {
  profile: string;
  currency: string;
  approval_thresholds_json: string;
  daily_limit: string | null;
  use_financial_confirmation: number;
  updated_at: number;
}

const COLUMNS = 'profile, currency, approval_thresholds_json, daily_limit, use_financial_confirmation, updated_at';

function toRecord(row: PolicyRow): PolicyRecord {
  const parsed = thresholdsSchema.safeParse(parseJsonColumn(row.approval_thresholds_json));
  if (!parsed.success) throw new Error(`stored policy ${row.profile}/${row.currency} has unreadable thresholds`);
  return {
    profile: row.profile,
    currency: row.currency,
    thresholds: parsed.data,
    dailyLimit: row.daily_limit,
    useFinancialConfirmation: row.use_financial_confirmation === 1,
    updatedAt: row.updated_at,
  };
}

const statements = perDatabase((db) => ({
  upsert: db.prepare(
    `INSERT INTO policies (${COLUMNS}) VALUES (@profile, @currency, @thresholds, @dailyLimit, @financial, @now)
     ON CONFLICT (profile, currency) DO UPDATE SET approval_thresholds_json = excluded.approval_thresholds_json,
       daily_limit = excluded.daily_limit, use_financial_confirmation = excluded.use_financial_confirmation,
       updated_at = excluded.updated_at
     RETURNING ${COLUMNS}`,
  ),
  one: db.prepare(`SELECT ${COLUMNS} FROM policies WHERE profile = ? AND currency = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM policies WHERE profile = ? ORDER BY currency`),
  remove: db.prepare('DELETE FROM policies WHERE profile = ? AND currency = ?'),
}));

/** Sets (replaces) the policy of one currency. */
export function setPolicy(db: WritableDB, profile: string, currency: string, policy: StoredPolicy, now: number = Date.now()): PolicyRecord {
  const thresholds = thresholdsSchema.safeParse(policy.thresholds);
  if (!thresholds.success) throw invalidArgument(`approval thresholds: ${thresholds.error.issues.map((issue) => issue.message).join('; ')}`);
  if (policy.dailyLimit !== null && !AMOUNT_SYNTAX.test(policy.dailyLimit)) throw invalidArgument(`daily limit ${policy.dailyLimit} is not a decimal string`);
  const row = statements(db).upsert.get({
    profile,
    currency,
    thresholds: canonicalJson(thresholds.data),
    dailyLimit: policy.dailyLimit,
    financial: policy.useFinancialConfirmation ? 1 : 0,
    now,
  }) as PolicyRow;
  return toRecord(row);
}

/** The stored policy, or undefined (the workflow then applies its default). */
export function getPolicy(db: ReadableDB, profile: string, currency: string): PolicyRecord | undefined {
  const row = statements(db).one.get(profile, currency) as PolicyRow | undefined;
  return row === undefined ? undefined : toRecord(row);
}

export function listPolicies(db: ReadableDB, profile: string): PolicyRecord[] {
  return (statements(db).all.all(profile) as PolicyRow[]).map(toRecord);
}

export function deletePolicy(db: WritableDB, profile: string, currency: string): boolean {
  return statements(db).remove.run(profile, currency).changes === 1;
}
