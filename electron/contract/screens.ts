// The desk's screens, named once for every face that can show or open one: the renderer's navigation, and the app
// menu's Go menu (whose choice reaches the window as a `desktop/navigate` event).
export const SCREENS = ['dashboard', 'deposits', 'addresses', 'withdrawals', 'addressBook', 'reconciliation', 'tools', 'audit', 'operators', 'settings', 'profiles'] as const;
export type Screen = (typeof SCREENS)[number];

export const SCREEN_TITLES: Readonly<Record<Screen, string>> = {
  dashboard: 'Dashboard',
  deposits: 'Deposits',
  addresses: 'Deposit addresses',
  withdrawals: 'Withdrawals',
  addressBook: 'Address book',
  reconciliation: 'Reconciliation',
  tools: 'Tools',
  audit: 'Audit log',
  operators: 'Operators',
  settings: 'Settings',
  profiles: 'Profiles and connection',
};

/** Shorter names for the side navigation and the Go menu. */
export const SCREEN_SHORT_NAMES: Readonly<Record<Screen, string>> = { ...SCREEN_TITLES, addresses: 'Addresses', profiles: 'Connection' };

export function isScreen(value: unknown): value is Screen {
  return typeof value === 'string' && (SCREENS as readonly string[]).includes(value);
}
