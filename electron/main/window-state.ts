// The main window's size, position and maximized state kept across restarts (in desktop-preferences.json): restored
// only where enough of it lands on a display that is still connected (else the default size, placed by the OS), capped
// to that display; saved a moment after the person stops moving or resizing it, and at once when it closes.
import type { WindowBounds } from './desktop-preferences';

export interface Rectangle {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Where to open the window: x and y only when restoring a saved place (the OS centres a new window). */
export interface WindowPlacement {
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
}

/** A saved window counts as on a display when at least this much of it (px) is inside that display's work area. */
const MIN_VISIBLE_WIDTH = 160;
const MIN_VISIBLE_HEIGHT = 100;
/** How long after the last move or resize the state is written. */
export const SAVE_DELAY_MS = 750;

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/**
 * The placement for a saved state and the displays connected now (their work areas). The display showing most of the
 * saved window wins; the window is shrunk to fit it and moved fully onto it. No display shows enough of it (a monitor
 * was unplugged, the resolution dropped): the default size, and the OS picks the place.
 */
export function restoreWindowPlacement(saved: WindowBounds | null, workAreas: readonly Rectangle[], defaults: { readonly width: number; readonly height: number }): WindowPlacement {
  const fallback: WindowPlacement = { width: defaults.width, height: defaults.height, maximized: saved?.maximized ?? false };
  if (saved === null) return fallback;
  let best: { area: Rectangle; shown: number } | null = null;
  for (const area of workAreas) {
    const shared = overlap(saved, area);
    if (shared.width < MIN_VISIBLE_WIDTH || shared.height < MIN_VISIBLE_HEIGHT) continue;
    const shown = shared.width * shared.height;
    if (best === null || shown > best.shown) best = { area, shown };
  }
  if (best === null) return fallback;
  const { area } = best;
  const width = Math.min(saved.width, area.width);
  const height = Math.min(saved.height, area.height);
  return {
    x: clamp(saved.x, area.x, area.x + area.width - width),
    y: clamp(saved.y, area.y, area.y + area.height - height),
    width,
    height,
    maximized: saved.maximized,
  };
}

/** What the window tells about itself (a BrowserWindow, or a test double). */
export interface TrackedWindow {
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isFullScreen(): boolean;
  isDestroyed(): boolean;
}

/** The state to keep: the normal (unmaximized) bounds in whole pixels, and whether it is maximized. */
export function windowStateOf(window: TrackedWindow): WindowBounds {
  const bounds = window.getNormalBounds();
  return {
    x: Math.round(bounds.x),
    y: Math.round(bounds.y),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized: window.isMaximized(),
  };
}

export interface KeepWindowStateOptions {
  readonly save: (state: WindowBounds) => void;
  readonly delayMs?: number;
  readonly setTimer?: (run: () => void, ms: number) => unknown;
  readonly clearTimer?: (timer: unknown) => void;
}

/**
 * Saves the window's state a moment after it stops moving or resizing, and at once when it closes. A minimized or
 * full-screen window is not saved (those are not places to come back to); a failing save is ignored (the next one
 * retries; the preferences file is a convenience, never worth an error dialog).
 */
export function keepWindowState(window: TrackedWindow, options: KeepWindowStateOptions): void {
  const delay = options.delayMs ?? SAVE_DELAY_MS;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let pending: unknown;
  const saveNow = (): void => {
    if (pending !== undefined) clearTimer(pending);
    pending = undefined;
    if (window.isDestroyed() || window.isMinimized() || window.isFullScreen()) return;
    try {
      options.save(windowStateOf(window));
    } catch {
      // A read-only or full disk: the window still works; the next change tries again.
    }
  };
  const saveSoon = (): void => {
    if (pending !== undefined) clearTimer(pending);
    pending = setTimer(saveNow, delay);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event, saveSoon);
  window.on('close', saveNow);
}
