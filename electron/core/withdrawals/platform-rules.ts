// What the platform allows this merchant, from the last merchantInfo answer (its withdrawTypes and
// auditorMessengerBound): checked when a withdrawal is preflighted and requested, and when a policy picks the
// withdrawal type, so a request the platform would refuse (withdrawTypeNotAllowed, auditorMessengerNotBound) is refused
// at request time, before anyone approves it, saying why and what to do.
import type { WithdrawType } from '../../protocol';
import { type ReadableDB } from '../store/database';
import { getMerchantInfo } from '../merchant';

export interface PlatformWithdrawalSettings {
  /** The withdrawal types the platform allows this merchant, as it names them. */
  readonly withdrawTypes: readonly string[];
  readonly auditorMessengerBound: boolean;
  /** When merchantInfo reported them (ms). */
  readonly fetchedAt: number;
}

export interface WithdrawTypeRefusal {
  /** Why the platform would refuse it. */
  readonly reason: string;
  /** What to do instead. */
  readonly remedy: string;
}

/** The settings merchantInfo last reported for the profile; null when it never answered (nothing to judge by yet). */
export function platformWithdrawalSettings(db: ReadableDB, profile: string): PlatformWithdrawalSettings | null {
  const stored = getMerchantInfo(db, profile);
  if (stored === undefined) return null;
  const types = stored.record['withdrawTypes'];
  const bound = stored.record['auditorMessengerBound'];
  if (!Array.isArray(types) || typeof bound !== 'boolean') return null;
  return { withdrawTypes: types.filter((type): type is string => typeof type === 'string'), auditorMessengerBound: bound, fetchedAt: stored.fetchedAt };
}

function allowedText(types: readonly string[]): string {
  return types.length === 0 ? 'it allows none' : `it allows: ${types.join(', ')}`;
}

/**
 * Why the platform would refuse a `type` withdrawal for this merchant (spec createWithdrawOrder rules), or null when it
 * would not (or when its settings are not known yet).
 */
export function withdrawTypeRefusal(settings: PlatformWithdrawalSettings | null, type: WithdrawType): WithdrawTypeRefusal | null {
  if (settings === null) return null;
  const other: WithdrawType = type === 'normal' ? 'financialConfirmation' : 'normal';
  if (!settings.withdrawTypes.includes(type)) {
    return {
      reason: `the platform does not allow ${type} withdrawals for this merchant (${allowedText(settings.withdrawTypes)})`,
      remedy: `ask the platform to allow ${type} withdrawals in the merchant's withdrawal policy, or use ${other}`,
    };
  }
  if (type === 'financialConfirmation' && !settings.auditorMessengerBound) {
    return {
      reason: "financialConfirmation needs a messenger bound to the merchant's auditor, and the platform reports none bound",
      remedy: "bind one in the platform's merchant settings (then sync, so the desk sees it), or use normal",
    };
  }
  return null;
}
