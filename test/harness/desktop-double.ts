// Test harness only: the DesktopShell double behind the browser harness's desktop methods. It records every request
// (clipboard writes, dialogs with their purpose, links opened) and answers dialogs the way a person would: a save
// dialog picks a fresh file in the harness's own folder, an open dialog picks the file a test queued (or cancels); a
// page is printed to PDF by the harness's Chromium.
// The desktop handlers themselves are the app's (electron/main/desktop-handlers.ts), so e2e covers both sides; so is
// the notifier (electron/main/notifier.ts), whose notices the double records and a test can click, and whose
// approvals count it keeps (apart from the records) as the tray and the badge would show it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractEvent } from '../../electron/contract';
import type { DesktopNotice, DesktopShell, OpenDialogRequest, SaveDialogRequest } from '../../electron/main/desktop-handlers';
import { printHtmlWithChromium } from './chromium';

/** A notice the app would have shown with the system's notifications. */
export interface RecordedNotice {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

export type DesktopRecord =
  | { readonly kind: 'clipboard'; readonly text: string }
  | { readonly kind: 'saveDialog'; readonly request: SaveDialogRequest; readonly answer: string | null }
  | { readonly kind: 'openDialog'; readonly request: OpenDialogRequest; readonly answer: string | null }
  | { readonly kind: 'openExternal'; readonly url: string }
  | { readonly kind: 'notification'; readonly notice: RecordedNotice }
  | { readonly kind: 'showMainWindow' }
  /** A page printed to PDF (its HTML's size in bytes). */
  | { readonly kind: 'printToPdf'; readonly bytes: number };

/** The approvals count the notifier reported, as the tray and the badge would show it. */
export interface RecordedApprovalsCount {
  readonly count: number;
  readonly operator: string | null;
}

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
  /** In the next save dialog the person picks the file type with this extension (one the dialog offers): the name ends in it. */
  chooseNextSaveType(extension: string): void;
  /** The notices shown so far, oldest first. */
  notifications(): RecordedNotice[];
  /** Clicks the notice with this id, as the person would (the notifier shows the window and sends it there). */
  clickNotification(id: string): void;
  /** The notifier's approvals count, as the tray and the badge would show it (kept apart from `records`: no shell call). */
  recordApprovalsWaiting(count: number, operator: string | null): void;
  /** Every count reported so far, oldest first. */
  approvalsWaiting(): readonly RecordedApprovalsCount[];
  /** Events the shell sends to the windows (desktop/openItem); the harness server forwards them to the page. */
  tellWindows(event: ContractEvent): void;
  onWindowEvent(listener: (event: ContractEvent) => void): () => void;
}

/** A double whose save dialogs pick files in `folder` (created 0700). */
export function createDesktopDouble(folder: string): DesktopDouble {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const records: DesktopRecord[] = [];
  const openAnswers: Array<string | null> = [];
  let cancelSave = false;
  let saveType: string | null = null;
  let saved = 0;
  const notices = new Map<string, DesktopNotice>();
  const counts: RecordedApprovalsCount[] = [];
  const windowListeners = new Set<(event: ContractEvent) => void>();
  const shell: DesktopShell = {
    writeClipboardText(text) {
      records.push({ kind: 'clipboard', text });
    },
    async showSaveDialog(request) {
      saved += 1;
      const chosen = saveType;
      saveType = null;
      if (chosen !== null && !request.filters.some((filter) => filter.extensions.includes(chosen))) throw new Error(`the save dialog offers no .${chosen} type`);
      const name = chosen === null ? request.defaultName : request.defaultName.replace(/\.[^.]+$/, `.${chosen}`);
      const answer = cancelSave ? null : join(folder, `${saved}-${name}`);
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
    showNotification(notice) {
      notices.set(notice.id, notice);
      records.push({ kind: 'notification', notice: { id: notice.id, title: notice.title, body: notice.body } });
    },
    showMainWindow() {
      records.push({ kind: 'showMainWindow' });
    },
    async printHtmlToPdf(html) {
      records.push({ kind: 'printToPdf', bytes: Buffer.byteLength(html) });
      return printHtmlWithChromium(html);
    },
  };
  return {
    shell,
    records,
    clipboardText() {
      const last = records.filter((record) => record.kind === 'clipboard').at(-1);
      return last === undefined ? null : last.text;
    },
    chooseNextSaveType(extension) {
      saveType = extension;
    },
    answerNextOpenDialog(path) {
      openAnswers.push(path);
    },
    cancelNextSaveDialog() {
      cancelSave = true;
    },
    notifications() {
      return records.flatMap((record) => (record.kind === 'notification' ? [record.notice] : []));
    },
    clickNotification(id) {
      const notice = notices.get(id);
      if (notice === undefined) throw new Error(`no notification ${id} was shown`);
      notice.onClick();
    },
    recordApprovalsWaiting(count, operator) {
      counts.push({ count, operator });
    },
    approvalsWaiting() {
      return counts;
    },
    tellWindows(event) {
      for (const listener of windowListeners) listener(event);
    },
    onWindowEvent(listener) {
      windowListeners.add(listener);
      return () => windowListeners.delete(listener);
    },
  };
}
