// A Secret Service too busy to answer within D-Bus's 2 s reply timeout: @napi-rs/keyring alone reports "Did not
// receive a reply"; the vault's default backend waits it out (no-reply-retry.ts) and the entry is stored. Each case
// stops the daemon of its own nested scripts/with-keyring.sh session, never the keyring other tests use.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

interface ChildOutcome {
  readonly ok: boolean;
  readonly noReply?: boolean;
  readonly message?: string;
  readonly tookMs: number;
  readonly readBack: string | null;
}

function runStalled(mode: 'direct' | 'vault', value: string): ChildOutcome {
  const run = spawnSync(
    'bash',
    ['scripts/with-keyring.sh', process.execPath, '--import', 'tsx', 'test/integration/secrets/fixtures/stalled-keyring-child.ts', mode],
    { encoding: 'utf8', env: { ...process.env, STALL_MS: '3000', CHILD_VALUE: value }, timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as ChildOutcome;
}

describe('a keyring daemon that stops answering for 3 s', () => {
  it('fails a write through @napi-rs/keyring alone with D-Bus NoReply (the stall reproduces what CI saw)', () => {
    const outcome = runStalled('direct', randomBytes(8).toString('hex'));
    expect(outcome.ok).toBe(false);
    expect(outcome.noReply, outcome.message).toBe(true);
    expect(outcome.tookMs).toBeLessThan(3000);
  }, 60_000);

  it('is waited out by the vault: the write succeeds once the daemon answers, and the entry reads back', () => {
    const value = randomBytes(8).toString('hex');
    const outcome = runStalled('vault', value);
    expect(outcome, outcome.message).toMatchObject({ ok: true, readBack: value });
    expect(outcome.tookMs).toBeGreaterThanOrEqual(3000);
  }, 60_000);
});
