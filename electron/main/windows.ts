// The app's windows: the main window's frame (its background in the OS's light or dark theme, its icon on Linux), and
// the registry IPC uses to tell our web contents from anything else.
import { join } from 'node:path';
import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';

/**
 * Size and look of the main window (hidden until ready-to-show); its place comes from window-state.ts, its background
 * from windowBackground, its webPreferences are set where it is created.
 */
export const MAIN_WINDOW_FRAME = Object.freeze({
  width: 1280,
  height: 840,
  minWidth: 960,
  minHeight: 640,
  show: false,
  title: 'Treasury Desk',
} satisfies BrowserWindowConstructorOptions);

/** The page background (styles.css --bg, light and dark), so a window never flashes the other theme while loading. */
export const WINDOW_BACKGROUND = Object.freeze({ light: '#f3f4f6', dark: '#121519' });

export function windowBackground(dark: boolean): string {
  return dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light;
}

/**
 * The window icon file, where the OS takes it from the window: Linux (Windows and macOS take the executable's or the
 * bundle's icon, which electron-builder sets). Packaged: resources/icon.png copied beside app.asar (extraResources);
 * from a checkout: the repository's resources/icon.png.
 */
export function windowIconPath(context: { readonly platform: NodeJS.Platform; readonly isPackaged: boolean; readonly resourcesPath: string; readonly appPath: string }): string | undefined {
  if (context.platform !== 'linux') return undefined;
  return context.isPackaged ? join(context.resourcesPath, 'icon.png') : join(context.appPath, 'resources', 'icon.png');
}

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
