// useNavigationStore: which screen the shell shows (the desk has no URLs: one window, a few screens, named in
// electron/contract/screens.ts so the app menu can open them too), and following a clicked notification (the
// shell's desktop/openItem event) or a treasury-desk:// link (desktop/openLink) to what it is about.
import { create } from 'zustand';
import type { DeepLinkTarget, NotificationTarget } from '../../../electron/contract';
import { SCREEN_SHORT_NAMES, SCREEN_TITLES, SCREENS, type Screen } from '../../../electron/contract/screens';
import { EMPTY_FILTERS, useDepositsStore } from './deposits';
import { usePayeesStore } from './payees';
import { useWithdrawalsStore } from './withdrawals';

export { SCREEN_TITLES, SCREENS, type Screen };

/** Shorter names for the side navigation. */
export const NAV_LABELS = SCREEN_SHORT_NAMES;

interface NavigationStore {
  readonly screen: Screen;
  go(screen: Screen): void;
  /** Shows what a notification is about: the withdrawal's detail, the batch payout, the deposit found by its txid, the connection. */
  open(target: NotificationTarget): void;
  /** Shows what a link names (only shows: a link never acts). */
  openLink(target: DeepLinkTarget): void;
}

function showDeposit(txid: string): Screen {
  useDepositsStore.getState().setFilters({ ...EMPTY_FILTERS, search: txid });
  return 'deposits';
}

export const useNavigationStore = create<NavigationStore>()((set) => ({
  screen: 'dashboard',
  go(screen) {
    set({ screen });
  },
  open(target) {
    switch (target.kind) {
      case 'withdrawal':
        set({ screen: 'withdrawals' });
        void useWithdrawalsStore.getState().select(target.id);
        return;
      case 'payoutBatch':
        set({ screen: 'withdrawals' });
        useWithdrawalsStore.getState().openBatch(target.id);
        return;
      case 'deposit':
        set({ screen: showDeposit(target.txid) });
        return;
      case 'connection':
        set({ screen: 'profiles' });
        return;
      case 'governance':
        // The governance panel (the changes waiting, and the veto) is in Settings, beside the emergency freeze.
        set({ screen: 'settings' });
        return;
      default: {
        const unknown: never = target;
        console.warn('Treasury Desk ignored a notification target it does not know', unknown);
      }
    }
  },
  openLink(target) {
    switch (target.kind) {
      case 'withdrawal':
      case 'payoutBatch':
        useNavigationStore.getState().open(target);
        return;
      case 'deposit':
        set({ screen: showDeposit(target.txid) });
        return;
      case 'payee':
        // Payees are a section of the Address book screen; the payee's row is marked there.
        usePayeesStore.getState().focus(target.id);
        set({ screen: 'addressBook' });
        return;
      default: {
        const unknown: never = target;
        console.warn('Treasury Desk ignored a link target it does not know', unknown);
      }
    }
  },
}));
