// The app menu's template on each platform, with Electron stubbed (the template is plain data): the standard roles,
// reload and DevTools only from a checkout, no link anywhere (Electron's default menu has electronjs.org ones), one
// Go item per screen, accelerators that collide with nothing (the roles' own included), accelerators shown but not
// registered off macOS (the window handles the keys), and the items' actions reaching the window and the engine.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { ok, SCREENS, SCREEN_SHORT_NAMES, type ContractEvent } from '../../../electron/contract';
import { aboutPanelOptions, appMenuTemplate, deskMenuActions, type AppMenuActions } from '../../../electron/main/app-menu';

const PLATFORMS = ['darwin', 'linux', 'win32'] as const;
type Item = MenuItemConstructorOptions;

function template(platform: NodeJS.Platform, isPackaged = true, actions: AppMenuActions = { run: vi.fn() }): Item[] {
  return appMenuTemplate({ platform, isPackaged, appName: 'Treasury Desk', actions });
}

function all(items: readonly Item[]): Item[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? all(item.submenu) : [])]);
}

function roles(items: readonly Item[]): string[] {
  return all(items).flatMap((item) => (item.role === undefined ? [] : [item.role]));
}

function menu(items: readonly Item[], label: string): Item[] {
  const found = items.find((item) => item.label === label || item.role === label);
  if (!Array.isArray(found?.submenu)) throw new Error(`no ${label} menu`);
  return found.submenu;
}

/** Electron's default accelerators of the roles used (docs/api/menu-item.md), per platform. */
function roleAccelerator(role: string, platform: NodeJS.Platform): string | null {
  const mac = platform === 'darwin';
  const table: Record<string, string | null> = {
    undo: 'CmdOrCtrl+Z',
    redo: mac ? 'Shift+CmdOrCtrl+Z' : platform === 'win32' ? 'Control+Y' : 'Shift+Control+Z',
    cut: 'CmdOrCtrl+X',
    copy: 'CmdOrCtrl+C',
    paste: 'CmdOrCtrl+V',
    selectAll: 'CmdOrCtrl+A',
    reload: 'CmdOrCtrl+R',
    toggleDevTools: mac ? 'Alt+Command+I' : 'Ctrl+Shift+I',
    resetZoom: 'CmdOrCtrl+0',
    zoomIn: 'CmdOrCtrl+Plus',
    zoomOut: 'CmdOrCtrl+-',
    togglefullscreen: mac ? 'Control+Command+F' : 'F11',
    minimize: 'CmdOrCtrl+M',
    close: 'CmdOrCtrl+W',
    quit: mac ? 'CmdOrCtrl+Q' : 'Control+Q',
    hide: 'Command+H',
    hideOthers: 'Command+Alt+H',
  };
  return table[role] ?? null;
}

/** One spelling per key combination: CmdOrCtrl resolved for the platform, modifiers sorted. */
function normalized(accelerator: string, platform: NodeJS.Platform): string {
  const parts = accelerator.split('+');
  const key = (parts.pop() ?? '').toLowerCase();
  const modifiers = parts
    .map((part) => (part === 'CmdOrCtrl' ? (platform === 'darwin' ? 'Command' : 'Control') : part === 'Ctrl' ? 'Control' : part))
    .sort();
  return [...modifiers, key].join('+');
}

describe.each(PLATFORMS)('the app menu on %s', (platform) => {
  const mac = platform === 'darwin';

  it('has the standard roles, About in the right place, and File ends with Quit (Close on macOS, where the app menu quits)', () => {
    const items = template(platform);
    const present = roles(items);
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'minimize', 'about', 'quit', 'window']) {
      expect(present, role).toContain(role);
    }
    expect(present.filter((role) => role === 'about')).toHaveLength(1);
    expect(menu(items, 'File').at(-1)?.role).toBe(mac ? 'close' : 'quit');
    if (mac) {
      expect(items[0]?.label).toBe('Treasury Desk');
      expect(roles([items[0] as Item])).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
      expect(present).not.toContain('help');
    } else {
      expect(menu(items, 'help').map((item) => item.role)).toEqual(['about']);
    }
  });

  it('offers reload and the developer tools only from a checkout', () => {
    expect(roles(template(platform, true))).not.toEqual(expect.arrayContaining(['reload']));
    expect(roles(template(platform, true))).not.toContain('toggleDevTools');
    expect(roles(template(platform, false))).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    expect(roles(template(platform, false))).not.toContain('forceReload');
  });

  it('links nowhere: no URL and no electronjs.org in any item', () => {
    for (const isPackaged of [true, false]) {
      const text = JSON.stringify(template(platform, isPackaged));
      expect(text).not.toMatch(/electron(js)?\.org|https?:|www\./i);
      expect(all(template(platform, isPackaged)).map((item) => item.label ?? '')).not.toContain('Learn More');
    }
  });

  it('has a Go menu with every screen in the side navigation\'s order, the first nine on Cmd/Ctrl+1…9', () => {
    const go = menu(template(platform), 'Go');
    expect(go.map((item) => item.label)).toEqual(SCREENS.map((screen) => SCREEN_SHORT_NAMES[screen]));
    expect(go.map((item) => item.accelerator)).toEqual(SCREENS.map((_, index) => (index < 9 ? `CmdOrCtrl+${index + 1}` : undefined)));
  });

  it('gives no two items the same key combination, roles\' default accelerators included', () => {
    for (const isPackaged of [true, false]) {
      const combos = all(template(platform, isPackaged)).flatMap((item) => {
        const accelerator = item.accelerator ?? (item.role === undefined ? null : roleAccelerator(item.role, platform));
        return accelerator === null || accelerator === undefined ? [] : [normalized(String(accelerator), platform)];
      });
      expect(combos.length).toBeGreaterThan(15);
      expect(new Set(combos).size, combos.join(' ')).toBe(combos.length);
    }
  });

  it(mac ? 'registers the desk shortcuts as key equivalents (performed only for keys the page left unhandled)' : 'shows the desk shortcuts without registering them (the window handles them)', () => {
    const desk = all(template(platform)).filter((item) => item.click !== undefined);
    expect(desk.map((item) => item.label)).toEqual([
      'Sync now',
      'Lock the desk',
      'Search',
      ...SCREENS.map((screen) => SCREEN_SHORT_NAMES[screen]),
    ]);
    // The screens past the ninth (Settings, Connection) have no shortcut: nothing to show or register.
    for (const item of desk) expect(item.registerAccelerator).toBe(mac || item.accelerator === undefined ? undefined : false);
    expect(desk.filter((item) => item.accelerator === undefined).map((item) => item.label)).toEqual([SCREEN_SHORT_NAMES.settings, SCREEN_SHORT_NAMES.profiles]);
  });

  it('runs the desk command of the item clicked', () => {
    const run = vi.fn();
    const items = template(platform, true, { run });
    const click = (menuLabel: string, label: string): void => {
      const item = menu(items, menuLabel).find((entry) => entry.label === label);
      (item?.click as (() => void) | undefined)?.();
    };
    click('Go', 'Withdrawals');
    click('Edit', 'Search');
    click('File', 'Sync now');
    click('File', 'Lock the desk');
    expect(run.mock.calls.map(([command]) => command)).toEqual([{ kind: 'navigate', screen: 'withdrawals' }, { kind: 'focusSearch' }, { kind: 'syncNow' }, { kind: 'lock' }]);
  });
});

describe('the desk menu actions', () => {
  it('ask the window to show a screen or focus search (bringing it forward), and the engine to sync or lock', async () => {
    const sent: ContractEvent[] = [];
    const showWindow = vi.fn();
    const engine = { 'session/lock': vi.fn(async () => ok({} as never)), 'sync/run': vi.fn(async () => ok({} as never)) };
    const actions = deskMenuActions({ send: (event) => sent.push(event), showWindow, engine });
    actions.run({ kind: 'navigate', screen: 'audit' });
    actions.run({ kind: 'focusSearch' });
    expect(sent).toEqual([{ type: 'desktop/navigate', screen: 'audit' }, { type: 'desktop/focusSearch' }]);
    expect(showWindow).toHaveBeenCalledTimes(2);
    actions.run({ kind: 'syncNow' });
    actions.run({ kind: 'lock' });
    expect(engine['sync/run']).toHaveBeenCalledWith({});
    expect(engine['session/lock']).toHaveBeenCalledWith({});
    expect(sent).toHaveLength(2);
  });
});

describe('the About panel', () => {
  it('names the app, its version and runtime, with no website', () => {
    const options = aboutPanelOptions('Treasury Desk', '1.2.3', { electron: '45.4.1', chrome: '142.0', node: '22.20.0' }, '/opt/td/icon.png');
    expect(options).toMatchObject({ applicationName: 'Treasury Desk', applicationVersion: '1.2.3', version: 'Electron 45.4.1, Chromium 142.0, Node 22.20.0', iconPath: '/opt/td/icon.png' });
    expect(options).not.toHaveProperty('website');
    expect(aboutPanelOptions('Treasury Desk', '1.2.3', {})).not.toHaveProperty('iconPath');
  });
});
