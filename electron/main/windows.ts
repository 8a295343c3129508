// The app's windows: the main window's frame, and the registry IPC uses to tell our web contents from anything else.
import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';

/** Size and look of the main window (hidden until ready-to-show); its webPreferences are set where it is created. */
export const MAIN_WINDOW_FRAME = Object.freeze({
  width: 1280,
  height: 840,
  minWidth: 960,
  minHeight: 640,
  show: false,
  title: 'Treasury Desk',
  backgroundColor: '#ffffff',
} satisfies BrowserWindowConstructorOptions);

/** What the registry needs of a window (a BrowserWindow, or a test fake). */
export interface RegisteredWindow {
  isDestroyed(): boolean;
  once(event: 'closed', listener: () => void): unknown;
  readonly webContents: Pick<WebContents, 'id'>;
}

/** The windows this app created; a web contents is "ours" only while its window is registered and alive. */
export class WindowRegistry<W extends RegisteredWindow = BrowserWindow> {
  readonly #windows = new Set<W>();

  add(window: W): W {
    this.#windows.add(window);
    window.once('closed', () => this.#windows.delete(window));
    return window;
  }

  all(): W[] {
    return [...this.#windows].filter((window) => !window.isDestroyed());
  }

  first(): W | undefined {
    return this.all()[0];
  }

  owns(contents: Pick<WebContents, 'id'>): boolean {
    return this.all().some((window) => window.webContents.id === contents.id);
  }
}
