// The DesktopShell of the app: Electron's clipboard, file dialogs (attached to the focused window) and shell. Only
// https links are opened, and only those desktop-handlers.ts built from the explorer table.
import type { BrowserWindow, Clipboard, Dialog, OpenDialogOptions, SaveDialogOptions, Shell } from 'electron';
import type { DesktopShell } from './desktop-handlers';

export interface ElectronDesktopParts {
  readonly clipboard: Pick<Clipboard, 'writeText'>;
  readonly dialog: Pick<Dialog, 'showSaveDialog' | 'showOpenDialog'>;
  readonly shell: Pick<Shell, 'openExternal'>;
  /** The window dialogs attach to (the focused one, else the main window), or undefined. */
  readonly parentWindow: () => BrowserWindow | undefined;
  /** The folder a save dialog starts in (Electron's app.getPath('documents')). */
  readonly startFolder: () => string;
}

export function electronDesktopShell(parts: ElectronDesktopParts): DesktopShell {
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
      if (!url.startsWith('https://')) throw new Error('only https links are opened');
      await parts.shell.openExternal(url);
    },
  };
}
