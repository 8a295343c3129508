// Which better-sqlite3 binary the engine loads under Electron: the Electron-ABI build of scripts/electron-native.mjs
// from a checkout, the module's own in a packaged app, which never takes a binary path from the environment.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideSqliteBinding, electronSqliteBindingPath, SQLITE_BINDING_ENV } from '../../../electron/main/native';

const root = '/work/app';
const built = join(root, 'node_modules/.electron-native/45.4.1/better_sqlite3.node');

describe('decideSqliteBinding', () => {
  it('uses the Electron build from a checkout and tells the engine through the environment', () => {
    const env: NodeJS.ProcessEnv = {};
    const decision = decideSqliteBinding({ isPackaged: false, appRoot: root, electronVersion: '45.4.1', env, exists: (path) => path === built });
    expect(decision).toEqual({ binding: built, note: null });
    expect(env[SQLITE_BINDING_ENV]).toBe(built);
  });

  it('keeps an explicit variable from a checkout', () => {
    const env: NodeJS.ProcessEnv = { [SQLITE_BINDING_ENV]: '/opt/custom.node' };
    expect(decideSqliteBinding({ isPackaged: false, appRoot: root, electronVersion: '45.4.1', env, exists: () => false })).toEqual({
      binding: '/opt/custom.node',
      note: null,
    });
  });

  it('says how to build it when the Electron build is missing', () => {
    const env: NodeJS.ProcessEnv = {};
    const decision = decideSqliteBinding({ isPackaged: false, appRoot: root, electronVersion: '45.4.1', env, exists: () => false });
    expect(decision.binding).toBeUndefined();
    expect(decision.note).toContain('scripts/electron-native.mjs');
    expect(env[SQLITE_BINDING_ENV]).toBeUndefined();
  });

  it('ignores and removes the variable in a packaged app', () => {
    const env: NodeJS.ProcessEnv = { [SQLITE_BINDING_ENV]: '/tmp/evil.node' };
    expect(decideSqliteBinding({ isPackaged: true, appRoot: root, electronVersion: '45.4.1', env, exists: () => true })).toEqual({
      binding: undefined,
      note: null,
    });
    expect(env[SQLITE_BINDING_ENV]).toBeUndefined();
  });

  it('agrees with scripts/electron-native.mjs on where the build goes', () => {
    expect(electronSqliteBindingPath(root, '45.4.1')).toBe(built);
    const script = readFileSync(resolve(import.meta.dirname, '../../../scripts/electron-native.mjs'), 'utf8');
    expect(script).toContain("join(ROOT, 'node_modules', '.electron-native', electronVersion)");
    expect(script).toContain("'better_sqlite3.node'");
    expect(script).toContain(SQLITE_BINDING_ENV);
  });
});
