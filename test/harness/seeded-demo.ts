// Test harness only: the demo sandbox's folder as demo seeding leaves it, seeded once per process and copied into each
// desk's fresh demo sandbox folder. Seeding (a merchant, fresh RSA key pairs, 240 deposits and 90 withdrawals through
// the ledger) is 0.2-0.4 s of a core, paid by almost every e2e test; a copy is a few milliseconds. A copied folder is
// what startSandbox would have seeded itself: the same seed gives the same merchant, IDs and history; only the RSA keys
// are shared by the copies of one process, and the seeded records' service-side times (which no merchant API answer
// carries) date from the process's first seeding. startSandbox then starts from the copy as from any folder with
// state; seeding itself is tested in vitest (test/integration/sandbox) and still runs here, once a process.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_SEED, startSandbox } from '../../electron/sandbox';
import { makeScratchFolder } from './scratch-folder';

let seededFolder: Promise<string> | undefined;

/** The process's seeded demo folder, made on first use (a sandbox seeded with DEMO_SEED, then closed); removed at exit. */
function seededDemoFolder(): Promise<string> {
  seededFolder ??= (async () => {
    const parent = makeScratchFolder('treasury-seeded-demo-');
    process.once('exit', () => rmSync(parent, { recursive: true, force: true }));
    const folder = join(parent, 'sandbox');
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, dataDir: folder, seed: DEMO_SEED, auto: false });
    await sandbox.close();
    return folder;
  })();
  return seededFolder;
}

/**
 * Puts a copy of the seeded demo folder at `dataDir` when nothing is there yet (a folder that exists, e.g. dev:browser's
 * --data from an earlier run, keeps its own state), so that a demo sandbox started there with DEMO_SEED starts seeded.
 */
export async function placeSeededDemo(dataDir: string): Promise<void> {
  if (existsSync(dataDir)) return;
  cpSync(await seededDemoFolder(), dataDir, { recursive: true });
}
