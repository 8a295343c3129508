// The app's own command line (before any window): `--version` or -V print the version and exit; anything after `--`
// or any other switch runs the desk, but --no-sandbox is refused; the version line names the app and its runtime.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appLaunchOf, NO_SANDBOX_REFUSAL, versionText } from '../../../electron/main/command-line';
import { WINDOW_BACKGROUND, windowBackground, windowIconPath } from '../../../electron/main/windows';

describe('appLaunchOf', () => {
  it('answers the version for --version or -V anywhere among the switches', () => {
    expect(appLaunchOf(['/opt/Treasury Desk/treasury-desk', '--version'])).toEqual({ kind: 'version' });
    expect(appLaunchOf(['electron', '.', '--enable-logging', '-V'])).toEqual({ kind: 'version' });
  });

  it('runs the desk otherwise, and after `--` nothing is a switch', () => {
    expect(appLaunchOf(['treasury-desk'])).toEqual({ kind: 'run' });
    expect(appLaunchOf(['treasury-desk', '--enable-logging', '--versions'])).toEqual({ kind: 'run' });
    expect(appLaunchOf(['treasury-desk', '--', '--version'])).toEqual({ kind: 'run' });
    expect(appLaunchOf(['treasury-desk', '--', '--no-sandbox'])).toEqual({ kind: 'run' });
    // The executable's own path is never read as a switch.
    expect(appLaunchOf(['--version'])).toEqual({ kind: 'run' });
  });
});

describe('the sandbox', () => {
  it('refuses --no-sandbox, from argv or on Chromium\'s command line by any other way, saying what to do instead', () => {
    for (const launch of [appLaunchOf(['/opt/Treasury Desk/treasury-desk', '--no-sandbox']), appLaunchOf(['electron', '.', '--no-sandbox=1']), appLaunchOf(['treasury-desk'], true)]) {
      expect(launch).toEqual({ kind: 'unsandboxed', message: NO_SANDBOX_REFUSAL });
    }
    expect(NO_SANDBOX_REFUSAL).toContain('Start it without --no-sandbox');
    expect(NO_SANDBOX_REFUSAL).toContain('AppArmor profile');
  });
});

describe('versionText', () => {
  it('names the app, its version (package.json) and the runtime on one line', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(versionText('Treasury Desk', version, { electron: '45.4.1', chrome: '142.0.7444.59', node: '22.20.0' })).toBe(
      `Treasury Desk ${version} (Electron 45.4.1, Chromium 142.0.7444.59, Node 22.20.0)\n`,
    );
    expect(versionText('Treasury Desk', '1.0.0', {})).toBe('Treasury Desk 1.0.0 (Electron ?, Chromium ?, Node ?)\n');
  });
});

describe('the window frame', () => {
  it('has the page background of each theme (styles.css --bg), so loading never flashes the other one', () => {
    const css = readFileSync(new URL('../../../renderer/src/styles.css', import.meta.url), 'utf8');
    const dark = css.slice(css.indexOf('@media (prefers-color-scheme: dark)'));
    expect(/--bg: (#[0-9a-f]{6});/.exec(css)?.[1]).toBe(WINDOW_BACKGROUND.light);
    expect(/--bg: (#[0-9a-f]{6});/.exec(dark)?.[1]).toBe(WINDOW_BACKGROUND.dark);
    expect(windowBackground(true)).toBe(WINDOW_BACKGROUND.dark);
    expect(windowBackground(false)).toBe(WINDOW_BACKGROUND.light);
  });

  it('takes its icon from resources/ on Linux only (beside app.asar when packaged)', () => {
    const paths = { resourcesPath: '/opt/Treasury Desk/resources', appPath: '/home/me/treasury-desk' };
    expect(windowIconPath({ platform: 'linux', isPackaged: true, ...paths })).toBe('/opt/Treasury Desk/resources/icon.png');
    expect(windowIconPath({ platform: 'linux', isPackaged: false, ...paths })).toBe('/home/me/treasury-desk/resources/icon.png');
    expect(windowIconPath({ platform: 'win32', isPackaged: true, ...paths })).toBeUndefined();
    expect(windowIconPath({ platform: 'darwin', isPackaged: true, ...paths })).toBeUndefined();
  });
});
