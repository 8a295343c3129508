// The default database location per OS (XDG on Linux, Application Support on macOS, %APPDATA% on Windows).
import { describe, expect, it } from 'vitest';
import { defaultDatabasePath } from '../../../electron/core/store/paths';

describe('defaultDatabasePath', () => {
  it('uses $XDG_DATA_HOME on Linux, else ~/.local/share, ignoring a relative XDG_DATA_HOME', () => {
    expect(defaultDatabasePath({ HOME: '/home/ann', XDG_DATA_HOME: '/data/ann' }, 'linux')).toBe('/data/ann/treasury-desk/treasury.sqlite');
    expect(defaultDatabasePath({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.local/share/treasury-desk/treasury.sqlite');
    expect(defaultDatabasePath({ HOME: '/home/ann', XDG_DATA_HOME: 'relative/dir' }, 'linux')).toBe('/home/ann/.local/share/treasury-desk/treasury.sqlite');
    expect(defaultDatabasePath({ HOME: '/home/ann', XDG_DATA_HOME: '' }, 'freebsd')).toBe('/home/ann/.local/share/treasury-desk/treasury.sqlite');
  });

  it('uses ~/Library/Application Support on macOS', () => {
    expect(defaultDatabasePath({ HOME: '/Users/ann', XDG_DATA_HOME: '/ignored' }, 'darwin')).toBe(
      '/Users/ann/Library/Application Support/Treasury Desk/treasury.sqlite',
    );
  });

  it('uses %APPDATA% on Windows, else %USERPROFILE%\\AppData\\Roaming', () => {
    expect(defaultDatabasePath({ APPDATA: 'C:\\Users\\Ann\\AppData\\Roaming' }, 'win32')).toBe('C:\\Users\\Ann\\AppData\\Roaming\\Treasury Desk\\treasury.sqlite');
    expect(defaultDatabasePath({ USERPROFILE: 'C:\\Users\\Ann' }, 'win32')).toBe('C:\\Users\\Ann\\AppData\\Roaming\\Treasury Desk\\treasury.sqlite');
  });

  it('defaults to this process and its environment', () => {
    expect(defaultDatabasePath()).toMatch(/treasury\.sqlite$/);
  });
});
