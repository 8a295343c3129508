// `npm run dist`: builds the installers electron-builder.yml names for this operating system (Linux: AppImage, deb,
// rpm; Windows: NSIS; macOS: dmg), for x64 and arm64, into dist/. Before building anything it checks what the build
// needs and, when something is missing, names each missing piece and how to get it, builds nothing and exits 1:
// Electron's binary (downloaded by Electron's own installer; unreachable on machines with only the npm registry),
// the keychain module's platform package for each architecture, better-sqlite3's prebuild for each, and rpmbuild
// for the rpm. Options: --linux | --win | --mac (default: this OS), --arch x64,arm64 (default both), --check (only
// the checks). Signing and notarization come from the environment (docs/release.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_MODULES = join(ROOT, 'node_modules');
const ARCHS = ['x64', 'arm64'];
const PLATFORM_OF = { linux: 'linux', win32: 'win', darwin: 'mac' };
/** @napi-rs/keyring's platform package per electron-builder platform and architecture. */
const KEYRING_PACKAGE = {
  linux: { x64: 'keyring-linux-x64-gnu', arm64: 'keyring-linux-arm64-gnu' },
  win: { x64: 'keyring-win32-x64-msvc', arm64: 'keyring-win32-arm64-msvc' },
  mac: { x64: 'keyring-darwin-x64', arm64: 'keyring-darwin-arm64' },
};
const SQLITE_PREBUILD = { linux: 'linux', win: 'win32', mac: 'darwin' };

function fail(message) {
  console.error(`dist: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = { platform: PLATFORM_OF[process.platform], archs: ARCHS, checkOnly: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--linux' || arg === '--win' || arg === '--mac') options.platform = arg.slice(2);
    else if (arg === '--check') options.checkOnly = true;
    else if (arg === '--arch') {
      const archs = (argv[(i += 1)] ?? '').split(',').filter((arch) => arch !== '');
      const unknown = archs.filter((arch) => !ARCHS.includes(arch));
      if (archs.length === 0 || unknown.length > 0) fail(`--arch takes ${ARCHS.join(', ')} (comma-separated), not "${argv[i] ?? ''}"`);
      options.archs = archs;
    } else fail(`unknown option "${arg}"; use --linux, --win, --mac, --arch x64,arm64 or --check`);
  }
  if (options.platform === undefined) fail(`no installers are made on ${process.platform}; use --linux, --win or --mac`);
  return options;
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** Electron's binary: present, or fetched now by Electron's own installer (its postinstall is off in allowScripts). */
function electronMissing() {
  const electronDir = join(NODE_MODULES, 'electron');
  if (!existsSync(join(electronDir, 'package.json'))) return 'the electron package: run "npm ci" first';
  if (existsSync(join(electronDir, 'dist')) && existsSync(join(electronDir, 'path.txt'))) return null;
  console.log('dist: downloading the Electron binary (node node_modules/electron/install.js)…');
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, encoding: 'utf8', timeout: 600_000 });
  if (result.status === 0 && existsSync(join(electronDir, 'path.txt'))) return null;
  const said = `${result.stderr ?? ''}${result.stdout ?? ''}`.split('\n').map((line) => line.trim()).find((line) => /error|fail|ENOTFOUND|ECONN|EAI_AGAIN/i.test(line));
  return `Electron's binary: its download failed (${said ?? result.error?.message ?? `exit ${result.status}`}); electron-builder packages that binary. Run where github.com is reachable, or set ELECTRON_MIRROR to a mirror of Electron's releases`;
}

/** Everything the build needs that this machine lacks, in words, for `platform` and `archs`. */
export function missingForDist(platform, archs, electron = electronMissing) {
  const missing = [];
  const electronProblem = electron();
  if (electronProblem !== null) missing.push(electronProblem);
  if (!existsSync(join(NODE_MODULES, 'electron-builder', 'package.json'))) missing.push('electron-builder: run "npm ci" (it is a pinned dev dependency)');
  for (const arch of archs) {
    const keyring = KEYRING_PACKAGE[platform][arch];
    if (!existsSync(join(NODE_MODULES, '@napi-rs', keyring, 'package.json'))) {
      missing.push(`@napi-rs/${keyring} (the OS keychain module for ${platform} ${arch}): npm installs only this machine's; build ${arch} on a ${platform} ${arch} machine, or run "npm ci --os=${SQLITE_PREBUILD[platform]} --cpu=${arch}" in a clean checkout first`);
    }
    const prebuild = join(NODE_MODULES, 'better-sqlite3', 'prebuilds', `${SQLITE_PREBUILD[platform]}-${arch}.node`);
    if (!existsSync(prebuild)) missing.push(`better-sqlite3's prebuild for ${SQLITE_PREBUILD[platform]}-${arch}: run "npm ci" (better-sqlite3 13 ships it)`);
  }
  if (platform === 'linux' && !onPath('rpmbuild')) missing.push('rpmbuild, for the .rpm (Debian/Ubuntu: apt-get install rpm; Fedora: dnf install rpm-build)');
  if (platform !== 'linux' && PLATFORM_OF[process.platform] !== platform) missing.push(`a ${platform} machine: ${platform === 'mac' ? 'the dmg is built, signed and notarized on macOS' : 'NSIS installers are built on Windows here'}`);
  return missing;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}); see its output above`);
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const missing = missingForDist(options.platform, options.archs);
  if (missing.length > 0) {
    console.error(`dist: cannot build the ${options.platform} installers (${options.archs.join(', ')}) on this machine; nothing was built. Missing:`);
    for (const item of missing) console.error(`  - ${item}`);
    process.exit(1);
  }
  if (options.checkOnly) {
    console.log(`dist: everything the ${options.platform} installers (${options.archs.join(', ')}) need is here.`);
    return;
  }
  const bin = (name) => join(NODE_MODULES, '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
  run(bin('electron-vite'), ['build']);
  run(bin('electron-builder'), ['--config', 'electron-builder.yml', `--${options.platform}`, ...options.archs.map((arch) => `--${arch}`), '--publish', 'never']);
  const made = existsSync(join(ROOT, 'dist')) ? readdirSync(join(ROOT, 'dist')).filter((name) => /\.(AppImage|deb|rpm|exe|dmg|yml)$/.test(name)) : [];
  console.log(`dist: built in dist/: ${made.join(', ') || '(nothing?)'}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
