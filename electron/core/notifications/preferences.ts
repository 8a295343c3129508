// Each operator's notification preferences in a profile: their own choice, set with their passphrase (an operator
// sets only their own), or the defaults of their role until they choose. Deposit thresholds are decimal strings,
// compared with decimal.js, never as numbers. What is stored is checked again on every read: a row that does not
// parse means the defaults.
import { z } from 'zod';
import {
  AMOUNT_SYNTAX,
  CURRENCIES,
  formatMoney,
  isCurrencySymbol,
  Money,
  WITHDRAWAL_CURRENCIES,
  writtenDecimals,
  type CurrencySymbol,
} from '../../chains';
import { ORDER_FINAL_SCOPES, type NotificationPreferences, type NotificationPreferencesView } from '../../contract';
import type { OperatorRole, Roster } from '../ledger';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { actingAs, signAction, type OperatorCredentials } from '../operators';
import { getNotificationPreferences, setNotificationPreferences } from './notifications-table';

/**
 * What an operator gets until they choose: approvals waiting for them, the final outcome of orders they requested,
 * stuck orders if they approve or administer, the connection; no deposit notices until they set a threshold.
 */
export function defaultPreferences(role: OperatorRole): NotificationPreferences {
  return {
    approvalWaiting: true,
    orderFinal: 'mine',
    orderStuck: role === 'admin' || role === 'approver',
    connection: true,
    depositThresholds: {},
  };
}

const storedSchema = z.strictObject({
  approvalWaiting: z.boolean(),
  orderFinal: z.enum(ORDER_FINAL_SCOPES),
  orderStuck: z.boolean(),
  connection: z.boolean(),
  depositThresholds: z.partialRecord(z.enum(WITHDRAWAL_CURRENCIES), z.string().regex(AMOUNT_SYNTAX)),
});

/** Why a deposit threshold is refused, or null: digits with at most the currency's decimals ("0": every deposit). */
export function thresholdProblem(currency: CurrencySymbol, text: string): string | null {
  const info = CURRENCIES[currency];
  if (!AMOUNT_SYNTAX.test(text)) return `write the ${info.displayName} threshold with digits and at most one "." (no sign, spaces or commas), e.g. 1000 or 250.5`;
  if (writtenDecimals(text) > info.decimals) return `${info.displayName} allows at most ${info.decimals} decimal places`;
  return null;
}

/** Checks preferences a person sent; answers them in the one stored form (thresholds without extra zeros) or refuses. */
export function checkPreferences(preferences: NotificationPreferences): NotificationPreferences {
  const fields: Record<string, string> = {};
  const thresholds: Partial<Record<CurrencySymbol, string>> = {};
  for (const [currency, text] of Object.entries(preferences.depositThresholds)) {
    if (text === undefined) continue;
    if (!isCurrencySymbol(currency)) {
      fields[`preferences.depositThresholds.${currency}`] = 'unknown currency symbol';
      continue;
    }
    const problem = thresholdProblem(currency, text);
    if (problem !== null) fields[`preferences.depositThresholds.${currency}`] = problem;
    else thresholds[currency] = formatMoney(new Money(text));
  }
  const problems = Object.values(fields);
  if (problems.length > 0) throw new DeskError('invalidInput', `the notification preferences are not usable: ${problems.join('; ')}`, fields);
  return { ...preferences, depositThresholds: thresholds };
}

/** Whether a deposit of `amount` (a decimal string) is above the operator's threshold for its currency. */
export function depositWanted(preferences: NotificationPreferences, currency: string, amount: string): boolean {
  if (!isCurrencySymbol(currency) || !AMOUNT_SYNTAX.test(amount)) return false;
  const threshold = preferences.depositThresholds[currency];
  return threshold !== undefined && AMOUNT_SYNTAX.test(threshold) && new Money(amount).greaterThan(new Money(threshold));
}

/** An operator's preferences in force: their stored choice when it parses, else their role's defaults. */
export function preferencesOf(context: Pick<(Kernel & AuditRecorder & ProfileSelection), 'db'>, profile: string, name: string, role: OperatorRole): { preferences: NotificationPreferences; isDefault: boolean } {
  const stored = getNotificationPreferences(context.db, profile, name);
  const parsed = stored === undefined ? undefined : storedSchema.safeParse(stored.preferences);
  if (parsed?.success === true) return { preferences: parsed.data, isDefault: false };
  return { preferences: defaultPreferences(role), isDefault: true };
}

function enrolled(roster: Roster, profile: string, name: string): { name: string; role: OperatorRole } {
  const operator = roster.operator(name);
  const snapshot = operator === undefined ? undefined : roster.at(operator.name);
  if (operator === undefined || snapshot === undefined) throw new DeskError('notFound', `no operator named ${name} in profile ${profile}`);
  return { name: operator.name, role: snapshot.role };
}

/** An operator's preferences in the active profile, as the faces show them. */
export function preferencesView(context: Kernel & AuditRecorder & ProfileSelection, name: string): NotificationPreferencesView {
  const profile = context.activeProfile().name;
  const operator = enrolled(context.trail.roster(profile, { cached: true }), profile, name);
  return { profile, operator: operator.name, ...preferencesOf(context, profile, operator.name, operator.role) };
}

/** The acting operator sets their own preferences (any role may): checked, stored and signed into the audit log together. */
export async function setOwnPreferences(context: Kernel & AuditRecorder & ProfileSelection, preferences: NotificationPreferences, credentials: OperatorCredentials): Promise<NotificationPreferencesView> {
  const checked = checkPreferences(preferences);
  const acting = await actingAs(context, credentials, 'view');
  await signAction(
    acting,
    'notifications/preferences',
    acting.name,
    {
      approvalWaiting: checked.approvalWaiting,
      orderFinal: checked.orderFinal,
      orderStuck: checked.orderStuck,
      connection: checked.connection,
      depositThresholds: { ...checked.depositThresholds } as Record<string, string>,
    },
    () => setNotificationPreferences(context.db, acting.profile, acting.name, checked, context.now()),
  );
  return { profile: acting.profile, operator: acting.name, preferences: checked, isDefault: false };
}
