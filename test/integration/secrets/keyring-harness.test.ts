// scripts/with-keyring.sh itself: a private Secret Service that survives its daemon crashing (gnome-keyring aborts on
// an assertion under many concurrent sessions), started again on the same keyring so stored entries stay readable.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

describe('scripts/with-keyring.sh', () => {
  it('starts a crashed gnome-keyring-daemon again on the same unlocked keyring, and says so', () => {
    const secret = randomBytes(12).toString('hex');
    // Runs in its own private session (nested), so killing its daemon cannot disturb the keyring of other tests.
    const script = [
      'set -e',
      `printf %s "$SECRET" | secret-tool store --label=harness-test service treasury-harness-test account crash`,
      'kill -TRAP "$(cat "$TREASURY_KEYRING_HARNESS/keyring.pid")"',
      'for _ in $(seq 1 50); do secret-tool lookup service treasury-harness-test account crash 2>/dev/null && exit 0; sleep 0.2; done',
      'exit 9',
    ].join('\n');
    const run = spawnSync('bash', ['scripts/with-keyring.sh', 'bash', '-c', script], { encoding: 'utf8', env: { ...process.env, SECRET: secret }, timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(secret);
    expect(run.stderr).toMatch(/gnome-keyring-daemon stopped \(exit status \d+\); starting it again on the same keyring \(restart 1\)/);
  }, 60_000);

  it("has a desktop session bus's connection limits: 400 connections at once all get through (the built-in limit is 256)", () => {
    // In a nested session of its own, so these connections never count against the bus the other tests use.
    const script = [
      "import { SessionBus } from './electron/core/secrets/secret-service.ts';",
      'const buses = await Promise.all(Array.from({ length: 400 }, () => SessionBus.open(undefined, 30_000)));',
      'for (const bus of buses) bus.close();',
      'process.stdout.write(String(buses.length));',
    ].join('\n');
    const run = spawnSync('bash', ['scripts/with-keyring.sh', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('400');
  }, 90_000);
});
