// useNavigationStore: which screen the shell shows (the desk has no URLs: one window, a few screens).
import { create } from 'zustand';

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
}

export const useNavigationStore = create<NavigationStore>()((set) => ({
  screen: 'dashboard',
  go(screen) {
    set({ screen });
  },
}));
