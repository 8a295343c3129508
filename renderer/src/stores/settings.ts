// useSettingsStore: per-currency withdrawal policies, the callback listener (state, start/stop, the callbacks/changed
// event), the idle lock timeout and the reporting time zone (both desk-wide, in the session state), and the answer to
// this workstation's language choice (the choice itself is i18n's useLanguageStore, kept through i18n/saved-language). Operators have their own store
// (operators.ts).
import { create } from 'zustand';
import type { CurrencySymbol } from '../../../electron/chains';
import type { CallbackListenerState, PolicyChangeView, PolicyPreviewView, PolicyView, RequestOf } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { LanguageChoice } from '../i18n';
import { chooseLanguage } from '../i18n/saved-language';
import type { ActingOperator } from './operator-prompt';
import { useSessionStore } from './session';

/**
 * A policy as the engine reads it (policies/set without who signs, policies/preview): the one draft the editor saves and
 * previews. A new policy field is added in the contract and in draftOfPolicy, and nowhere else.
 */
export type PolicyDraft = RequestOf<'policies/preview'>;

/**
 * The policy in force as a draft, every field kept (a tier's groups, the approvals' validity): what the editor starts
 * from and overrides with what it shows, so saving never drops a field the form does not edit.
 */
export function draftOfPolicy(currency: CurrencySymbol, policy: PolicyView | undefined): PolicyDraft {
  if (policy === undefined) return { currency, thresholds: [], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: false, newDestinationWaitHours: 0 };
  return {
    currency,
    thresholds: policy.thresholds.map((threshold) => ({
      above: threshold.above,
      approvals: threshold.approvals,
      ...(threshold.groups === undefined ? {} : { groups: threshold.groups.map((terms) => terms.map((term) => ({ group: term.group, count: term.count }))) }),
    })),
    dailyLimit: policy.dailyLimit,
    useFinancialConfirmation: policy.useFinancialConfirmation,
    onlyFromBook: policy.onlyFromBook,
    newDestinationWaitHours: policy.newDestinationWaitHours,
    ...(policy.approvalValidHours === null ? {} : { approvalValidHours: policy.approvalValidHours }),
    ...(policy.windows.length === 0 ? {} : { windows: policy.windows.map((window) => ({ ...window })) }),
    ...(policy.destinationCaps.length === 0 ? {} : { destinationCaps: policy.destinationCaps.map((cap) => ({ ...cap })) }),
    ...(policy.unusualAmount === null ? {} : { unusualAmount: { ...policy.unusualAmount } }),
    // Kept as signed: the editor has no field for it yet, and dropping it would loosen the policy.
    ...(policy.provenControlAbove === null ? {} : { provenControlAbove: policy.provenControlAbove }),
  };
}

interface SettingsStore {
  readonly policies: readonly PolicyView[];
  readonly callbacks: CallbackListenerState | null;
  /** Why the last language choice was refused (the old language is back), or null. */
  readonly languageError: ContractError | null;
  loadPolicies(): Promise<void>;
  loadCallbacks(): Promise<void>;
  /** Applied at once, or (with two independent admins) proposed until another admin confirms it. */
  setPolicy(draft: PolicyDraft, as: ActingOperator): Promise<Result<PolicyChangeView>>;
  /** What the draft would change for the requests now waiting (nothing is proposed or signed). */
  previewPolicy(draft: PolicyDraft): Promise<Result<PolicyPreviewView>>;
  startCallbacks(host: string, port: number | null): Promise<Result<CallbackListenerState>>;
  stopCallbacks(): Promise<Result<CallbackListenerState>>;
  applyCallbacks(state: CallbackListenerState): void;
  setLockTimeout(seconds: number, as: ActingOperator): Promise<Result<unknown>>;
  setReportingTimeZone(timeZone: string, as: ActingOperator): Promise<Result<unknown>>;
  /** Speaks `choice` at once and has main keep it (chooseLanguage); a refusal is kept here to be shown. */
  chooseLanguage(choice: LanguageChoice): Promise<Result<unknown>>;
}

export const useSettingsStore = create<SettingsStore>()((set, get) => ({
  policies: [],
  callbacks: null,
  languageError: null,
  async loadPolicies() {
    const result = await call('policies/list', {});
    if (result.ok) set({ policies: result.value });
  },
  async loadCallbacks() {
    const result = await call('callbacks/state', {});
    if (result.ok) set({ callbacks: result.value });
  },
  async setPolicy(draft, as) {
    const result = await call('policies/set', { ...draft, as });
    if (result.ok) await get().loadPolicies();
    return result;
  },
  async previewPolicy(draft) {
    return call('policies/preview', draft);
  },
  async startCallbacks(host, port) {
    const trimmed = host.trim();
    const result = await call('callbacks/start', { ...(trimmed === '' ? {} : { host: trimmed }), ...(port === null ? {} : { port }) });
    if (result.ok) set({ callbacks: result.value });
    return result;
  },
  async stopCallbacks() {
    const result = await call('callbacks/stop', {});
    if (result.ok) set({ callbacks: result.value });
    return result;
  },
  applyCallbacks(state) {
    set({ callbacks: state });
  },
  async setLockTimeout(seconds, as) {
    const result = await call('settings/setLockTimeout', { seconds, as });
    if (result.ok) useSessionStore.getState().apply(result.value);
    return result;
  },
  async setReportingTimeZone(timeZone, as) {
    const result = await call('settings/setReportingTimeZone', { timeZone, as });
    if (result.ok) useSessionStore.getState().apply(result.value);
    return result;
  },
  async chooseLanguage(choice) {
    const result = await chooseLanguage(choice);
    set({ languageError: result.ok ? null : result.error });
    return result;
  },
}));
