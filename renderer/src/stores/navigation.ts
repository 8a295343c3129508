// useNavigationStore: which screen the shell shows (the desk has no URLs: one window, a few screens, named in
// electron/contract/screens.ts so the app menu can open them too).
import { create } from 'zustand';
import { SCREEN_SHORT_NAMES, SCREEN_TITLES, SCREENS, type Screen } from '../../../electron/contract/screens';

export { SCREEN_TITLES, SCREENS, type Screen };

/** Shorter names for the side navigation. */
export const NAV_LABELS = SCREEN_SHORT_NAMES;

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
