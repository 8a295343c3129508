// The installers (docs/release.md), checked where electron-builder itself cannot run: electron-builder.yml passes
// electron-builder's own schema validation and names AppImage, deb and rpm, NSIS and dmg for x64 and arm64 with
// nothing rebuilt; the AppArmor profiles (the one the deb and rpm install, the one documented for the AppImage) pass
// apparmor_parser; `npm run dist` names what this machine lacks and builds nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { missingForDist } from '../../../scripts/dist.mjs';

const root = resolve(import.meta.dirname, '../../..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const work = mkdtempSync(join(tmpdir(), 'td-installers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation (the version pinned in package.json)", async () => {
    const requireHere = createRequire(join(root, 'package.json'));
    const builderLib = createRequire(requireHere.resolve('electron-builder'));
    const { validateConfiguration } = builderLib('app-builder-lib/out/util/config/config') as { validateConfiguration: (config: unknown, logger: unknown) => Promise<void> };
    const { DebugLogger } = builderLib('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(structuredClone(config), new DebugLogger(false))).resolves.toBeUndefined();
    // The validation is real: an unknown key is refused.
    await expect(validateConfiguration({ ...structuredClone(config), linux: { ...(config['linux'] as object), sandboxOff: true } }, new DebugLogger(false))).rejects.toThrow(/configuration\.linux should be one of these/);
  });

  it('names AppImage, deb and rpm, NSIS and dmg, each for x64 and arm64, and rebuilds nothing', () => {
    const both = ['x64', 'arm64'];
    expect((config['linux'] as { target: unknown }).target).toEqual([
      { target: 'AppImage', arch: both },
      { target: 'deb', arch: both },
      { target: 'rpm', arch: both },
    ]);
    expect((config['win'] as { target: unknown }).target).toEqual([{ target: 'nsis', arch: both }]);
    expect((config['mac'] as { target: unknown }).target).toEqual([{ target: 'dmg', arch: both }]);
    expect(config['npmRebuild']).toBe(false);
    expect(config['mac']).toMatchObject({ notarize: true, hardenedRuntime: true });
  });

  it('has the deb and the rpm install our AppArmor profile', () => {
    expect(config['deb']).toMatchObject({ appArmorProfile: 'resources/linux/apparmor-profile.tpl' });
    expect(config['rpm']).toMatchObject({ appArmorProfile: 'resources/linux/apparmor-profile.tpl' });
  });

  it('pins electron-builder exactly as a dev dependency', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.devDependencies['electron-builder']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.scripts['dist']).toBe('node scripts/dist.mjs');
  });
});

/** The parser on this machine, or null: Debian 12 has AppArmor 3.0.8 (CI installs it), Ubuntu 24.04 has 4.x. */
function apparmorParser(): { path: string; major: number } | null {
  for (const dir of [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/sbin']) {
    const path = join(dir, 'apparmor_parser');
    if (dir === '' || !existsSync(path)) continue;
    const version = /version (\d+)\./.exec(execFileSync(path, ['--version'], { encoding: 'utf8' }));
    return { path, major: Number(version?.[1] ?? 0) };
  }
  return null;
}

/**
 * Checks a profile with `apparmor_parser -Q` (syntax only, nothing loaded). AppArmor 3 knows neither `abi <abi/4.0>`
 * nor the `userns` rule: those two lines are checked to be exactly there, and the rest is parsed with 3.0's ABI.
 */
function checkProfile(text: string, name: string): void {
  const parser = apparmorParser();
  if (parser === null) throw new Error('apparmor_parser is not installed (apt-get install apparmor)');
  expect(text).toMatch(/^abi <abi\/4\.0>,$/m);
  expect(text).toMatch(/^ {2}userns,$/m);
  expect(text).toMatch(/flags=\(unconfined\)/);
  const dir = join(work, name);
  mkdirSync(join(dir, 'include', 'abi'), { recursive: true });
  let checked = text;
  const args = ['-Q', '--skip-cache'];
  if (parser.major < 4) {
    writeFileSync(join(dir, 'include', 'abi', '4.0'), readFileSync('/etc/apparmor.d/abi/3.0'));
    checked = text.replace(/^ {2}userns,$/m, '');
    args.push('-I', join(dir, 'include'));
  }
  writeFileSync(join(dir, 'profile'), checked);
  const result = spawnSync(parser.path, [...args, join(dir, 'profile')], { encoding: 'utf8' });
  expect(result.stderr.split('\n').filter((line) => line.includes('error')), `${name}: ${result.stderr}`).toEqual([]);
  expect(result.status, `${name}: ${result.stderr}`).toBe(0);
}

describe('the AppArmor profiles (Ubuntu 24.04 and later)', () => {
  const haveParser = apparmorParser() !== null;

  it.skipIf(!haveParser)('the deb and rpm profile, filled in as electron-builder does, passes apparmor_parser -Q for /opt/Treasury Desk/treasury-desk', () => {
    const template = readFileSync(join(root, 'resources/linux/apparmor-profile.tpl'), 'utf8');
    // electron-builder fills ${executable} and ${sanitizedProductName} (FpmTarget's appArmorTemplateOptions).
    const filled = template.replaceAll('${executable}', String(config['executableName'])).replaceAll('${sanitizedProductName}', String(config['productName']));
    expect(filled).toContain('profile "treasury-desk" "/opt/Treasury Desk/treasury-desk" flags=(unconfined) {');
    expect(filled).not.toContain('${');
    checkProfile(filled, 'deb');
  });

  it.skipIf(!haveParser)("the AppImage's profile passes apparmor_parser -Q and matches the executable in the AppImage's mount", () => {
    const text = readFileSync(join(root, 'resources/linux/treasury-desk-appimage.apparmor'), 'utf8');
    expect(text).toContain('"/{,var/}tmp/.mount_treasu*/treasury-desk"');
    // The artifact's name starts with "treasury-desk", whose first six letters name the mount.
    expect((config['appImage'] as { artifactName: string }).artifactName).toBe('${name}-${version}-${arch}.${ext}');
    checkProfile(text, 'appimage');
  });

  it('is checked here: the CI installs apparmor_parser (this test says so where it is missing)', () => {
    const ciRun = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(ciRun).toMatch(/SYSTEM_PACKAGES=\([^)]*\bapparmor\b/);
    if (!haveParser) console.warn('apparmor_parser is not installed here (apt-get install apparmor): the two profile checks above were skipped');
  });
});

describe('npm run dist', () => {
  const script = join(root, 'scripts/dist.mjs');

  it('names every missing piece: Electron, the keychain module of the other architecture, rpmbuild', () => {
    const missing = missingForDist('linux', ['x64', 'arm64'], () => "Electron's binary: its download failed (test)");
    expect(missing[0]).toBe("Electron's binary: its download failed (test)");
    const arm64Keyring = existsSync(join(root, 'node_modules/@napi-rs/keyring-linux-arm64-gnu/package.json'));
    if (!arm64Keyring) expect(missing.join('\n')).toContain('@napi-rs/keyring-linux-arm64-gnu (the OS keychain module for linux arm64)');
    const rpmbuild = (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, 'rpmbuild')));
    if (!rpmbuild) expect(missing.join('\n')).toContain('rpmbuild, for the .rpm');
    // better-sqlite3 13 ships every prebuild: never missing.
    expect(missing.join('\n')).not.toContain("better-sqlite3's prebuild");
  });

  it('with no Electron binary to be had, says so, builds nothing and exits 1', () => {
    if (existsSync(join(root, 'node_modules/electron/dist'))) {
      console.warn("Electron's binary is installed here: the no-binary case is covered by the test above only");
      return;
    }
    // A mirror on a closed loopback port: the download fails at once, on any machine.
    const run = spawnSync(process.execPath, [script, '--check', '--linux', '--arch', 'x64'], { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/' }, timeout: 120_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('cannot build the linux installers (x64) on this machine; nothing was built. Missing:');
    expect(run.stderr).toContain("Electron's binary: its download failed");
    expect(existsSync(join(root, 'dist'))).toBe(false);
  });

  it('refuses an unknown option or architecture, saying which are accepted', () => {
    const run = spawnSync(process.execPath, [script, '--arch', 'sparc'], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('dist: --arch takes x64, arm64 (comma-separated), not "sparc"\n');
  });
});
