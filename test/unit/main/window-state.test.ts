// The main window's place across restarts, with a fake window: restored where enough of it is on a display still
// connected (shrunk and moved fully onto it), else the default size placed by the OS; saved after moves and resizes
// settle and at once on close; never saved minimized or full screen; a failing save never breaks the window.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { WindowBounds } from '../../../electron/main/desktop-preferences';
import { keepWindowState, restoreWindowPlacement, SAVE_DELAY_MS, windowStateOf, type Rectangle, type TrackedWindow } from '../../../electron/main/window-state';

const DEFAULTS = { width: 1280, height: 840 };
const LAPTOP: Rectangle = { x: 0, y: 0, width: 1440, height: 875 };
const RIGHT_MONITOR: Rectangle = { x: 1440, y: -200, width: 2560, height: 1400 };

function saved(x: number, y: number, width = 1200, height = 800, maximized = false): WindowBounds {
  return { x, y, width, height, maximized };
}

describe('restoreWindowPlacement', () => {
  it('uses the default size, placed by the OS, when nothing was saved', () => {
    expect(restoreWindowPlacement(null, [LAPTOP], DEFAULTS)).toEqual({ width: 1280, height: 840, maximized: false });
  });

  it('puts the window back where it was when that is on a connected display', () => {
    expect(restoreWindowPlacement(saved(100, 40), [LAPTOP, RIGHT_MONITOR], DEFAULTS)).toEqual({ x: 100, y: 40, width: 1200, height: 800, maximized: false });
    expect(restoreWindowPlacement(saved(2000, -100, 1600, 1000, true), [LAPTOP, RIGHT_MONITOR], DEFAULTS)).toEqual({ x: 2000, y: -100, width: 1600, height: 1000, maximized: true });
  });

  it('falls back to the default size when its display is gone, keeping "maximized"', () => {
    expect(restoreWindowPlacement(saved(2000, 100, 1600, 1000, true), [LAPTOP], DEFAULTS)).toEqual({ width: 1280, height: 840, maximized: true });
    expect(restoreWindowPlacement(saved(-5000, -5000), [LAPTOP], DEFAULTS)).toEqual({ width: 1280, height: 840, maximized: false });
    expect(restoreWindowPlacement(saved(100, 100), [], DEFAULTS)).toEqual({ width: 1280, height: 840, maximized: false });
  });

  it('does not count a sliver on a display as being on it', () => {
    // Only 100 px of its width (less than a title bar's worth) would show on the laptop.
    expect(restoreWindowPlacement(saved(1340, 100), [LAPTOP], DEFAULTS)).toEqual({ width: 1280, height: 840, maximized: false });
  });

  it('moves a window that hangs off its display fully onto it, and shrinks one larger than it', () => {
    expect(restoreWindowPlacement(saved(900, 500), [LAPTOP], DEFAULTS)).toEqual({ x: 240, y: 75, width: 1200, height: 800, maximized: false });
    expect(restoreWindowPlacement(saved(-300, -50, 2000, 1200), [LAPTOP], DEFAULTS)).toEqual({ x: 0, y: 0, width: 1440, height: 875, maximized: false });
  });

  it('chooses the display that shows most of it', () => {
    // Mostly on the right monitor, a little on the laptop: it goes to the right monitor.
    expect(restoreWindowPlacement(saved(1200, 100, 1200, 800), [LAPTOP, RIGHT_MONITOR], DEFAULTS)).toEqual({ x: 1440, y: 100, width: 1200, height: 800, maximized: false });
  });
});

class FakeWindow extends EventEmitter implements TrackedWindow {
  bounds: Rectangle = { x: 10, y: 20, width: 1000, height: 700 };
  maximized = false;
  minimized = false;
  fullScreen = false;
  destroyed = false;
  getNormalBounds(): Rectangle {
    return this.bounds;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isFullScreen(): boolean {
    return this.fullScreen;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

function kept(save: (state: WindowBounds) => void = vi.fn()) {
  const window = new FakeWindow();
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  keepWindowState(window, {
    save,
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const fire = (): void => {
    for (const timer of timers.filter((entry) => !entry.cleared)) {
      timer.cleared = true;
      timer.run();
    }
  };
  return { window, timers, fire };
}

describe('keepWindowState', () => {
  it('saves once the moving and resizing stop, the normal bounds in whole pixels and whether it is maximized', () => {
    const save = vi.fn();
    const { window, timers, fire } = kept(save);
    window.bounds = { x: 12.4, y: 30.6, width: 1100.2, height: 720 };
    window.emit('move');
    window.emit('resize');
    window.emit('resize');
    expect(save).not.toHaveBeenCalled();
    expect(timers.filter((timer) => !timer.cleared)).toHaveLength(1);
    expect(timers[0]?.ms).toBe(SAVE_DELAY_MS);
    fire();
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ x: 12, y: 31, width: 1100, height: 720, maximized: false });
    window.maximized = true;
    window.emit('maximize');
    fire();
    expect(save).toHaveBeenLastCalledWith({ x: 12, y: 31, width: 1100, height: 720, maximized: true });
  });

  it('saves at once on close, dropping a pending save', () => {
    const save = vi.fn();
    const { window, timers } = kept(save);
    window.emit('resize');
    window.emit('close');
    expect(save).toHaveBeenCalledTimes(1);
    expect(timers.every((timer) => timer.cleared)).toBe(true);
  });

  it('never keeps a minimized, full-screen or destroyed window\'s place', () => {
    const save = vi.fn();
    const { window, fire } = kept(save);
    window.minimized = true;
    window.emit('move');
    fire();
    window.minimized = false;
    window.fullScreen = true;
    window.emit('resize');
    fire();
    window.fullScreen = false;
    window.destroyed = true;
    window.emit('close');
    expect(save).not.toHaveBeenCalled();
  });

  it('carries on when saving fails (a read-only data folder)', () => {
    const save = vi.fn(() => {
      throw new Error('EROFS');
    });
    const { window, fire } = kept(save);
    window.emit('resize');
    expect(() => fire()).not.toThrow();
    expect(() => window.emit('close')).not.toThrow();
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('reads the state of a window', () => {
    const window = new FakeWindow();
    window.maximized = true;
    expect(windowStateOf(window)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true });
  });
});
