// `npm start` (prestart): makes sure Electron can run the app's native modules, without building anything.
// Both are Node-API addons shipped prebuilt in their npm packages (better-sqlite3 >= 13 in its `prebuilds/`,
// @napi-rs/keyring in its platform package), and Node-API is ABI-stable, so the very files `npm test` loads under Node
// load under Electron too: nothing is rebuilt for Electron's ABI, and node_modules is never touched.
// 1. Downloads Electron's binary when node_modules/electron/dist is missing (its postinstall is off in allowScripts).
// 2. Checks under Electron (ELECTRON_RUN_AS_NODE) that better-sqlite3 opens a database and that @napi-rs/keyring loads.
// Environment: ELECTRON_MIRROR / electron_config_cache (honoured by Electron's own installer). Exit 0 ready, 1 not ready.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MODULES = join(ROOT, 'node_modules');

class NotReady extends Error {}

function log(message) {
  console.log(`electron-native: ${message}`);
}

function packageDir(name) {
  const dir = join(NODE_MODULES, name);
  if (!existsSync(join(dir, 'package.json'))) throw new NotReady(`${name} is not installed; run "npm ci" first.`);
  return dir;
}

/** Step 1: Electron's own installer (idempotent), only when its binary is missing. */
function ensureElectronBinary(electronDir) {
  if (existsSync(join(electronDir, 'dist')) && existsSync(join(electronDir, 'path.txt'))) return;
  log('downloading the Electron binary (node node_modules/electron/install.js)…');
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(join(electronDir, 'path.txt'))) {
    throw new NotReady(
      'Electron could not be downloaded. Check the internet connection or set ELECTRON_MIRROR (see https://www.electronjs.org/docs/latest/tutorial/installation), then run "npm start" again.',
    );
  }
}

/** Step 2: load both native modules inside Electron (as Node) the way the app will. */
function verifyUnderElectron({ electronDir, sqliteDir, keyringDir }) {
  const electronPath = createRequire(join(electronDir, 'index.js'))(electronDir);
  const probe = `
    const Database = require(${JSON.stringify(sqliteDir)});
    const db = new Database(':memory:');
    db.prepare('select 1 as one').get();
    db.close();
    let keyring = 'ok';
    try { require(${JSON.stringify(keyringDir)}); } catch (error) { keyring = String(error && error.message).split('\\n')[0]; }
    process.stdout.write(JSON.stringify({ napi: process.versions.napi, electron: process.versions.electron, keyring }));
  `;
  const result = spawnSync(electronPath, ['-e', probe], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) {
    const reason = `${result.stderr ?? ''}`.split('\n').find((line) => line.trim() !== '') ?? result.error?.message ?? 'no output';
    return { ok: false, reason };
  }
  try {
    return { ok: true, ...JSON.parse(result.stdout) };
  } catch {
    return { ok: false, reason: 'the check printed no result' };
  }
}

function main() {
  const electronDir = packageDir('electron');
  const sqliteDir = packageDir('better-sqlite3');
  const keyringDir = packageDir('@napi-rs/keyring');
  const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
  ensureElectronBinary(electronDir);
  const check = verifyUnderElectron({ electronDir, sqliteDir, keyringDir });
  if (!check.ok) {
    throw new NotReady(`better-sqlite3 does not load under Electron ${electronVersion}: ${check.reason}. Run "npm ci" again; better-sqlite3 must be 13 or later (Node-API prebuilds).`);
  }
  log(`better-sqlite3 (Node-API prebuild) loads under Electron ${check.electron} (Node-API ${check.napi}).`);
  if (check.keyring === 'ok') log('@napi-rs/keyring (prebuilt Node-API) loads under Electron.');
  else log(`WARNING: @napi-rs/keyring does not load under Electron (${check.keyring}); the OS keychain will be unavailable in the app. See docs/desktop.md.`);
}

try {
  main();
} catch (error) {
  if (error instanceof NotReady) {
    console.error(`electron-native: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
