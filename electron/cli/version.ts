// The CLI's version for diagnostics: the `version` of the treasury-desk package.json above this file, found the same
// way from a checkout (tsx, electron/cli/) and from the built bundle (out/main/); "unknown" if it cannot be read.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'treasury-desk';
const MAX_LEVELS_UP = 4;

export function cliVersion(from: string = fileURLToPath(import.meta.url)): string {
  let folder = dirname(from);
  for (let level = 0; level <= MAX_LEVELS_UP; level += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no manifest here: one folder up
    }
    folder = dirname(folder);
  }
  return 'unknown';
}
