// Test harness only: the DesktopShell double behind the browser harness's desktop methods. It records every request
// (clipboard writes, dialogs with their purpose, links opened) and answers dialogs the way a person would: a save
// dialog picks a fresh file in the harness's own folder, an open dialog picks the file a test queued (or cancels).
// The desktop handlers themselves are the app's (electron/main/desktop-handlers.ts), so e2e covers both sides.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopShell, OpenDialogRequest, SaveDialogRequest } from '../../electron/main/desktop-handlers';

export type DesktopRecord =
  | { readonly kind: 'clipboard'; readonly text: string }
  | { readonly kind: 'saveDialog'; readonly request: SaveDialogRequest; readonly answer: string | null }
  | { readonly kind: 'openDialog'; readonly request: OpenDialogRequest; readonly answer: string | null }
  | { readonly kind: 'openExternal'; readonly url: string };

export interface DesktopDouble {
  readonly shell: DesktopShell;
  /** Everything asked of the desktop, oldest first. */
  readonly records: readonly DesktopRecord[];
  /** The text last put on the clipboard, or null. */
  clipboardText(): string | null;
  /** The next open dialog answers `path` (null: the person cancels). Unqueued open dialogs cancel. */
  answerNextOpenDialog(path: string | null): void;
  /** The next save dialog cancels instead of picking a file. */
  cancelNextSaveDialog(): void;
}

/** A double whose save dialogs pick files in `folder` (created 0700). */
export function createDesktopDouble(folder: string): DesktopDouble {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const records: DesktopRecord[] = [];
  const openAnswers: Array<string | null> = [];
  let cancelSave = false;
  let saved = 0;
  const shell: DesktopShell = {
    writeClipboardText(text) {
      records.push({ kind: 'clipboard', text });
    },
    async showSaveDialog(request) {
      saved += 1;
      const answer = cancelSave ? null : join(folder, `${saved}-${request.defaultName}`);
      cancelSave = false;
      records.push({ kind: 'saveDialog', request, answer });
      return answer;
    },
    async showOpenDialog(request) {
      const answer = openAnswers.shift() ?? null;
      records.push({ kind: 'openDialog', request, answer });
      return answer;
    },
    async openExternal(url) {
      records.push({ kind: 'openExternal', url });
    },
  };
  return {
    shell,
    records,
    clipboardText() {
      const last = records.filter((record) => record.kind === 'clipboard').at(-1);
      return last === undefined ? null : last.text;
    },
    answerNextOpenDialog(path) {
      openAnswers.push(path);
    },
    cancelNextSaveDialog() {
      cancelSave = true;
    },
  };
}
