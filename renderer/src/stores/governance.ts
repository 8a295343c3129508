// useGovernanceStore: the desk's governance (governance/state: the loosening delay, how a freeze is lifted, who set it,
// the loosening changes waiting for their delay and the latest vetoed or in force) and an admin's two actions on it:
// propose a new setting (governance/set) and veto a waiting change (governance/veto). The engine decides who may and
// what is loosening; this store only shows and asks, and holds no passphrase beyond the one call it is passed to.
import { create } from 'zustand';
import type { GovernanceView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';
import { profileAnswer } from './profile-answer';

export interface GovernanceInput {
  readonly looseningDelayHours: number;
  readonly freezeLift: GovernanceView['freezeLift'];
  readonly freezeLockHours: number;
}

interface GovernanceStore {
  /** null until loaded, and while no profile is active or the desk is locked. */
  readonly state: GovernanceView | null;
  readonly error: ContractError | null;
  load(): Promise<void>;
  propose(input: GovernanceInput, as: ActingOperator): Promise<Result<GovernanceView>>;
  /** Vetoes a waiting loosening change by its id; an empty reason is left out. */
  veto(change: string, reason: string, as: ActingOperator): Promise<Result<GovernanceView>>;
}

export const useGovernanceStore = create<GovernanceStore>()((set) => {
  function adopt(result: Result<GovernanceView>): Result<GovernanceView> {
    if (result.ok) set({ state: result.value, error: null });
    return result;
  }
  return {
    state: null,
    error: null,
    async load() {
      const answer = profileAnswer(await call('governance/state', {}));
      set('value' in answer ? { state: answer.value, error: answer.error } : { error: answer.error });
    },
    async propose(input, as) {
      return adopt(await call('governance/set', { ...input, as }));
    },
    async veto(change, reason, as) {
      const trimmed = reason.trim();
      return adopt(await call('governance/veto', { change, ...(trimmed === '' ? {} : { reason: trimmed }), as }));
    },
  };
});
