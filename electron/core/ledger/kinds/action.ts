// The rule of an operator's audited action (`action`): which actions exist and the permission each asks of its signer,
// as the local path asks it through actingAs (each module's handlers.ts, team/mode.ts); an action this version does not know is
// refused, naming it. `team/workstation` (an admin enrols a workstation's desk key) also needs a usable key.
import { z } from 'zod';
import { roleMay, type OperatorAction } from '../../auth/roles';
import { importPublicKey, keyIdOf } from '../../statements/keys';
import type { ChainRow } from '../roster';
import { defineKind, type ChainStanding } from '../kind';

/** The audited action by which an admin enrols a team workstation's desk key (team init / team join). */
export const WORKSTATION_ENROLMENT = 'team/workstation';
/** An admin retires this workstation from the team (team leave): it no longer witnesses other workstations' sends. */
export const WORKSTATION_RETIREMENT = 'team/workstationLeft';
/** An admin moves the desk key and audit anchor between the keychain and the file (audit/anchor-store.ts). */
export const ANCHOR_MOVED_ACTION = 'audit/anchorMoved';
/** The confirming admin's record of a four-eyes re-anchor after a restore (team/reanchor.ts). */
export const REANCHORED_ACTION = 'team/reanchored';

export const actionBodySchema = z.object({ action: z.string(), details: z.unknown() });
export type ActionBody = z.infer<typeof actionBodySchema>;

/** What a `team/workstation` action carries: the workstation's name and its desk key. */
export const workstationEnrolmentSchema = z.object({ workstation: z.string().min(1), publicKey: z.string() });
export type WorkstationEnrolment = z.infer<typeof workstationEnrolmentSchema>;

interface ActionRule {
  readonly permission: OperatorAction;
  /** A further check of the row (its subject, its details), or none. */
  readonly check?: (row: ChainRow, details: unknown, standing: ChainStanding) => string | null;
}

/** Every operator action the desk signs, and what it asks of its signer. */
export const ACTION_RULES: Readonly<Record<string, ActionRule>> = {
  [WORKSTATION_ENROLMENT]: {
    permission: 'manageOperators',
    check(row, details, standing) {
      const parsed = workstationEnrolmentSchema.safeParse(details);
      if (!parsed.success || importPublicKey(parsed.data.publicKey) === null) return 'it enrols a workstation without a usable public key';
      const { workstation, publicKey } = parsed.data;
      if (workstation !== row.statement.subject) return `it enrols workstation ${workstation} under the subject ${row.statement.subject}`;
      // A desk key belongs to one workstation: it signs that workstation's events and no other's.
      const bound = standing.deskKey(keyIdOf(publicKey))?.workstation;
      return bound === undefined || bound === null || bound === workstation ? null : `desk key ${keyIdOf(publicKey)} already belongs to workstation ${bound}`;
    },
  },
  [WORKSTATION_RETIREMENT]: { permission: 'manageSettings' },
  [ANCHOR_MOVED_ACTION]: { permission: 'manageSettings' },
  [REANCHORED_ACTION]: { permission: 'manageOperators' },
  'settings/lockTimeout': { permission: 'manageSettings' },
  'settings/stuckThresholds': { permission: 'manageSettings' },
  'settings/reportingTimeZone': { permission: 'manageSettings' },
  'addressbook/forget': { permission: 'requestWithdrawal' },
  'addressbook/label': { permission: 'editLabels' },
  'labels/set': { permission: 'editLabels' },
  'labels/import': { permission: 'editLabels' },
  'addresses/create': { permission: 'createAddress' },
  'addresses/conflict': { permission: 'createAddress' },
  /** A proof of control asked for a book address (withdrawals/control-proof.ts): it makes a deposit address. */
  'addressbook/proveRequest': { permission: 'createAddress' },
  /** An admin adds or removes an outbound webhook endpoint (webhooks/endpoints.ts): the url and the events it gets. */
  'webhooks/add': { permission: 'manageSettings' },
  'webhooks/remove': { permission: 'manageSettings' },
  'notifications/preferences': {
    permission: 'view',
    check: (row) => (row.statement.subject.toLowerCase() === (row.statement.operator ?? '').toLowerCase() ? null : 'an operator sets only their own notification preferences'),
  },
};

/** The enrolment an `action` statement makes, or null (another action, or a malformed one). */
export function workstationEnrolment(body: unknown): WorkstationEnrolment | null {
  const action = actionBodySchema.safeParse(body);
  if (!action.success || action.data.action !== WORKSTATION_ENROLMENT) return null;
  const details = workstationEnrolmentSchema.safeParse(action.data.details);
  return details.success ? details.data : null;
}

function checkAction(row: ChainRow, body: ActionBody, standing: ChainStanding): string | null {
  const rule = Object.hasOwn(ACTION_RULES, body.action) ? ACTION_RULES[body.action] : undefined;
  if (rule === undefined) return `this version knows no action ${body.action} (update this workstation if a newer one wrote it)`;
  const operator = row.statement.operator ?? '';
  const role = standing.roster().at(operator, row.seq)?.role;
  if (role === undefined || !roleMay(role, rule.permission)) {
    return body.action === WORKSTATION_ENROLMENT ? `${operator} enrols a workstation but is not an admin` : `${operator} is ${role === 'viewer' ? 'a' : 'an'} ${role ?? 'unknown operator'} and may not sign ${body.action}`;
  }
  return rule.check?.(row, body.details, standing) ?? null;
}

export const actionRule = defineKind({ signer: 'activeOperator', body: actionBodySchema, check: checkAction });
