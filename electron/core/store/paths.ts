// Where the desk keeps its database by default: the OS's per-user application-data folder. The CLI's --db overrides it.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, posix, win32 } from 'node:path';

export const DATABASE_FILE_NAME = 'treasury.sqlite';

/**
 * The default database file for this user:
 * - Linux and other Unixes: `$XDG_DATA_HOME/treasury-desk/treasury.sqlite`, `~/.local/share/...` when unset or relative;
 * - macOS: `~/Library/Application Support/Treasury Desk/treasury.sqlite`;
 * - Windows: `%APPDATA%\Treasury Desk\treasury.sqlite` (`%USERPROFILE%\AppData\Roaming` when APPDATA is unset).
 */
export function defaultDatabasePath(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const nonEmpty = (value: string | undefined): string | undefined => (value !== undefined && value.trim() !== '' ? value : undefined);
  if (platform === 'win32') {
    const appData =
      nonEmpty(env.APPDATA) ?? win32.join(nonEmpty(env.USERPROFILE) ?? nonEmpty(env.HOME) ?? homedir(), 'AppData', 'Roaming');
    return win32.join(appData, 'Treasury Desk', DATABASE_FILE_NAME);
  }
  const home = nonEmpty(env.HOME) ?? homedir();
  if (platform === 'darwin') {
    return posix.join(home, 'Library', 'Application Support', 'Treasury Desk', DATABASE_FILE_NAME);
  }
  // XDG Base Directory: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  const dataHome = xdg !== undefined && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'share');
  return posix.join(dataHome, 'treasury-desk', DATABASE_FILE_NAME);
}

/** Creates the folders above `file` that are missing, readable by this user only (0700). Existing folders keep their mode. */
export function ensureParentDirectory(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
}
