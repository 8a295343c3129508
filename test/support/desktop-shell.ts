// Test support: a DesktopShell that does nothing and answers every dialog with "cancelled", with any primitive
// replaced by the test; and preferences that stay at their defaults.
import type { DesktopShell } from '../../electron/main/desktop-handlers';
import { DEFAULT_DESKTOP_PREFERENCES, type DesktopPreferencesStore } from '../../electron/main/desktop-preferences';

export function silentDesktopShell(overrides: Partial<DesktopShell> = {}): DesktopShell {
  return {
    writeClipboardText: () => undefined,
    showSaveDialog: async () => null,
    showOpenDialog: async () => null,
    openExternal: async () => undefined,
    showNotification: () => undefined,
    showMainWindow: () => undefined,
    printHtmlToPdf: async () => new Uint8Array(),
    ...overrides,
  };
}

export const DEFAULT_PREFERENCES_STORE: DesktopPreferencesStore = { read: () => DEFAULT_DESKTOP_PREFERENCES, update: () => DEFAULT_DESKTOP_PREFERENCES };
