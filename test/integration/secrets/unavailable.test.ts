// Keychain unavailable: a child process whose DBUS_SESSION_BUS_ADDRESS points at a dead socket (or is unset) gets
// KeychainUnavailableError with advice (unlock the keyring, or --credentials FILE and why it is less safe).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CHILD = join(import.meta.dirname, 'fixtures/keychain-child.ts');

interface ChildOutcome {
  readonly ok: boolean;
  readonly name?: string;
  readonly kind?: string;
  readonly reason?: string;
  readonly message?: string;
}

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'treasury-deadbus-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function runChild(operation: string, env: NodeJS.ProcessEnv): Promise<ChildOutcome> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, operation], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolvePromise(JSON.parse(line) as ChildOutcome);
      } catch {
        reject(new Error(`child exited ${code} without a result; stderr: ${stderr.slice(0, 2000)}`));
      }
    });
  });
}

function envWithBus(address: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  // Without a bus address libsecret would look for $XDG_RUNTIME_DIR/bus: point that at an empty folder too.
  env.XDG_RUNTIME_DIR = folder;
  if (address !== undefined) env.DBUS_SESSION_BUS_ADDRESS = address;
  return env;
}

function expectAdvice(outcome: ChildOutcome): void {
  expect(outcome.ok).toBe(false);
  expect(outcome.name).toBe('KeychainUnavailableError');
  expect(outcome.kind).toBe('keychainUnavailable');
  expect(outcome.reason).toBe('serviceUnavailable');
  expect(outcome.message).toMatch(/^the OS keychain is not available, so the desk could not [a-z]/);
  expect(outcome.message).toMatch(/Unlock your login keyring/);
  expect(outcome.message).toMatch(/`--credentials FILE`/);
  expect(outcome.message).toMatch(/less safe: the secret and the private key then sit in a plain file/);
}

describe('keychain unavailable', () => {
  it('load() on a dead D-Bus socket says what to do', async () => {
    const outcome = await runChild('load', envWithBus(`unix:path=${join(folder, 'no-such-bus-socket')}`));
    expectAdvice(outcome);
    expect(outcome.message).toMatch(/load profile shop/);
  });

  it('save() on a socket nobody answers on fails cleanly and never shows the secret', async () => {
    const socketPath = join(folder, 'silent-bus');
    const server = createServer((connection) => connection.destroy());
    await new Promise<void>((done) => server.listen(socketPath, done));
    try {
      const secret = 'child-secret-0123456789abcdef';
      const outcome = await runChild('save', { ...envWithBus(`unix:path=${socketPath}`), CHILD_SECRET: secret });
      expectAdvice(outcome);
      expect(outcome.message).not.toContain(secret);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('listProfiles() without any session bus address says what to do', async () => {
    expectAdvice(await runChild('list', envWithBus(undefined)));
  });
});
