// Where `npm start` finds native modules built for Electron's ABI (written by scripts/electron-native.mjs), and the
// decision which better-sqlite3 binary the engine loads. A packaged app never takes a binary path from outside.
import { join } from 'node:path';

/** Environment variable the engine reads for better-sqlite3's `nativeBinding` option. */
export const SQLITE_BINDING_ENV = 'TREASURY_DESK_SQLITE_BINDING';

/** node_modules/.electron-native/<electron version>/: the folder scripts/electron-native.mjs builds into. */
export function electronNativeDir(appRoot: string, electronVersion: string): string {
  return join(appRoot, 'node_modules', '.electron-native', electronVersion);
}

export function electronSqliteBindingPath(appRoot: string, electronVersion: string): string {
  return join(electronNativeDir(appRoot, electronVersion), 'better_sqlite3.node');
}

export interface SqliteBindingContext {
  readonly isPackaged: boolean;
  readonly appRoot: string;
  readonly electronVersion: string;
  readonly env: NodeJS.ProcessEnv;
  readonly exists: (path: string) => boolean;
}

export type SqliteBindingDecision =
  | { readonly binding: string; readonly note: null }
  | { readonly binding: undefined; readonly note: string | null };

/**
 * Packaged: the module's own (Electron-rebuilt) binary, and any TREASURY_DESK_SQLITE_BINDING is removed, so no
 * environment variable can make the app load a foreign native library. From a checkout: the variable when set,
 * else the Electron build of scripts/electron-native.mjs when present. Sets or clears the variable in `env`.
 */
export function decideSqliteBinding(context: SqliteBindingContext): SqliteBindingDecision {
  if (context.isPackaged) {
    delete context.env[SQLITE_BINDING_ENV];
    return { binding: undefined, note: null };
  }
  const fromEnv = context.env[SQLITE_BINDING_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { binding: fromEnv, note: null };
  const built = electronSqliteBindingPath(context.appRoot, context.electronVersion);
  if (context.exists(built)) {
    context.env[SQLITE_BINDING_ENV] = built;
    return { binding: built, note: null };
  }
  return {
    binding: undefined,
    note: `No better-sqlite3 build for Electron ${context.electronVersion} at ${built}; run "node scripts/electron-native.mjs" (npm start does it first).`,
  };
}
