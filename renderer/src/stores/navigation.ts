// useNavigationStore: which screen the shell shows (the desk has no URLs: one window, a few screens, named in
// electron/contract/screens.ts so the app menu can open them too), each screen's title and short name in the window's
// language, and following a clicked notification (the shell's desktop/openItem event) or a treasury-desk:// link
// (desktop/openLink) to what it is about.
import { create } from 'zustand';
import type { DeepLinkTarget, NotificationTarget } from '../../../electron/contract';
import { SCREENS, type Screen } from '../../../electron/contract/screens';
import { t, type MessageId } from '../i18n';
import { EMPTY_FILTERS, useDepositsStore } from './deposits';
import { usePayeesStore } from './payees';
import { useWithdrawalsStore } from './withdrawals';

export { SCREENS, type Screen };

/**
 * Each screen's title (its heading) in the catalogue; English as contract/screens.ts SCREEN_TITLES, which the app menu
 * (main, English) keeps using. A Record of every screen, so a new screen without a title does not compile.
 */
export const SCREEN_TITLE_IDS: Readonly<Record<Screen, MessageId>> = {
  dashboard: 'shell.screen.dashboard',
  deposits: 'shell.screen.deposits',
  addresses: 'shell.screen.addresses',
  withdrawals: 'shell.screen.withdrawals',
  addressBook: 'shell.screen.addressBook',
  reconciliation: 'shell.screen.reconciliation',
  tools: 'shell.screen.tools',
  audit: 'shell.screen.audit',
  operators: 'shell.screen.operators',
  settings: 'shell.screen.settings',
  profiles: 'shell.screen.profiles',
};

/** Shorter names for the side navigation (contract/screens.ts SCREEN_SHORT_NAMES): the title where none is shorter. */
export const SCREEN_SHORT_NAME_IDS: Readonly<Record<Screen, MessageId>> = {
  ...SCREEN_TITLE_IDS,
  addresses: 'shell.screen.addresses.short',
  profiles: 'shell.screen.profiles.short',
};

/** A screen's title in the window's language ("Deposit addresses", "Einzahlungsadressen"). */
export function screenTitle(screen: Screen): string {
  return t(SCREEN_TITLE_IDS[screen]);
}

/** A screen's name in the side navigation, in the window's language ("Addresses", "Adressen"). */
export function screenShortName(screen: Screen): string {
  return t(SCREEN_SHORT_NAME_IDS[screen]);
}

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
