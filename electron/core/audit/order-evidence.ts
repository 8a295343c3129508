// An order's outcome told by another workstation (`withdrawals/accepted`, `withdrawals/status` desk events) is taken
// as a fact only with the service's signed evidence: the envelope the service answered, whose signature verifies
// with the profile's platform public key, and, where this workstation holds the merchant private key, whose
// decrypted record is this very order with this very status. Invariant: a desk key alone never moves an order.
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import {
  decryptJson,
  parsePublicKey,
  signedEvidenceHolds,
  signedEvidenceSchema,
  withdrawalOrderRecordSchema,
} from '../../protocol';
import { ORDER_ACCEPTED, ORDER_STATUS, type Statement, systemBodySchema, TEAM_PROFILE_ACTION } from '../ledger';
import { auditRowsOfAction } from './audit-table';
import { type ReadableDB } from '../store/database';

/** What this workstation checks an order's evidence with, for one profile. */
export interface OrderEvidenceKeys {
  readonly platformPublicKey: KeyObject;
  /** The merchant private key, when this workstation holds the credentials (then the record is read and compared). */
  readonly merchantPrivateKey: KeyObject | null;
}

const statusDetailsSchema = z.object({ status: z.string().min(1), evidence: signedEvidenceSchema.nullable().optional() });
const acceptedDetailsSchema = z.object({ orderStatus: z.string().min(1), evidence: signedEvidenceSchema.nullable().optional() });
const profileDetailsSchema = z.object({ name: z.string(), platformPublicKey: z.string().optional() });

/** The status an order-status desk event reports, and the evidence it carries (null: not an order-status event). */
export function reportedOrderStatus(statement: Statement): { status: string; evidence: z.infer<typeof signedEvidenceSchema> | null } | null {
  const body = systemBodySchema.safeParse(statement.body);
  if (statement.kind !== 'system' || !body.success) return null;
  const details = body.data.action === ORDER_STATUS ? statusDetailsSchema.safeParse(body.data.details) : body.data.action === ORDER_ACCEPTED ? acceptedDetailsSchema.safeParse(body.data.details) : null;
  if (details === null || !details.success) return null;
  return { status: 'status' in details.data ? details.data.status : details.data.orderStatus, evidence: details.data.evidence ?? null };
}

/**
 * The platform public key a team workstation without credentials checks evidence with: the one the latest
 * `team/profile` event for the profile (desk-signed by an enrolled workstation that holds the credentials) carries.
 */
export function sharedPlatformKey(db: ReadableDB, profile: string): KeyObject | null {
  const rows = auditRowsOfAction(db, TEAM_PROFILE_ACTION).filter((row) => row.profile === profile);
  for (const row of rows.reverse()) {
    const body = systemBodySchema.safeParse(JSON.parse(row.statement).body);
    const details = body.success ? profileDetailsSchema.safeParse(body.data.details) : null;
    if (details?.success && details.data.platformPublicKey !== undefined) {
      try {
        return parsePublicKey(details.data.platformPublicKey, 'platform public key');
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The evidence keys of a workstation without the profile's credentials: the shared platform key, no decryption. */
export function sharedEvidenceKeys(db: ReadableDB, profile: string): OrderEvidenceKeys | null {
  const platformPublicKey = sharedPlatformKey(db, profile);
  return platformPublicKey === null ? null : { platformPublicKey, merchantPrivateKey: null };
}

/** Why an order-status desk event is not taken as a fact here, or null when the service's evidence holds. */
export function orderEvidenceProblem(statement: Statement, keys: OrderEvidenceKeys | null): string | null {
  const reported = reportedOrderStatus(statement);
  if (reported === null) return 'it is not an order-status event this version reads';
  const { evidence, status } = reported;
  if (evidence === null) return `it reports order ${statement.subject} as ${status} without the service's signed answer; an order's outcome is taken only with the service's signature`;
  if (keys === null) return `this workstation holds no platform public key for profile ${statement.profile ?? ''} to check the service's signature with`;
  if (!signedEvidenceHolds(evidence, keys.platformPublicKey)) return `the service's signature on the answer it carries does not verify with the platform public key`;
  if (keys.merchantPrivateKey === null) return null;
  let record: unknown;
  try {
    record = decryptJson(evidence.data, keys.merchantPrivateKey);
  } catch {
    return 'the answer it carries does not decrypt with the merchant private key';
  }
  const parsed = withdrawalOrderRecordSchema.safeParse(record);
  if (!parsed.success) return 'the answer it carries is not a withdrawal order record';
  if (parsed.data.userOrder !== statement.subject || parsed.data.orderStatus !== status) {
    return `the service's signed answer is about order ${parsed.data.userOrder} with status ${parsed.data.orderStatus}, not ${statement.subject} with ${status}`;
  }
  return null;
}
