// useRadarStore: the poisoning radar of the active profile (radar/list): deposit senders that look like an address-book
// entry, and an admin's clearance (radar/clear: propose, or confirm another admin's). The engine decides who may; this
// store only shows and asks.
import { create } from 'zustand';
import type { PoisoningAlertView, RadarView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';
import { profileAnswer } from './profile-answer';

interface RadarStore {
  /** null until loaded, and while no profile is active or the desk is locked. */
  readonly radar: RadarView | null;
  readonly error: ContractError | null;
  load(): Promise<void>;
  clear(address: string, as: ActingOperator): Promise<Result<PoisoningAlertView>>;
}

export const useRadarStore = create<RadarStore>()((set, get) => ({
  radar: null,
  error: null,
  async load() {
    const answer = profileAnswer(await call('radar/list', {}));
    set('value' in answer ? { radar: answer.value, error: answer.error } : { error: answer.error });
  },
  async clear(address, as) {
    const result = await call('radar/clear', { address, as });
    if (result.ok) await get().load();
    return result;
  },
}));
