// useSendingStore: whether the active profile's sending is frozen (sending/state), and an admin's two actions on it:
// freeze all sending at once (one signature and a reason), and propose the lift, which a second admin confirms on the
// Operators screen. The engine decides who may; this store only shows and asks.
import { create } from 'zustand';
import type { SendingStateView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';
import { profileAnswer } from './profile-answer';

interface SendingStore {
  /** null until loaded, and while no profile is active or the desk is locked. */
  readonly state: SendingStateView | null;
  readonly error: ContractError | null;
  load(): Promise<void>;
  freeze(reason: string, as: ActingOperator): Promise<Result<SendingStateView>>;
  proposeUnfreeze(as: ActingOperator): Promise<Result<SendingStateView>>;
}

export const useSendingStore = create<SendingStore>()((set) => {
  function adopt(result: Result<SendingStateView>): Result<SendingStateView> {
    if (result.ok) set({ state: result.value, error: null });
    return result;
  }
  return {
    state: null,
    error: null,
    async load() {
      const answer = profileAnswer(await call('sending/state', {}));
      set('value' in answer ? { state: answer.value, error: answer.error } : { error: answer.error });
    },
    async freeze(reason, as) {
      return adopt(await call('sending/freeze', { reason, as }));
    },
    async proposeUnfreeze(as) {
      return adopt(await call('sending/unfreeze', { as }));
    },
  };
});
