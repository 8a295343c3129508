// The tray icon: its tooltip and first menu line say how many withdrawal requests wait for the approval of the operator
// signed in here; its menu opens the window, locks the desk, syncs now or quits. Also where the icon file is, and
// whether closing the last window quits (not when the workstation keeps Treasury Desk running in the tray, and the tray
// is there to bring it back). Built over the few Electron pieces it needs, so tests run it with fakes.
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { appLog } from '../core/log';

/** The part of Electron's Tray this uses. */
export interface TrayIcon {
  setToolTip(text: string): void;
  setContextMenu(menu: never): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayParts {
  /** new Tray(icon) with the icon at `iconPath`; throws where the desktop has no tray. */
  readonly createTray: (iconPath: string) => TrayIcon;
  /** Menu.buildFromTemplate. */
  readonly buildMenu: (template: MenuItemConstructorOptions[]) => unknown;
}

export interface TrayActions {
  readonly open: () => void;
  readonly lock: () => void;
  readonly syncNow: () => void;
  readonly quit: () => void;
}

export const TRAY_ICON_FILE = 'tray.png';

/** The icon: shipped beside the packaged app (electron-builder extraResources), from resources/ in a checkout. */
export function trayIconPath(app: { readonly isPackaged: boolean; readonly resourcesPath: string; readonly appPath: string }): string {
  return app.isPackaged ? join(app.resourcesPath, TRAY_ICON_FILE) : join(app.appPath, 'resources', TRAY_ICON_FILE);
}

/** "2 approvals waiting for alice", "No approvals waiting for alice", or that nobody is signed in here. */
export function approvalsLine(count: number, operator: string | null): string {
  if (operator === null) return 'No operator signed in at this workstation';
  if (count === 0) return `No approvals waiting for ${operator}`;
  return `${count} approval${count === 1 ? '' : 's'} waiting for ${operator}`;
}

export function trayTooltip(count: number, operator: string | null): string {
  return `Treasury Desk: ${approvalsLine(count, operator)}`;
}

export function trayMenuTemplate(count: number, operator: string | null, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'approvals', label: approvalsLine(count, operator), enabled: false },
    { type: 'separator' },
    { id: 'open', label: 'Open Treasury Desk', click: () => actions.open() },
    { id: 'lock', label: 'Lock', click: () => actions.lock() },
    { id: 'sync', label: 'Sync now', click: () => actions.syncNow() },
    { type: 'separator' },
    { id: 'quit', label: 'Quit', click: () => actions.quit() },
  ];
}

export interface DeskTray {
  /** Shows the count of approvals waiting for `operator` (tooltip and menu). */
  showApprovals(count: number, operator: string | null): void;
  destroy(): void;
}

/** Creates the tray icon, or answers null (with the reason logged) where the desktop has none. */
export function createDeskTray(parts: TrayParts, actions: TrayActions, iconPath: string): DeskTray | null {
  let tray: TrayIcon;
  try {
    tray = parts.createTray(iconPath);
  } catch (error) {
    appLog.warn('tray: no tray icon on this desktop; closing the window quits', { error });
    return null;
  }
  // A click on the icon itself opens the window (Windows, most Linux trays); the menu has the rest.
  tray.on('click', () => actions.open());
  const show = (count: number, operator: string | null): void => {
    tray.setToolTip(trayTooltip(count, operator));
    tray.setContextMenu(parts.buildMenu(trayMenuTemplate(count, operator, actions)) as never);
  };
  show(0, null);
  return {
    showApprovals: show,
    destroy: () => tray.destroy(),
  };
}

/** Whether closing the last window quits: yes, unless kept running in the tray and the tray is there to come back. */
export function quitsWhenLastWindowCloses(preferences: { readonly keepRunningInTray: boolean }, hasTray: boolean): boolean {
  return !(preferences.keepRunningInTray && hasTray);
}
