// Which merchant profile the desk acts on: the one chosen in this run (--profile, a switch in the app, a headless
// credentials file), else the active-profile setting, else the only profile. The profiles module's ProfileSelection.
import { DeskError } from '../kernel/errors';
import type { ReadableDB } from '../store/database';
import { getProfile, listProfiles, type Profile, type ProfileSelection } from './profiles-table';
import { getSetting, SETTING_KEYS } from './settings-table';

export class ProfileChoice implements ProfileSelection {
  readonly #db: ReadableDB;
  #chosen: string | undefined;

  constructor(db: ReadableDB, chosen?: string) {
    this.#db = db;
    this.#chosen = chosen;
  }

  /** Acts on `name` from now on (the caller drops the old profile's clients: connection/merchant-session.ts). */
  choose(name: string): void {
    this.#chosen = name;
  }

  /** The name chosen in this run, if any (a credentials file names its profile after it). */
  get chosen(): string | undefined {
    return this.#chosen;
  }

  activeProfileName(): string | undefined {
    if (this.#chosen !== undefined) return this.#chosen;
    const stored = getSetting(this.#db, SETTING_KEYS.activeProfile);
    if (typeof stored === 'string' && getProfile(this.#db, stored)) return stored;
    const all = listProfiles(this.#db);
    return all.length === 1 ? all[0]?.name : undefined;
  }

  activeProfile(): Profile {
    const name = this.activeProfileName();
    const profile = name === undefined ? undefined : getProfile(this.#db, name);
    if (!profile) {
      throw new DeskError(
        'noProfile',
        name === undefined
          ? 'no merchant profile is set up: import credentials (treasury-desk profile import FILE) or start the demo'
          : `no profile named ${name}: list them with treasury-desk profile list`,
      );
    }
    return profile;
  }
}
