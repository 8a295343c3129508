// An operator's key held for the unlocked session of a desktop desk (issue 22, item 3): after an unlock, label and note
// statements are signed without asking for the passphrase again, until the idle lock, a manual lock, a switch of
// profile, or SESSION_SIGNING_MS after the unlock, whichever comes first. Decisions that move money never use it (their
// methods require `as`). Invariant: the key stays inside this object, and every use replays the roster afresh, so an
// operator disabled, re-keyed or given another role since the unlock signs nothing more with it.
import type { KeyObject } from 'node:crypto';
import { utcMinuteText } from '../../contract';
import type { AuditRecorder } from '../audit';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import { type OperatorAction, type OperatorSnapshot, type Roster, snapshotKey } from '../ledger';
import type { ProfileSelection } from '../profiles';
import { type ActingOperator, actingWithKey } from './acting';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/** The longest a session signs labels after its unlock, even with the idle lock turned off: 8 hours. */
export const SESSION_SIGNING_MS = 8 * 60 * 60 * 1000;

/** What an unlock unsealed (operators' unsealOperator). */
export interface UnsealedOperator {
  readonly privateKey: KeyObject;
  readonly keyId: string;
  readonly snapshot: OperatorSnapshot;
  readonly name: string;
  readonly roster: Roster;
  readonly profile: string;
}

/** Who holds the session's key (the desktop's SessionLock); the CLI has none: each command names who is acting. */
export interface SessionSigner {
  /** The unlocked session's key, or null while locked or never unlocked. */
  sessionKey(): SessionKey | null;
}

/** The session's operator ready to sign `action` (a label or note), or a clear refusal saying to name who is acting. */
export function sessionActing(parts: DeskParts, signer: SessionSigner, action: OperatorAction): ActingOperator {
  const key = signer.sessionKey();
  if (key === null) throw new DeskError('invalidInput', 'no operator has unlocked this desk: name who is acting (their passphrase signs it)', { as: 'name who is acting' });
  return key.acting(parts, action);
}

export class SessionKey {
  readonly #unsealed: UnsealedOperator;
  /** Until when (ms) the session signs labels. */
  readonly until: number;

  constructor(unsealed: UnsealedOperator, unlockedAt: number) {
    this.#unsealed = unsealed;
    this.until = unlockedAt + SESSION_SIGNING_MS;
  }

  get operator(): string {
    return this.#unsealed.name;
  }

  get profile(): string {
    return this.#unsealed.profile;
  }

  /** The session's operator, ready to sign `action`, checked against the roster as it stands now; else why not. */
  acting(parts: DeskParts, action: OperatorAction): ActingOperator {
    const { name, profile, keyId } = this.#unsealed;
    if (parts.now() >= this.until) {
      throw new DeskError('forbidden', `the session of ${name} stopped signing labels at ${utcMinuteText(this.until)} (8 hours after unlocking): lock and unlock the desk, or name who is acting`);
    }
    if (parts.activeProfile().name !== profile) throw new DeskError('forbidden', `${name} unlocked the desk for profile ${profile}: unlock it again for this profile, or name who is acting`);
    const roster = parts.trail.roster(profile);
    const snapshot = roster.at(name);
    if (snapshot === undefined || snapshotKey(snapshot, keyId) === null) {
      throw new DeskError('forbidden', `${name}'s key changed since the desk was unlocked: lock and unlock it again, or name who is acting`);
    }
    return actingWithKey(parts, { ...this.#unsealed, snapshot, roster }, action);
  }
}
