// useSettingsStore: operators (list/add), per-currency withdrawal policies, the callback listener (state,
// start/stop, the callbacks/changed event) and the idle lock timeout.
import { create } from 'zustand';
import type { CurrencySymbol } from '../../../electron/chains';
import type { CallbackListenerState, OperatorView, PolicyView, RequestOf } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';
import { useSessionStore } from './session';

export type OperatorRole = OperatorView['role'];

export interface PolicyDraft {
  readonly currency: CurrencySymbol;
  readonly thresholds: readonly { readonly above: string; readonly approvals: number }[];
  readonly dailyLimit: string | null;
  readonly useFinancialConfirmation: boolean;
}

interface SettingsStore {
  readonly operators: readonly OperatorView[];
  readonly operatorsLoaded: boolean;
  readonly policies: readonly PolicyView[];
  readonly callbacks: CallbackListenerState | null;
  readonly error: ContractError | null;
  loadOperators(): Promise<void>;
  loadPolicies(): Promise<void>;
  loadCallbacks(): Promise<void>;
  addOperator(name: string, role: OperatorRole, passphrase: string, as: ActingOperator | null): Promise<Result<OperatorView>>;
  setPolicy(draft: PolicyDraft, as: ActingOperator): Promise<Result<PolicyView>>;
  startCallbacks(host: string, port: number | null): Promise<Result<CallbackListenerState>>;
  stopCallbacks(): Promise<Result<CallbackListenerState>>;
  applyCallbacks(state: CallbackListenerState): void;
  setLockTimeout(seconds: number, as: ActingOperator): Promise<Result<unknown>>;
}

export const useSettingsStore = create<SettingsStore>()((set, get) => ({
  operators: [],
  operatorsLoaded: false,
  policies: [],
  callbacks: null,
  error: null,
  async loadOperators() {
    const result = await call('operators/list', {});
    if (result.ok) set({ operators: result.value, operatorsLoaded: true });
    else set({ operatorsLoaded: true, error: result.error.code === 'locked' ? null : result.error });
  },
  async loadPolicies() {
    const result = await call('policies/list', {});
    if (result.ok) set({ policies: result.value });
  },
  async loadCallbacks() {
    const result = await call('callbacks/state', {});
    if (result.ok) set({ callbacks: result.value });
  },
  async addOperator(name, role, passphrase, as) {
    const request: RequestOf<'operators/add'> = as === null ? { name, role, passphrase } : { name, role, passphrase, as };
    const result = await call('operators/add', request);
    if (result.ok) await get().loadOperators();
    return result;
  },
  async setPolicy(draft, as) {
    const result = await call('policies/set', {
      currency: draft.currency,
      thresholds: draft.thresholds.map((threshold) => ({ above: threshold.above, approvals: threshold.approvals })),
      dailyLimit: draft.dailyLimit,
      useFinancialConfirmation: draft.useFinancialConfirmation,
      as,
    });
    if (result.ok) await get().loadPolicies();
    return result;
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
}));
