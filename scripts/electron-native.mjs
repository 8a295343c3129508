// `npm start` (prestart): native modules for Electron's ABI beside Node's own builds, so `npm test` keeps Node's.
// 1. Downloads Electron's binary when node_modules/electron/dist is missing (its postinstall is off in allowScripts).
// 2. Builds better-sqlite3 for Electron in a temporary copy of the package (node-gyp against Electron's headers) into
//    node_modules/.electron-native/<electron version>/better_sqlite3.node; the main process hands that path to the
//    engine through TREASURY_DESK_SQLITE_BINDING (better-sqlite3's `nativeBinding` option). node_modules/better-sqlite3
//    itself is never touched.
// 3. Checks under Electron (ELECTRON_RUN_AS_NODE) that the build opens a database and that @napi-rs/keyring loads: it
//    is a prebuilt Node-API addon (ABI-stable), so the same binary serves Node and Electron and is never rebuilt.
// Options: --force (rebuild even when up to date), --build-only (skip steps 1 and 3, e.g. on a machine without a
// display or to pre-build in CI). Environment: TREASURY_DESK_ELECTRON_HEADERS_URL (default
// https://electronjs.org/headers), TREASURY_DESK_ELECTRON_NODEDIR (unpacked Electron headers, for offline machines),
// ELECTRON_MIRROR / electron_config_cache (honoured by Electron's own installer). Exit 0 ready, 1 not ready.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MODULES = join(ROOT, 'node_modules');
const SQLITE_BINDING_ENV = 'TREASURY_DESK_SQLITE_BINDING';
const DEFAULT_HEADERS_URL = 'https://electronjs.org/headers';
/** The files of better-sqlite3 a source build needs (the package ships its SQLite amalgamation in deps/). */
const SQLITE_SOURCES = ['package.json', 'binding.gyp', 'src', 'deps'];
/** npm exports its config to scripts as npm_config_*; these would point node-gyp at Node's headers instead of Electron's. */
const NODE_GYP_ENV_OVERRIDES = /^npm_config_(nodedir|target|target_arch|arch|runtime|disturl|dist_url|devdir|build_from_source)$/i;

const args = new Set(process.argv.slice(2));
const force = args.has('--force');
const buildOnly = args.has('--build-only');

class NotReady extends Error {}

function log(message) {
  console.log(`electron-native: ${message}`);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
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

function findNodeGyp() {
  const execDir = dirname(process.execPath);
  const candidates = [
    process.env['npm_config_node_gyp'], // npm sets this for scripts: its bundled node-gyp
    join(execDir, '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), // Linux, macOS
    join(execDir, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), // Windows
  ];
  try {
    candidates.push(createRequire(join(ROOT, 'package.json')).resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // no local node-gyp: npm's bundled one is the usual case
  }
  const found = candidates.find((candidate) => typeof candidate === 'string' && candidate !== '' && existsSync(candidate));
  if (found === undefined) throw new NotReady('node-gyp was not found (it ships with npm); reinstall Node.js with npm.');
  return found;
}

/** Step 2: node-gyp rebuild of a temporary copy of better-sqlite3 against Electron's headers. */
function buildSqliteForElectron({ sqliteDir, electronVersion, targetDir, binding }) {
  const work = mkdtempSync(join(tmpdir(), 'treasury-desk-sqlite-electron-'));
  try {
    for (const entry of SQLITE_SOURCES) cpSync(join(sqliteDir, entry), join(work, entry), { recursive: true });
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NODE_GYP_ENV_OVERRIDES.test(name)));
    const nodedir = process.env['TREASURY_DESK_ELECTRON_NODEDIR'];
    const headers = nodedir
      ? [`--nodedir=${resolve(nodedir)}`]
      : [`--dist-url=${process.env['TREASURY_DESK_ELECTRON_HEADERS_URL'] || DEFAULT_HEADERS_URL}`, `--devdir=${join(homedir(), '.electron-gyp')}`];
    const gypArgs = [findNodeGyp(), 'rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, ...headers];
    log(`building better-sqlite3 for Electron ${electronVersion} (${process.platform}-${process.arch}); this compiles SQLite and takes a minute or two…`);
    const result = spawnSync(process.execPath, gypArgs, { cwd: work, stdio: 'inherit', env });
    const built = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (result.status !== 0 || !existsSync(built)) {
      throw new NotReady(
        'building better-sqlite3 for Electron failed (see the node-gyp output above). It needs a C++ toolchain and Python (Debian/Ubuntu: build-essential python3) and, unless TREASURY_DESK_ELECTRON_NODEDIR is set, internet access to download Electron\'s headers.',
      );
    }
    mkdirSync(targetDir, { recursive: true });
    const partial = `${binding}.partial-${process.pid}`;
    copyFileSync(built, partial);
    renameSync(partial, binding); // atomic: a concurrent start never loads half a file
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Step 3: load both native modules inside Electron (as Node) the way the app will. */
function verifyUnderElectron({ electronDir, sqliteDir, keyringDir, binding }) {
  const electronPath = createRequire(join(electronDir, 'index.js'))(electronDir);
  const probe = `
    const Database = require(${JSON.stringify(sqliteDir)});
    const db = new Database(':memory:', { nativeBinding: ${JSON.stringify(binding)} });
    db.prepare('select 1 as one').get();
    db.close();
    let keyring = 'ok';
    try { require(${JSON.stringify(keyringDir)}); } catch (error) { keyring = String(error && error.message).split('\\n')[0]; }
    process.stdout.write(JSON.stringify({ modules: process.versions.modules, electron: process.versions.electron, keyring }));
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
  const electronVersion = readJson(join(electronDir, 'package.json')).version;
  const sqliteVersion = readJson(join(sqliteDir, 'package.json')).version;
  const targetDir = join(ROOT, 'node_modules', '.electron-native', electronVersion);
  const binding = join(targetDir, 'better_sqlite3.node');
  const stampPath = join(targetDir, 'stamp.json');
  const stamp = { electron: electronVersion, betterSqlite3: sqliteVersion, platform: process.platform, arch: process.arch };
  const context = { electronDir, sqliteDir, keyringDir, electronVersion, targetDir, binding };

  if (!buildOnly) ensureElectronBinary(electronDir);

  const upToDate = existsSync(binding) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === JSON.stringify(stamp);
  let built = false;
  if (force || !upToDate) {
    buildSqliteForElectron(context);
    writeFileSync(stampPath, JSON.stringify(stamp));
    built = true;
  }
  if (buildOnly) {
    log(`better-sqlite3 for Electron ${electronVersion}: ${binding} (not checked: --build-only)`);
    return;
  }

  let check = verifyUnderElectron(context);
  if (!check.ok && !built) {
    log(`the existing build does not load under Electron (${check.reason}); rebuilding…`);
    buildSqliteForElectron(context);
    writeFileSync(stampPath, JSON.stringify(stamp));
    check = verifyUnderElectron(context);
  }
  if (!check.ok) throw new NotReady(`better-sqlite3 does not load under Electron ${electronVersion}: ${check.reason}`);
  log(`better-sqlite3 for Electron ${check.electron} (modules ABI ${check.modules}): ${binding}`);
  log(`the main process passes it to the engine as ${SQLITE_BINDING_ENV}; node_modules/better-sqlite3 keeps Node's build for npm test.`);
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
