// The tray and the badge (electron/main/tray.ts, badge.ts) over fake Electron pieces: the tooltip and the first menu
// line say how many approvals wait for the operator signed in here; the menu's Open, Lock, Sync now and Quit (and a
// click on the icon) call their actions; a desktop without a tray gives none, and then closing the last window quits
// even when the workstation keeps Treasury Desk in the tray; the icon file is a 32x32 PNG where the app looks for it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { appLog } from '../../../electron/core/log';
import { showApprovalsOnBadge } from '../../../electron/main/badge';
import { createDeskTray, quitsWhenLastWindowCloses, trayIconPath, trayTooltip, type TrayIcon } from '../../../electron/main/tray';

class FakeTray implements TrayIcon {
  tooltip = '';
  menu: MenuItemConstructorOptions[] = [];
  readonly listeners = new Map<string, () => void>();
  destroyed = false;
  constructor(readonly iconPath: string) {}
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: never): void {
    this.menu = menu;
  }
  on(event: 'click', listener: () => void): this {
    this.listeners.set(event, listener);
    return this;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

function setup() {
  const actions = { open: vi.fn(), lock: vi.fn(), syncNow: vi.fn(), quit: vi.fn() };
  let made: FakeTray | undefined;
  const tray = createDeskTray(
    {
      createTray: (iconPath) => (made = new FakeTray(iconPath)),
      // The fake menu is the template itself, so the test can read and click its items.
      buildMenu: (template) => template,
    },
    actions,
    '/app/resources/tray.png',
  );
  if (tray === null || made === undefined) throw new Error('no tray');
  return { tray, fake: made, actions };
}

const item = (menu: MenuItemConstructorOptions[], id: string): MenuItemConstructorOptions => {
  const found = menu.find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no menu item ${id}`);
  return found;
};

describe('the tray', () => {
  it('opens with nobody signed in, then shows the count for the operator signed in here', () => {
    const { tray, fake } = setup();
    expect(fake.iconPath).toBe('/app/resources/tray.png');
    expect(fake.tooltip).toBe('Treasury Desk: No operator signed in at this workstation');
    tray.showApprovals(2, 'bob');
    expect(fake.tooltip).toBe('Treasury Desk: 2 approvals waiting for bob');
    expect(item(fake.menu, 'approvals')).toMatchObject({ label: '2 approvals waiting for bob', enabled: false });
    tray.showApprovals(1, 'bob');
    expect(item(fake.menu, 'approvals').label).toBe('1 approval waiting for bob');
    tray.showApprovals(0, 'alice');
    expect(fake.tooltip).toBe(trayTooltip(0, 'alice'));
    expect(fake.tooltip).toBe('Treasury Desk: No approvals waiting for alice');
    tray.destroy();
    expect(fake.destroyed).toBe(true);
  });

  it('Open, Lock, Sync now and Quit call their actions; clicking the icon opens the window', () => {
    const { fake, actions } = setup();
    expect(fake.menu.filter((entry) => entry.type !== 'separator').map((entry) => entry.label)).toEqual([
      'No operator signed in at this workstation',
      'Open Treasury Desk',
      'Lock',
      'Sync now',
      'Quit',
    ]);
    const click = (id: string): void => (item(fake.menu, id).click as () => void)();
    click('open');
    click('lock');
    click('sync');
    expect([actions.open.mock.calls.length, actions.lock.mock.calls.length, actions.syncNow.mock.calls.length, actions.quit.mock.calls.length]).toEqual([1, 1, 1, 0]);
    click('quit');
    expect(actions.quit).toHaveBeenCalledTimes(1);
    fake.listeners.get('click')?.();
    expect(actions.open).toHaveBeenCalledTimes(2);
  });

  it('is absent where the desktop has none, and says so once', () => {
    const warn = vi.spyOn(appLog, 'warn').mockImplementation(() => undefined);
    const tray = createDeskTray(
      {
        createTray: () => {
          throw new Error('no StatusNotifier host');
        },
        buildMenu: (template) => template,
      },
      { open: vi.fn(), lock: vi.fn(), syncNow: vi.fn(), quit: vi.fn() },
      '/x/tray.png',
    );
    expect(tray).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('tray: no tray icon on this desktop; closing the window quits', { error: new Error('no StatusNotifier host') });
    warn.mockRestore();
  });
});

describe('closing the last window', () => {
  it('quits unless the workstation keeps Treasury Desk in the tray and there is a tray to come back from', () => {
    expect(quitsWhenLastWindowCloses({ keepRunningInTray: false }, true)).toBe(true);
    expect(quitsWhenLastWindowCloses({ keepRunningInTray: true }, true)).toBe(false);
    expect(quitsWhenLastWindowCloses({ keepRunningInTray: true }, false)).toBe(true);
  });
});

describe('the badge', () => {
  it('shows the count, clears at zero, and a desktop without badges is no error', () => {
    const app = { setBadgeCount: vi.fn((_count?: number) => true) };
    expect(showApprovalsOnBadge(app, 3)).toBe(true);
    expect(showApprovalsOnBadge(app, 0)).toBe(true);
    expect(showApprovalsOnBadge(app, -2)).toBe(true);
    expect(app.setBadgeCount.mock.calls).toEqual([[3], [0], [0]]);
    const without = {
      setBadgeCount: vi.fn((): boolean => {
        throw new Error('unsupported');
      }),
    };
    expect(showApprovalsOnBadge(without, 1)).toBe(false);
  });
});

describe('the icon file', () => {
  it('is where the app looks: resources/ in a checkout, beside the packaged app otherwise; a 32x32 RGBA PNG', () => {
    const root = resolve(import.meta.dirname, '../../..');
    expect(trayIconPath({ isPackaged: false, resourcesPath: '/opt/td/resources', appPath: root })).toBe(resolve(root, 'resources/tray.png'));
    expect(trayIconPath({ isPackaged: true, resourcesPath: '/opt/td/resources', appPath: '/opt/td/resources/app.asar' })).toBe('/opt/td/resources/tray.png');
    const png = readFileSync(resolve(root, 'resources/tray.png'));
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([32, 32, 8, 6]);
    // The packaged app ships it beside itself.
    expect(readFileSync(resolve(root, 'electron-builder.yml'), 'utf8')).toMatch(/extraResources:[^]*- from: resources\/tray\.png\s*\n\s*to: tray\.png/);
  });
});
