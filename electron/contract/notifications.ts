// Notifications of the desk (issue 12): the kinds the engine raises, the notice itself as every face receives it in
// the `notification/raised` event, where clicking it leads, and each operator's preferences. Plain JSON: amounts are
// exact decimal strings; a notice never carries a secret, a key or a balance.
import type { CurrencySymbol } from '../chains';

/**
 * What a notice is about. `offline` and `online` are the desk losing and regaining the service; `looseningScheduled` a
 * change that loosens the rules, waiting for its delay (issue 20 part 4), told to every admin, who may veto it;
 * `poisoningSuspected` a deposit from a look-alike of an address-book entry (the poisoning radar, issue 21), told once
 * per sender to every active operator.
 */
export const NOTIFICATION_KINDS = ['approvalWaiting', 'orderFinal', 'orderStuck', 'depositCredited', 'offline', 'online', 'looseningScheduled', 'poisoningSuspected'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Where clicking a notice leads in the window. */
export type NotificationTarget =
  | { readonly kind: 'withdrawal'; readonly id: string }
  /** A batch payout (payouts/get), shown in Withdrawals → Batch payouts. */
  | { readonly kind: 'payoutBatch'; readonly id: string }
  | { readonly kind: 'deposit'; readonly id: string; readonly txid: string }
  | { readonly kind: 'connection' }
  /** The roster's governance: the loosening changes waiting (governance/state), in Settings beside the emergency freeze. */
  | { readonly kind: 'governance' };

export interface DeskNotification {
  /** Unique per occurrence (`profile:approval:12`): the same occurrence is never raised twice, even across restarts. */
  readonly id: string;
  readonly kind: NotificationKind;
  readonly profile: string;
  /** Never an amount, an address or a name: the title is shown as is even while the desk is locked. */
  readonly title: string;
  /** The details: amounts (exact decimal strings), currency, who, the fingerprint; text from people or the network escaped. */
  readonly body: string;
  /** The same notice without amounts, addresses, names or reasons: what a locked desk shows. */
  readonly discreetBody: string;
  /** The operators (roster names) this notice is for: eligible for it and wanting it by their preferences. */
  readonly recipients: readonly string[];
  readonly target?: NotificationTarget;
  /** When the engine raised it (ms). */
  readonly at: number;
}

/** Whose final orders an operator hears about. */
export const ORDER_FINAL_SCOPES = ['off', 'mine', 'all'] as const;
export type OrderFinalScope = (typeof ORDER_FINAL_SCOPES)[number];

/** What one operator of a profile wants to be told. */
export interface NotificationPreferences {
  /** A withdrawal request this operator may approve now (their approval would count). */
  readonly approvalWaiting: boolean;
  /** Orders paid out, refunded, failed or rejected: none, those this operator requested, or every one. */
  readonly orderFinal: OrderFinalScope;
  /** An order the service has kept in one pending status longer than expected (the withdrawal watchdog). */
  readonly orderStuck: boolean;
  /** The desk losing the service and getting it back. */
  readonly connection: boolean;
  /**
   * Deposits strictly above these amounts (decimal strings, at most the currency's decimals), per currency; a currency
   * not listed gives no deposit notices ("0": every deposit).
   */
  readonly depositThresholds: Readonly<Partial<Record<CurrencySymbol, string>>>;
}

export interface NotificationPreferencesView {
  readonly profile: string;
  readonly operator: string;
  readonly preferences: NotificationPreferences;
  /** True while the operator has not chosen: `preferences` are the defaults for their role. */
  readonly isDefault: boolean;
}

/** How many withdrawal requests an operator may approve now (the tray and the badge count). */
export interface ApprovalsWaitingView {
  readonly operator: string;
  readonly approvals: number;
}
