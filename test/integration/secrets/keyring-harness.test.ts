// scripts/with-keyring.sh itself: a private Secret Service that survives its daemon crashing (gnome-keyring aborts on
// an assertion under many concurrent sessions): the bus starts it again (D-Bus activation) on the same keyring, so
// stored entries stay readable and no call finds the service missing.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

/**
 * Script lines defining waitUntilNoOwner(): after the test killed the daemon, waits (at most 5 s) until the bus has
 * dropped its name and nobody owns org.freedesktop.secrets. Needs `execFileSync` imported by the script.
 */
const WAIT_UNTIL_NO_OWNER = [
  'const owner = () => { try { return execFileSync("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:org.freedesktop.secrets"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }); } catch { return ""; } };',
  "const waitUntilNoOwner = async () => { for (let i = 0; i < 100 && owner() !== ''; i += 1) await new Promise((resolve) => setTimeout(resolve, 50)); };",
].join('\n');

/** Runs an ES module `script` with tsx inside a private keyring session of its own (nested), so it cannot disturb other tests. */
function runInNestedKeyring(script: string) {
  return spawnSync('bash', ['scripts/with-keyring.sh', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 90_000,
  });
}

describe('scripts/with-keyring.sh', () => {
  it('a call right after the gnome-keyring-daemon crashed starts it again through the bus, on the same unlocked keyring', () => {
    const secret = randomBytes(12).toString('hex');
    // Runs in its own private session (nested), so killing its daemon cannot disturb the keyring of other tests. After
    // the kill it waits until the bus has dropped the dead daemon's name and nobody owns it; then one lookup (no
    // retry) must find the service, started by the bus as on a desktop, never "not provided by any .service files".
    const script = [
      'set -e',
      `printf %s "$SECRET" | secret-tool store --label=harness-test service treasury-harness-test account crash`,
      'crashed=$(cat "$TREASURY_KEYRING_HARNESS/keyring.pid")',
      'kill -TRAP "$crashed"',
      'owner() { dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null | awk "/uint32/ { print \\$2 }"; }',
      'for _ in $(seq 1 100); do [ -z "$(owner)" ] && break; sleep 0.05; done',
      '[ -z "$(owner)" ] || { echo "the crashed daemon still owns the name" >&2; exit 7; }',
      'secret-tool lookup service treasury-harness-test account crash',
      'sleep 1 # lets the harness notice the crash and report it',
    ].join('\n');
    const run = spawnSync('bash', ['scripts/with-keyring.sh', 'bash', '-c', script], { encoding: 'utf8', env: { ...process.env, SECRET: secret }, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(secret);
    expect(run.stderr).toMatch(/gnome-keyring-daemon stopped \(exit status 133\); the bus starts it again on the same keyring at the next call \(restart 1\)/);
    expect(run.stderr).not.toMatch(/Activating service|Successfully activated/);
  }, 60_000);

  it("the keychain's entries outlive a daemon crash: a read after the restart opens a new session instead of failing", () => {
    // A long-running desk keeps one entry (its D-Bus connection and Secret Service session) per account. The daemon
    // started again knows none of the old sessions ("The session does not exist"): the keychain drops the entry and
    // opens a new one. Nested session, so the crash cannot disturb other tests.
    const script = [
      "import { execFileSync } from 'node:child_process';",
      "import { readFileSync } from 'node:fs';",
      "import { loadKeyring } from './electron/core/secrets/keychain.ts';",
      'const keychain = await loadKeyring();',
      "await keychain.setPassword('treasury-harness-test', 'restart', 'kept across the restart');",
      "const crashed = readFileSync(process.env.TREASURY_KEYRING_HARNESS + '/keyring.pid', 'utf8').trim();",
      "process.kill(Number(crashed), 'SIGTRAP');",
      WAIT_UNTIL_NO_OWNER,
      'await waitUntilNoOwner();',
      "process.stdout.write(String(await keychain.getPassword('treasury-harness-test', 'restart')));",
    ].join('\n');
    const run = runInNestedKeyring(script);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('kept across the restart');
  }, 90_000);

  it("a desk's first keychain use outlives a daemon crash in the middle of moving keytar's entries", () => {
    // openKeychain moves the entries an earlier version stored with keytar before anything else. Here the daemon dies
    // right after the move opened its Secret Service session: the search starts a new daemon, which knows no such
    // session, and the move is tried again on a new connection instead of failing the desk's start (seen in CI). A
    // nested session, so the crash cannot disturb other tests.
    const script = [
      "import { execFileSync } from 'node:child_process';",
      "import { readFileSync } from 'node:fs';",
      "import { openKeychain } from './electron/core/secrets/keychain.ts';",
      "import { SecretService } from './electron/core/secrets/secret-service.ts';",
      "execFileSync('secret-tool', ['store', '--label=keytar-style', 'service', 'treasury-harness-move', 'account', 'p/secret'], { input: 'moved across the crash' });",
      WAIT_UNTIL_NO_OWNER,
      'let opened = 0;',
      'const openThenCrash = async () => {',
      '  const secrets = await SecretService.open();',
      '  opened += 1;',
      '  if (opened === 1) {',
      "    process.kill(Number(readFileSync(process.env.TREASURY_KEYRING_HARNESS + '/keyring.pid', 'utf8').trim()), 'SIGTRAP');",
      '    await waitUntilNoOwner();',
      '  }',
      '  return secrets;',
      '};',
      "const keychain = await openKeychain('treasury-harness-move', openThenCrash);",
      "process.stdout.write(JSON.stringify({ opened, value: await keychain.getPassword('treasury-harness-move', 'p/secret') }));",
    ].join('\n');
    const run = runInNestedKeyring(script);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ opened: 2, value: 'moved across the crash' });
    expect(run.stderr).toMatch(/gnome-keyring-daemon stopped \(exit status 133\)/);
  }, 90_000);

  it("has a desktop session bus's connection limits: 400 connections at once all get through (the built-in limit is 256)", () => {
    // In a nested session of its own, so these connections never count against the bus the other tests use.
    const script = [
      "import { SessionBus } from './electron/core/secrets/secret-service.ts';",
      'const buses = await Promise.all(Array.from({ length: 400 }, () => SessionBus.open(undefined, 30_000)));',
      'for (const bus of buses) bus.close();',
      'process.stdout.write(String(buses.length));',
    ].join('\n');
    const run = runInNestedKeyring(script);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('400');
  }, 90_000);
});
