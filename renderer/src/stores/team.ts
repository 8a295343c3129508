// useTeamStore: this workstation's team mode (team/status, the team/changed event) and the admin's actions on it
// (team/init, team/join, team/leave), and a verification of the whole team chain on request (team/verify). The database URL typed here goes to the engine, which keeps its password in the
// keychain; the status shows the URL without it.
import { create } from 'zustand';
import type { TeamPreviewView, TeamStatusView } from '../../../electron/contract';
import { call, type Result } from '../api';
import type { ActingOperator } from './operator-prompt';

interface TeamStore {
  readonly status: TeamStatusView | null;
  load(): Promise<void>;
  /** The genesis of the desk a URL names (team/preview): what the joiner compares before joining. */
  preview(database: string): Promise<Result<TeamPreviewView>>;
  /** `genesis`: the fingerprint the joiner confirmed (join only). */
  connect(kind: 'init' | 'join', database: string, workstation: string, as: ActingOperator, genesis?: string): Promise<Result<TeamStatusView>>;
  leave(as: ActingOperator): Promise<Result<TeamStatusView>>;
  /** Verifies the whole team chain again from its genesis (team/verify): what `team verify` does in the CLI. */
  verify(): Promise<Result<TeamStatusView>>;
}

export const useTeamStore = create<TeamStore>()((set) => ({
  status: null,
  async load() {
    const result = await call('team/status', {});
    if (result.ok) set({ status: result.value });
  },
  preview(database) {
    return call('team/preview', { database });
  },
  async connect(kind, database, workstation, as, genesis) {
    const result = kind === 'init' ? await call('team/init', { database, workstation, as }) : await call('team/join', { database, workstation, as, genesis: genesis ?? '' });
    if (result.ok) set({ status: result.value });
    return result;
  },
  async verify() {
    const result = await call('team/verify', {});
    if (result.ok) set({ status: result.value });
    return result;
  },
  async leave(as) {
    const result = await call('team/leave', { as });
    if (result.ok) set({ status: result.value });
    return result;
  },
}));
