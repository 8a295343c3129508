// Test harness only: a fresh temporary folder for a test's desk, in RAM when the machine has a RAM-backed /dev/shm.
// A desk commits with synchronous=FULL (every commit waits for the disk), and a demo desk's start commits a few
// hundred times (nonces, sync state, statements, audit rows, the sandbox's own store): on the CI's disk that is about
// a third of a demo start. No e2e test is about surviving power loss (crash and durability tests run in vitest), so
// the same commits against RAM prove the same things; elsewhere (macOS, no /dev/shm) the system's temporary folder.
import { accessSync, constants, mkdtempSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RAM_FOLDER = '/dev/shm';
/**
 * Free space /dev/shm must have to hold desks: a container's default /dev/shm is 64 MB, which Chromium needs for
 * itself, and a few desks with their sandboxes would fill it.
 */
const RAM_FOLDER_MIN_FREE_BYTES = 2 * 1024 ** 3;

function ramFolderUsable(): boolean {
  try {
    if (!statSync(RAM_FOLDER).isDirectory()) return false;
    accessSync(RAM_FOLDER, constants.W_OK | constants.X_OK);
    const space = statfsSync(RAM_FOLDER, { bigint: true });
    return space.bavail * space.bsize >= BigInt(RAM_FOLDER_MIN_FREE_BYTES);
  } catch {
    return false;
  }
}

/** The folder temporary desk folders go under: /dev/shm when usable with 2 GiB free, else the system's temporary folder. */
export const SCRATCH_PARENT = ramFolderUsable() ? RAM_FOLDER : tmpdir();

/** Creates a new, empty folder named `prefix` + random characters under SCRATCH_PARENT (mode 0700, as mkdtemp makes it). */
export function makeScratchFolder(prefix: string): string {
  return mkdtempSync(join(SCRATCH_PARENT, prefix));
}
