// useNotificationsStore: one operator's notification preferences (notifications/preferences; saved by that operator with
// their passphrase through notifications/setPreferences) and this workstation's "keep running in the tray" choice
// (desktop/preferences, desktop/setPreferences: kept by the desktop, not the engine).
import { create } from 'zustand';
import type { NotificationPreferences, NotificationPreferencesView } from '../../../electron/contract';
import { call, type ContractError, type Result } from '../api';
import { t } from '../i18n';
import type { ActingOperator } from './operator-prompt';

interface NotificationsStore {
  /** The preferences shown: whose, what, and whether they are still their role's defaults. */
  readonly view: NotificationPreferencesView | null;
  readonly error: ContractError | null;
  /** null until the desktop answered. */
  readonly keepRunningInTray: boolean | null;
  load(operator: string): Promise<void>;
  /** Saves `preferences` as the acting operator's own; refused when the acting operator is not the one shown. */
  save(operator: string, preferences: NotificationPreferences, as: ActingOperator): Promise<Result<NotificationPreferencesView>>;
  loadDesktop(): Promise<void>;
  setKeepRunningInTray(keep: boolean): Promise<Result<unknown>>;
}

export const useNotificationsStore = create<NotificationsStore>()((set, get) => ({
  view: null,
  error: null,
  keepRunningInTray: null,
  async load(operator) {
    const result = await call('notifications/preferences', { operator });
    if (result.ok) set({ view: result.value, error: null });
    else set({ view: null, error: result.error });
  },
  async save(operator, preferences, as) {
    if (as.operator.trim().toLowerCase() !== operator.toLowerCase()) {
      return {
        ok: false,
        error: { code: 'forbidden', message: t('settings.notifications.notOwn', { operator }) },
      };
    }
    const result = await call('notifications/setPreferences', { preferences, as });
    if (result.ok) set({ view: result.value, error: null });
    return result;
  },
  async loadDesktop() {
    const result = await call('desktop/preferences', {});
    if (result.ok) set({ keepRunningInTray: result.value.keepRunningInTray });
  },
  async setKeepRunningInTray(keep) {
    // The box follows the click at once; a refusal puts it back.
    const before = get().keepRunningInTray;
    set({ keepRunningInTray: keep });
    const result = await call('desktop/setPreferences', { keepRunningInTray: keep });
    set({ keepRunningInTray: result.ok ? result.value.keepRunningInTray : before });
    return result;
  },
}));
