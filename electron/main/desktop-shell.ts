// The DesktopShell of the app: Electron's clipboard, file dialogs (attached to the focused window), shell, system
// notifications and the main window. Links are opened only through openExternalSafely (https, allow-listed explorer
// hosts), whatever built them.
import type { BrowserWindow, Clipboard, Dialog, NotificationConstructorOptions, OpenDialogOptions, SaveDialogOptions, Shell } from 'electron';
import type { DesktopShell } from './desktop-handlers';
import { printHtmlToPdf, type PrintWindow } from './print-to-pdf';
import { openExternalSafely } from './security';

/** The part of an Electron Notification the shell uses. */
export interface SystemNotification {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

/**
 * A notice's body as the system's notifications show it. Linux notification servers read the body as markup
 * (freedesktop notification spec: <b>, <a href>, <img>, entities), so text from people or the network could restyle
 * the notice, add a link or hide itself: there, `&`, `<` and `>` are sent as entities and shown as typed.
 */
export function notificationBody(text: string, platform: NodeJS.Platform): string {
  return platform === 'linux' ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}

/**
 * The latest notices stay referenced until clicked: an unreferenced Notification may be collected and its click lost,
 * and a click can come long after the notice left the screen (from the system's notification centre).
 */
export const KEPT_NOTICES = 50;

export interface ElectronDesktopParts {
  readonly clipboard: Pick<Clipboard, 'writeText'>;
  readonly dialog: Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;
  readonly shell: Pick<Shell, 'openExternal'>;
  /** The window dialogs attach to (the focused one, else the main window), or undefined. */
  readonly parentWindow: () => BrowserWindow | undefined;
  /** The folder a save dialog starts in (Electron's app.getPath('documents')). */
  readonly startFolder: () => string;
  /** Electron's Notification (new Notification(options)). */
  readonly createNotification: (options: NotificationConstructorOptions) => SystemNotification;
  /** Shows, restores and focuses the main window, creating it when it was closed. */
  readonly showMainWindow: () => void;
  /** process.platform: how a notice's body must be written (notificationBody). */
  readonly platform: NodeJS.Platform;
  /** A hidden window to print a page in (new BrowserWindow(PRINT_WINDOW_OPTIONS)). */
  readonly createPrintWindow: () => PrintWindow;
}

export function electronDesktopShell(parts: ElectronDesktopParts): DesktopShell {
  const shown = new Set<SystemNotification>();
  return {
    writeClipboardText(text) {
      parts.clipboard.writeText(text);
    },
    async showSaveDialog(request) {
      const options: SaveDialogOptions = {
        title: request.title,
        defaultPath: `${parts.startFolder()}/${request.defaultName}`,
        filters: request.filters.map((filter) => ({ name: filter.name, extensions: [...filter.extensions] })),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const parent = parts.parentWindow();
      const answer = parent === undefined ? await parts.dialog.showSaveDialog(options) : await parts.dialog.showSaveDialog(parent, options);
      return answer.canceled || answer.filePath === undefined || answer.filePath === '' ? null : answer.filePath;
    },
    async showOpenDialog(request) {
      const options: OpenDialogOptions = {
        title: request.title,
        filters: request.filters.map((filter) => ({ name: filter.name, extensions: [...filter.extensions] })),
        properties: ['openFile'],
      };
      const parent = parts.parentWindow();
      const answer = parent === undefined ? await parts.dialog.showOpenDialog(options) : await parts.dialog.showOpenDialog(parent, options);
      return answer.canceled ? null : (answer.filePaths[0] ?? null);
    },
    async openExternal(url) {
      // The same allow-list as links the page itself tries to open (security.ts): https, explorer hosts only.
      if (!(await openExternalSafely(url, parts.shell))) throw new Error('the link is not an allowed explorer link, or the browser did not open');
    },
    showNotification(notice) {
      const notification = parts.createNotification({ title: notice.title, body: notificationBody(notice.body, parts.platform) });
      notification.on('click', () => {
        shown.delete(notification);
        notice.onClick();
      });
      shown.add(notification);
      if (shown.size > KEPT_NOTICES) shown.delete(shown.values().next().value as SystemNotification);
      notification.show();
    },
    showMainWindow() {
      parts.showMainWindow();
    },
    printHtmlToPdf(html) {
      return printHtmlToPdf(parts.createPrintWindow, html);
    },
  };
}
