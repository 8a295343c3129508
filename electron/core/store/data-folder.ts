// One data folder for the desktop app and the CLI (defaultDatabasePath): the app used to keep its desk in Electron's
// userData folder (`~/.config/Treasury Desk` on Linux) while the CLI opened `~/.local/share/treasury-desk`, so the
// two opened different desks. moveLegacyDesk moves an existing app desk to the shared place, once. Invariant: it never
// overwrites a desk: when the shared place already holds one, nothing is moved and the caller is told why.
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureParentDirectory } from './paths';

/** The files and folders that make up a desk beside its database file (SQLite's WAL files, the headless desk key, demo). */
function deskParts(databaseFile: string): string[] {
  const name = basename(databaseFile);
  return [name, `${name}-wal`, `${name}-shm`, `${name}.desk-secrets`, 'demo-sandbox'];
}

export type LegacyDeskMove =
  | { readonly moved: true; readonly from: string; readonly to: string; readonly parts: readonly string[] }
  | { readonly moved: false; readonly reason: 'noLegacyDesk' | 'sameFolder' | 'targetExists'; readonly from: string; readonly to: string };

/** Moves one path, across filesystems too (copy, then remove the source). */
function movePath(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
    rmSync(from, { recursive: true, force: true });
  }
}

/**
 * Moves the desk in `legacyFolder` (a `treasury.sqlite` and what belongs to it) to `databaseFile`'s folder, when the
 * legacy folder has a desk and `databaseFile` does not exist yet. Call it before the database is opened.
 */
export function moveLegacyDesk(legacyFolder: string, databaseFile: string): LegacyDeskMove {
  const targetFolder = dirname(databaseFile);
  const from = join(legacyFolder, basename(databaseFile));
  if (!existsSync(from)) return { moved: false, reason: 'noLegacyDesk', from, to: databaseFile };
  if (join(legacyFolder) === join(targetFolder)) return { moved: false, reason: 'sameFolder', from, to: databaseFile };
  if (existsSync(databaseFile)) return { moved: false, reason: 'targetExists', from, to: databaseFile };
  ensureParentDirectory(databaseFile);
  const moved: string[] = [];
  // The database last: while it is still in the old folder, an interrupted move is simply done again at next start.
  for (const part of deskParts(databaseFile).reverse()) {
    const source = join(legacyFolder, part);
    const target = join(targetFolder, part);
    if (!existsSync(source) || existsSync(target)) continue;
    movePath(source, target);
    moved.push(part);
  }
  return { moved: true, from, to: databaseFile, parts: moved.reverse() };
}
