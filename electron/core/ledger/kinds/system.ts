// The rule of a desk-signed event (`system`): signed by a desk key in force (this workstation's, one an admin enrolled
// for a named workstation, or one a founding named), and only one of the named desk events below: a workstation's
// desk key records what happened at that workstation, it never vouches for an operator, a profile or a roster change
// (the signer rule refuses desk-signed roster and decision kinds). What other workstations may take from an event is
// decided where it is applied: an order's outcome only with the service's signed evidence (order-evidence.ts), a
// profile removal only at the workstation whose key signed it.
import { z } from 'zod';
import type { ChainRow } from '../roster';
import { defineKind, type ChainStanding } from '../kind';

import { PROFILE_REMOVED } from '../profile-removed';

/** The desk-signed row that tells other workstations about a merchant profile (no credentials: those stay local). */
export const TEAM_PROFILE_ACTION = 'team/profile';
/** The first row of a desk whose unsigned log of before signed approvals was sealed. */
export const LEGACY_SEALED = 'audit/legacySealed';
/** An order the service accepted, and an order status the service reported (team/apply.ts applies them with evidence). */
export const ORDER_ACCEPTED = 'withdrawals/accepted';
export const ORDER_STATUS = 'withdrawals/status';
/** The desk-signed marker `team init` writes after the genesis row (ledger/trust-roots.ts). */
export const GENESIS_ACTION = 'team/genesis';

/** Every desk event a desk key may sign (grep `context.audit(`, `trail.system(`): anything else is refused. */
export const SYSTEM_ACTIONS: ReadonlySet<string> = new Set([
  LEGACY_SEALED,
  'accounting/export',
  'addressbook/controlProven',
  'audit/checkpoint',
  'audit/export',
  'audit/pack',
  'callbacks/refused',
  'callbacks/refusedSummary',
  'callbacks/start',
  'callbacks/unknownOrder',
  'demo/furnished',
  'demo/operators',
  'deposits/conflict',
  'deposits/export',
  'deposits/poisoningSuspected',
  'deposits/verified',
  'operators/wrongInvitationCode',
  'operators/wrongPassphrase',
  'payouts/approveRefused',
  'profiles/add',
  'profiles/generateKey',
  PROFILE_REMOVED,
  'session/unlock',
  'statements/export',
  TEAM_PROFILE_ACTION,
  GENESIS_ACTION,
  ORDER_ACCEPTED,
  'withdrawals/ambiguous',
  'withdrawals/approveRefused',
  'withdrawals/export',
  'withdrawals/failureAnswered',
  'withdrawals/mismatch',
  'withdrawals/orderMissing',
  'withdrawals/sendHeld',
  ORDER_STATUS,
  'withdrawals/statusAfterFinal',
  'withdrawals/stuck',
  'withdrawals/submitFailed',
  'withdrawals/submitRefused',
]);

export const systemBodySchema = z.object({ action: z.string(), details: z.unknown() });
export type SystemBody = z.infer<typeof systemBodySchema>;

/** What the legacy seal records: the old log's row count and head. */
const legacySealSchema = z.object({ rows: z.number(), headHash: z.string() });

function checkSystem(row: ChainRow, body: SystemBody, standing: ChainStanding): string | null {
  if (!SYSTEM_ACTIONS.has(body.action)) return `a desk key signs only the desk's named events, and ${body.action} is not one (update this workstation if a newer one wrote it)`;
  if (body.action === LEGACY_SEALED) {
    const legacy = standing.legacy();
    const sealed = legacySealSchema.safeParse(body.details);
    if (!sealed.success || sealed.data.headHash !== legacy.headHash || sealed.data.rows !== legacy.rows) {
      return `the legacy audit log (before signed approvals) no longer matches what row ${row.seq} sealed`;
    }
  }
  return null;
}

export const systemRule = defineKind({ signer: 'desk', body: systemBodySchema, check: checkSystem });

/**
 * Whether a desk-signed profile removal ends the profile's roster: only this workstation's own, and only on a desk no
 * team workstation was enrolled to. A team desk's roster never ends from one desk-signed row: another workstation's
 * removal is its own local event, and every workstation reads the same row the same way.
 */
export function profileRemovalEndsRoster(signedByOwnKey: boolean, teamDesk: boolean): boolean {
  return signedByOwnKey && !teamDesk;
}
