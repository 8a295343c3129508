// useConnectionPanelStore: the connection panel's facts (connection/panel): where the desk connects and for whom, the
// session token's age and estimated expiry, the clock drift history, both key fingerprints, the last whitelist
// refusal and each resource's sync freshness. Read again after each selfcheck, sync and connection change.
import { create } from 'zustand';
import type { ConnectionPanelView } from '../../../electron/contract';
import { call, type ContractError } from '../api';

interface ConnectionPanelStore {
  readonly panel: ConnectionPanelView | null;
  readonly error: ContractError | null;
  load(): Promise<void>;
}

export const useConnectionPanelStore = create<ConnectionPanelStore>()((set) => ({
  panel: null,
  error: null,
  async load() {
    const result = await call('connection/panel', {});
    if (result.ok) set({ panel: result.value, error: null });
    else if (result.error.code !== 'locked') set({ error: result.error });
  },
}));
