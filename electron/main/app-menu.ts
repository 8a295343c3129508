// The application menu as a pure template (Electron builds it; a test reads it): the standard roles, the desk's own
// commands with the shortcut table's accelerators (contract/shortcuts.ts), About through the native panel, and no
// link anywhere (Electron's default menu points at electronjs.org).
// Keys: the window handles the desk's shortcuts itself (renderer/src/desk-commands.ts), so off macOS the menu only
// shows them (registerAccelerator: false) and on macOS it acts only on a key press the page left unhandled.
import type { MenuItemConstructorOptions } from 'electron';
import type { ContractEvent, TreasuryHandlers } from '../contract';
import { SCREENS, SCREEN_SHORT_NAMES } from '../contract/screens';
import { shortcutFor, type DeskCommand } from '../contract/shortcuts';
import { runtimeText } from './command-line';

/** What the desk's menu items do; main wires them to the window (events) and the engine (lock, sync). */
export interface AppMenuActions {
  run(command: DeskCommand): void;
}

export interface DeskMenuParts {
  /** Sends an event to our windows (the event channel). */
  readonly send: (event: ContractEvent) => void;
  /** Brings the main window forward (or opens it) before it is asked to show something. */
  readonly showWindow: () => void;
  readonly engine: Pick<TreasuryHandlers, 'session/lock' | 'sync/run'>;
}

/**
 * The desk's menu items at work: the window shows a screen or focuses its search box (events); the engine itself
 * locks and syncs, so both work even while the page is busy.
 */
export function deskMenuActions(parts: DeskMenuParts): AppMenuActions {
  return {
    run(command) {
      switch (command.kind) {
        case 'navigate':
          parts.showWindow();
          parts.send({ type: 'desktop/navigate', screen: command.screen });
          return;
        case 'focusSearch':
          parts.showWindow();
          parts.send({ type: 'desktop/focusSearch' });
          return;
        case 'syncNow':
          void parts.engine['sync/run']({});
          return;
        case 'lock':
          void parts.engine['session/lock']({});
          return;
        default: {
          const unknown: never = command;
          return unknown;
        }
      }
    },
  };
}

export interface AppMenuOptions {
  readonly platform: NodeJS.Platform;
  /** Reload and the developer tools only from a checkout, never in the packaged app. */
  readonly isPackaged: boolean;
  readonly appName: string;
  readonly actions: AppMenuActions;
}

/** A menu item running a desk command, showing its shortcut when it has one (a screen's label is its short name). */
function deskItem(command: DeskCommand, options: AppMenuOptions): MenuItemConstructorOptions {
  const shortcut = shortcutFor(command);
  const label = command.kind === 'navigate' ? SCREEN_SHORT_NAMES[command.screen] : shortcut?.label;
  return {
    label,
    ...(shortcut === undefined ? {} : { accelerator: shortcut.accelerator }),
    ...(options.platform === 'darwin' || shortcut === undefined ? {} : { registerAccelerator: false }),
    click: () => options.actions.run(command),
  };
}

export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const screens = SCREENS.map((screen) => deskItem({ kind: 'navigate', screen }, options));
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'services' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    });
  }
  template.push(
    {
      label: 'File',
      submenu: [
        deskItem({ kind: 'syncNow' }, options),
        deskItem({ kind: 'lock' }, options),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        deskItem({ kind: 'focusSearch' }, options),
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(options.isPackaged ? [] : ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] satisfies MenuItemConstructorOptions[])),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: 'Go', submenu: screens },
    {
      role: 'window',
      submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
    },
  );
  // About lives in the app menu on macOS; elsewhere in Help. Never a web link (Electron's default menu has them).
  if (!mac) template.push({ role: 'help', submenu: [{ role: 'about' }] });
  return template;
}

/** The About panel's text (app.setAboutPanelOptions): name, version, copyright, the icon where the OS wants a path; no website. */
export function aboutPanelOptions(appName: string, version: string, versions: Readonly<Record<string, string | undefined>>, iconPath?: string) {
  return {
    ...(iconPath === undefined ? {} : { iconPath }),
    applicationName: appName,
    applicationVersion: version,
    version: runtimeText(versions),
    copyright: 'Copyright © Treasury Desk authors',
    credits: 'A treasury desk for merchants of a custodial crypto payment gateway.',
  };
}
