// useProfilesStore: merchant profiles (list, add, import a credentials file, select, demo sandbox), key-pair
// generation and the selfcheck report, plus the first-start onboarding steps.
import { create } from 'zustand';
import type { FileOutcome, GeneratedMerchantKey, ProfileSummary, SelfcheckReport } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';

/** `join`: a workstation without credentials joins a team desk instead (its profile comes from the shared chain). */
export type OnboardingStep = 'welcome' | 'credentials' | 'join' | 'selfcheck' | 'operator' | 'done';

export interface CredentialsInput {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: string;
  /** Omitted when the key pair was generated on this desk for the profile. */
  readonly merchantPrivateKey?: string;
}

interface ProfilesStore {
  readonly profiles: readonly ProfileSummary[];
  readonly loaded: boolean;
  readonly error: ContractError | null;
  readonly onboarding: OnboardingStep;
  readonly selfcheck: { readonly running: boolean; readonly report: SelfcheckReport | null; readonly error: ContractError | null; readonly at: number | null };
  readonly generatedKey: GeneratedMerchantKey | null;
  load(): Promise<void>;
  active(): ProfileSummary | null;
  startDemo(): Promise<Result<ProfileSummary>>;
  add(name: string, credentials: CredentialsInput): Promise<Result<ProfileSummary>>;
  /** Adds a profile from a credentials.json the person chooses in the system's dialog. */
  importFile(name: string): Promise<Result<FileOutcome<ProfileSummary>>>;
  select(name: string): Promise<Result<ProfileSummary>>;
  /** Removes a profile (its keychain entries and operators; its history stays); `as` is one of its admins when founded. */
  remove(name: string, as?: ActingOperator): Promise<Result<{ readonly removed: string }>>;
  generateKey(name: string): Promise<Result<GeneratedMerchantKey>>;
  runSelfcheck(): Promise<void>;
  setOnboarding(step: OnboardingStep): void;
}

export const useProfilesStore = create<ProfilesStore>()((set, get) => ({
  profiles: [],
  loaded: false,
  error: null,
  onboarding: 'done',
  selfcheck: { running: false, report: null, error: null, at: null },
  generatedKey: null,
  async load() {
    const result = await call('profiles/list', {});
    if (result.ok) {
      const first = !get().loaded;
      set({ profiles: result.value, loaded: true, error: null });
      if (first && result.value.length === 0) set({ onboarding: 'welcome' });
    } else {
      set({ loaded: true, error: result.error });
    }
  },
  active() {
    return get().profiles.find((profile) => profile.active) ?? null;
  },
  async startDemo() {
    const result = await call('demo/start', {});
    if (result.ok) {
      await get().load();
      set({ selfcheck: { running: false, report: null, error: null, at: null } });
    }
    return result;
  },
  async add(name, credentials) {
    const result = await call('profiles/add', { name, credentials });
    if (result.ok) await get().load();
    return result;
  },
  async importFile(name) {
    const result = await call('desktop/importProfile', { name });
    if (result.ok && !result.value.cancelled) await get().load();
    return result;
  },
  async select(name) {
    const result = await call('profiles/select', { name });
    if (result.ok) {
      await get().load();
      set({ selfcheck: { running: false, report: null, error: null, at: null } });
    }
    return result;
  },
  async remove(name, as) {
    const result = await call('profiles/remove', { name, ...(as === undefined ? {} : { as }) });
    if (result.ok) await get().load();
    return result;
  },
  async generateKey(name) {
    const result = await call('profiles/generateKey', { name });
    set({ generatedKey: result.ok ? result.value : null });
    return result;
  },
  async runSelfcheck() {
    set({ selfcheck: { ...get().selfcheck, running: true, error: null } });
    const result = await call('selfcheck/run', {});
    set({
      selfcheck: result.ok
        ? { running: false, report: result.value, error: null, at: Date.now() }
        : { running: false, report: null, error: result.error, at: Date.now() },
    });
  },
  setOnboarding(step) {
    set({ onboarding: step });
  },
}));
