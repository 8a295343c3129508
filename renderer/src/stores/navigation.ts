// useNavigationStore: which screen the shell shows (the desk has no URLs: one window, a few screens), and following a
// clicked notification (the shell's navigation/open event) to what it is about.
import { create } from 'zustand';
import type { NotificationTarget } from '../../../electron/contract';
import { EMPTY_FILTERS, useDepositsStore } from './deposits';
import { useWithdrawalsStore } from './withdrawals';

export const SCREENS = ['dashboard', 'deposits', 'addresses', 'withdrawals', 'tools', 'audit', 'operators', 'settings', 'profiles'] as const;
export type Screen = (typeof SCREENS)[number];

export const SCREEN_TITLES: Readonly<Record<Screen, string>> = {
  dashboard: 'Dashboard',
  deposits: 'Deposits',
  addresses: 'Deposit addresses',
  withdrawals: 'Withdrawals',
  tools: 'Tools',
  audit: 'Audit log',
  operators: 'Operators',
  settings: 'Settings',
  profiles: 'Profiles and connection',
};

/** Shorter names for the side navigation. */
export const NAV_LABELS: Readonly<Record<Screen, string>> = { ...SCREEN_TITLES, addresses: 'Addresses', profiles: 'Connection' };

interface NavigationStore {
  readonly screen: Screen;
  go(screen: Screen): void;
  /** Shows what a notification is about: the withdrawal's detail, the deposit found by its txid, the connection. */
  open(target: NotificationTarget): void;
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
      case 'deposit':
        set({ screen: 'deposits' });
        useDepositsStore.getState().setFilters({ ...EMPTY_FILTERS, search: target.txid });
        return;
      case 'connection':
        set({ screen: 'profiles' });
        return;
      default: {
        const unknown: never = target;
        console.warn('Treasury Desk ignored a notification target it does not know', unknown);
      }
    }
  },
}));
