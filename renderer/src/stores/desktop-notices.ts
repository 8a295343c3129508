// useDesktopNoticesStore: what the desktop shell told the window that is not a screen's data: a treasury-desk:// link
// that was refused (shown once, escaped, until dismissed), and a verified update waiting for the operator's restart.
// Invariant: a link only ever opens a screen (navigation.openLink); nothing here approves, sends or changes anything
// but the restart the operator asks for.
import { create } from 'zustand';
import type { DeepLinkIntent, UpdateReadyView } from '../../../electron/contract';
import { call, type ContractError } from '../api';
import { useNavigationStore } from './navigation';

type RefusedLink = Extract<DeepLinkIntent, { outcome: 'refused' }>;

interface DesktopNoticesStore {
  /** The last refused link, or null. */
  readonly refusedLink: RefusedLink | null;
  /** The verified update waiting for a restart, or null. */
  readonly update: UpdateReadyView | null;
  /** The operator chose "later" for this version. */
  readonly updateDeferred: boolean;
  /** Why the last "restart now" did not restart, or null. */
  readonly restartProblem: ContractError | null;
  followLink(intent: DeepLinkIntent): void;
  dismissLink(): void;
  showUpdate(update: UpdateReadyView | null): void;
  loadUpdate(): Promise<void>;
  restartNow(): Promise<void>;
  later(): void;
}

export const useDesktopNoticesStore = create<DesktopNoticesStore>()((set) => ({
  refusedLink: null,
  update: null,
  updateDeferred: false,
  restartProblem: null,
  followLink(intent) {
    switch (intent.outcome) {
      case 'open':
        set({ refusedLink: null });
        useNavigationStore.getState().openLink(intent.target);
        return;
      case 'refused':
        set({ refusedLink: intent });
        return;
      default: {
        const unknown: never = intent;
        console.warn('Treasury Desk ignored a link outcome it does not know', unknown);
      }
    }
  },
  dismissLink() {
    set({ refusedLink: null });
  },
  showUpdate(update) {
    set((state) => (state.update?.version === update?.version ? { update } : { update, updateDeferred: false, restartProblem: null }));
  },
  async loadUpdate() {
    const answer = await call('desktop/updateReady', {});
    if (answer.ok) useDesktopNoticesStore.getState().showUpdate(answer.value.ready);
  },
  async restartNow() {
    const answer = await call('desktop/restartToUpdate', {});
    set({ restartProblem: answer.ok ? null : answer.error });
  },
  later() {
    set({ updateDeferred: true, restartProblem: null });
  },
}));
