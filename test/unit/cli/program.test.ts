// The `treasury-desk` shell without an engine: bare command groups and unknown commands are one-line usage errors
// (exit 2), commander's own errors carry the `treasury-desk: ` prefix, help exits 0, global options work before or
// after the command; plus the pure helpers (field labels, tables, ISO times, secret input).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDuration, parseIsoTime, typedTimeToMs } from '../../../electron/cli/args';
import { askInvitationCode, askNewPassphrase, askPassphrase, fieldLabel, secretInput } from '../../../electron/cli/engine-session';
import { ContractFailure, UsageError } from '../../../electron/cli/errors';
import { differenceMarks, fields, formatTime, table } from '../../../electron/cli/format';
import type { CliIo } from '../../../electron/cli/io';
import { runInProcessPlain, type Captured } from '../../support/cli';

function run(...args: string[]): Promise<Captured> {
  return runInProcessPlain(args);
}

function usageLine(result: Captured): string {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^treasury-desk: [^\n]+\n$/);
  return result.stderr.slice(0, -1);
}

const GROUPS: readonly (readonly [string, string])[] = [
  ['profile', 'add, import, keygen, list, use, remove, propose-add or propose-remove'],
  ['deposits', 'list or export'],
  ['address', 'create, list, qr or validate'],
  ['operator', 'found, invite, accept, confirm, withdraw-proposal, groups, group, role, disable, rekey, passphrase, device or list'],
  ['withdraw', 'preflight, request, approve, reject, cancel, submit, status, show, list or export'],
  ['policy', 'list, set or test'],
  ['sending', 'status, freeze or unfreeze'],
  ['audit', 'list, verify, anchor, head, checkpoint, export or pack'],
  ['callbacks', 'listen'],
  ['settings', 'show, timezone or stuck-thresholds'],
  ['wire', 'encrypt, decrypt, sign or verify'],
];

describe('--version', () => {
  it('prints the version of package.json and exits 0, without opening a desk', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ['--version', '-V']) {
      const result = await run(flag);
      expect(result).toMatchObject({ code: 0, stdout: `treasury-desk ${version}\n`, stderr: '' });
    }
  });
});

describe('settings timezone usage', () => {
  it('a zone without --as, or --as without a zone, is a usage error before any desk is opened', async () => {
    expect(usageLine(await run('settings', 'timezone', 'Europe/Berlin'))).toBe('treasury-desk: changing the reporting time zone needs --as ADMIN (an admin signs the change).');
    expect(usageLine(await run('settings', 'timezone', '--as', 'alice'))).toMatch(/^treasury-desk: name the time zone to set/);
  });
});

describe('stuck orders usage', () => {
  it('durations, a change without --as and --stuck with a state are usage errors before any desk is opened', async () => {
    expect(usageLine(await run('settings', 'stuck-thresholds', '--pending-transfer', '2 hours', '--as', 'alice'))).toBe(
      'treasury-desk: --pending-transfer must be a duration such as 30m, 2h, 1h30m or 1d; got "2 hours".',
    );
    expect(usageLine(await run('settings', 'stuck-thresholds', '--pending-transfer', '2h'))).toBe('treasury-desk: changing the stuck thresholds needs --as ADMIN (an admin signs the change).');
    expect(usageLine(await run('settings', 'stuck-thresholds', '--as', 'alice'))).toMatch(/^treasury-desk: name a threshold to change/);
    expect(usageLine(await run('withdraw', 'list', '--stuck', '--state', 'submitted'))).toBe('treasury-desk: --stuck lists every stuck order at once: leave out --state and --cursor.');
  });

  it('reads durations in days, hours and minutes', () => {
    expect(['30m', '45min', '2h', '1h30m', '1d', '1d2h3m', '0m'].map((text) => parseDuration(text, '--x'))).toEqual([
      1_800_000, 2_700_000, 7_200_000, 5_400_000, 86_400_000, 93_780_000, 0,
    ]);
    for (const bad of ['', '2', 'h', '1.5h', '-1h', '2m1h']) expect(() => parseDuration(bad, '--x')).toThrow(UsageError);
  });
});

describe('command groups and unknown commands', () => {
  it.each(GROUPS)('a bare "%s" is a one-line usage error naming its subcommands', async (group, subcommands) => {
    expect(usageLine(await run(group))).toBe(`treasury-desk: ${group} needs a subcommand: ${subcommands} (see "treasury-desk ${group} --help").`);
  });

  it('an unknown subcommand names the group and the choices', async () => {
    expect(usageLine(await run('withdraw', 'approv', '7'))).toBe(
      `treasury-desk: unknown command 'withdraw approv': use preflight, request, approve, reject, cancel, submit, status, show, list or export (see "treasury-desk withdraw --help").`,
    );
  });

  it('no command at all, or an unknown one, is a usage error', async () => {
    expect(usageLine(await run())).toMatch(/^treasury-desk: a command is needed: profile, selfcheck, connection, sync, balances, currencies, merchant, deposits, /);
    expect(usageLine(await run('frobnicate'))).toMatch(/^treasury-desk: unknown command 'frobnicate': use profile, selfcheck, /);
  });

  it("commander's own errors are one line with the treasury-desk prefix", async () => {
    expect(usageLine(await run('withdraw', 'approve', '7'))).toBe("treasury-desk: required option '--as <operator>' not specified");
    expect(usageLine(await run('withdraw', 'submit', '7'))).toBe("treasury-desk: required option '--as <operator>' not specified");
    expect(usageLine(await run('operator', 'found'))).toBe("treasury-desk: required option '--admin <name>' not specified");
    expect(usageLine(await run('operator', 'invite', 'erin', '--as', 'alice'))).toBe("treasury-desk: required option '--role <role>' not specified");
    expect(usageLine(await run('operator', 'role', 'erin', '--as', 'alice'))).toBe("treasury-desk: missing required argument 'role'");
    expect(usageLine(await run('audit', 'checkpoint'))).toBe("treasury-desk: required option '--out <file>' not specified");
    expect(usageLine(await run('withdraw', 'list', '--jsn'))).toBe("treasury-desk: unknown option '--jsn' (Did you mean --json?)");
    expect(usageLine(await run('withdraw', 'status'))).toBe("treasury-desk: missing required argument 'id'");
    expect(usageLine(await run('deposits', 'list', '--limit', 'many'))).toBe("treasury-desk: option '--limit <n>' argument 'many' is invalid. a whole number from 1 to 1000 is expected.");
    expect(usageLine(await run('callbacks', 'listen', '--port', '70000'))).toMatch(/^treasury-desk: option '--port <port>' argument '70000' is invalid/);
  });

  it('help exits 0 on stdout, for the program, a group and a command', async () => {
    const top = await run('--help');
    expect(top.code).toBe(0);
    for (const command of ['profile', 'selfcheck', 'sync', 'balances', 'currencies', 'deposits', 'address', 'operator', 'withdraw', 'reconcile', 'statement', 'policy', 'audit', 'callbacks', 'demo']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(top.stdout).toContain('--credentials <file>');
    const group = await run('withdraw', '--help');
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('approve [options] <id>');
    const command = await run('help', 'policy');
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('Usage: treasury-desk policy');
    const leaf = await run('withdraw', 'request', '--help');
    expect(leaf).toMatchObject({ code: 0, stderr: '' });
    expect(leaf.stdout).toContain('--as <operator>');
    expect(leaf.stdout).toContain('--db <path>');
  });

  it('--json works before or after the command (address validate answers JSON either way)', async () => {
    const tron = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
    for (const args of [
      ['--json', 'address', 'validate', '--chain', 'trx', tron],
      ['address', 'validate', '--json', '--chain', 'trx', tron],
      ['address', 'validate', '--chain', 'trx', tron, '--json'],
    ]) {
      const result = await run(...args);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, chain: 'trx' });
    }
  });
});

describe('contract errors on the command line', () => {
  it('keep their code in the line; invalidInput is exit 2, every other code exit 1', () => {
    const forbidden = new ContractFailure({ code: 'forbidden', message: 'bob is an approver and may not change withdrawal policies' });
    expect(forbidden.message).toBe('forbidden: bob is an approver and may not change withdrawal policies');
    expect(forbidden.exitCode).toBe(1);
    expect(new ContractFailure({ code: 'invalidInput', message: 'x' }).exitCode).toBe(2);
    expect(new ContractFailure({ code: 'offline', message: 'x' }).exitCode).toBe(1);
    // Refusals of issue 9: too many wrong passphrases, and statements that do not support the decision.
    expect(new ContractFailure({ code: 'lockedOut', message: 'x' }).exitCode).toBe(1);
    expect(new ContractFailure({ code: 'unverified', message: 'withdrawal 7 cannot be submitted: bob rejected it' }).message).toBe(
      'unverified: withdrawal 7 cannot be submitted: bob rejected it',
    );
    expect(new ContractFailure({ code: 'unverified', message: 'x' }).exitCode).toBe(1);
  });

  it('name request fields by the option they came from', () => {
    expect(fieldLabel('toAddress', { toAddress: '--to' })).toBe('--to');
    expect(fieldLabel('currency')).toBe('--currency');
    expect(fieldLabel('addressType')).toBe('--address-type');
    expect(fieldLabel('as.operator')).toBe('--as');
    expect(fieldLabel('as.passphrase')).toBe('the passphrase');
    expect(fieldLabel('passphrase')).toBe('the new passphrase');
    expect(fieldLabel('credentials.baseUrl')).toBe('--base-url');
    expect(fieldLabel('thresholds.0.approvals', { thresholds: '--threshold' })).toBe('--threshold');
  });
});

describe('secret input', () => {
  const io = (options: Partial<CliIo>): CliIo => ({ stdin: () => Promise.resolve(''), stdout: () => undefined, stderr: () => undefined, env: {}, ...options });

  it('comes from the environment when stdin is not a terminal, and is a usage error when missing', async () => {
    expect(await askPassphrase(io({ env: { TREASURY_DESK_PASSPHRASE: 'from env 123' } }), 'bob')).toBe('from env 123');
    await expect(askPassphrase(io({}), 'bob')).rejects.toThrow(UsageError);
    await expect(askPassphrase(io({}), 'bob')).rejects.toThrow('the passphrase of bob is needed: type it at a terminal, or set TREASURY_DESK_PASSPHRASE when stdin is not a terminal.');
  });

  it('comes from a hidden prompt on a terminal, even when the variable is set; empty is refused', async () => {
    const asked: string[] = [];
    const terminal = io({
      stdinIsTTY: true,
      env: { TREASURY_DESK_SECRET: 'ignored' },
      prompt: (question, options) => {
        asked.push(`${question}|${String(options.hidden)}`);
        return Promise.resolve(asked.length === 1 ? 'typed secret' : '');
      },
    });
    expect(await secretInput(terminal, { question: 'Secret: ', envVar: 'TREASURY_DESK_SECRET', what: 'the secret' })).toBe('typed secret');
    await expect(secretInput(terminal, { question: 'Secret: ', envVar: 'TREASURY_DESK_SECRET', what: 'the secret' })).rejects.toThrow('the secret is empty.');
    expect(asked).toEqual(['Secret: |true', 'Secret: |true']);
  });

  it('a new passphrase is typed twice on a terminal and must match', async () => {
    const answers = ['first passphrase', 'other passphrase'];
    const terminal = io({ stdinIsTTY: true, prompt: () => Promise.resolve(answers.shift() ?? '') });
    await expect(askNewPassphrase(terminal, 'erin')).rejects.toThrow('the two passphrases typed differ');
    expect(await askNewPassphrase(io({ env: { TREASURY_DESK_NEW_PASSPHRASE: 'new one 12345' } }), 'erin')).toBe('new one 12345');
  });

  it("the second founding admin's new passphrase comes from its own variable; the invitation code from TREASURY_DESK_INVITATION_CODE", async () => {
    const env = { TREASURY_DESK_NEW_PASSPHRASE: 'first admin 123', TREASURY_DESK_NEW_PASSPHRASE_2: 'second admin 456', TREASURY_DESK_INVITATION_CODE: 'ABCD-EFGH-IJKL-M' };
    expect(await askNewPassphrase(io({ env }), 'frank', 'TREASURY_DESK_NEW_PASSPHRASE_2')).toBe('second admin 456');
    await expect(askNewPassphrase(io({}), 'frank', 'TREASURY_DESK_NEW_PASSPHRASE_2')).rejects.toThrow(
      'a new passphrase for frank is needed: type it at a terminal, or set TREASURY_DESK_NEW_PASSPHRASE_2 when stdin is not a terminal.',
    );
    expect(await askInvitationCode(io({ env }), 'erin')).toBe('ABCD-EFGH-IJKL-M');
    const asked: string[] = [];
    const terminal = io({ stdinIsTTY: true, env, prompt: (question, options) => (asked.push(`${question}|${String(options.hidden)}`), Promise.resolve('TYPED-CODE')) });
    expect(await askInvitationCode(terminal, 'erin')).toBe('TYPED-CODE');
    expect(asked).toEqual(['Invitation code for erin: |true']);
  });
});

describe('text output', () => {
  it('aligns table columns, right-aligning money without touching its digits', () => {
    const text = table(
      ['currency', 'available'],
      [
        ['trx.usdt', '5000'],
        ['eth', '0.000000000000000001'],
      ],
      ['left', 'right'],
    );
    expect(text).toBe('currency             available\ntrx.usdt                  5000\neth       0.000000000000000001\n');
  });

  it('pads field labels, formats times in the reporting zone with its offset, and marks differing positions', () => {
    expect(fields([['a', '1'], ['longer', '2']])).toBe('a       1\nlonger  2\n');
    expect(formatTime(Date.UTC(2024, 4, 1, 12, 30, 5, 123), 'UTC')).toBe('2024-05-01 12:30:05Z');
    expect(formatTime(Date.UTC(2024, 4, 1, 12, 30, 5, 123), 'Europe/Berlin')).toBe('2024-05-01 14:30:05+02:00');
    expect(formatTime(Date.UTC(2024, 0, 1, 3, 0, 0), 'America/New_York')).toBe('2023-12-31 22:00:00-05:00');
    expect(formatTime(Date.UTC(2024, 0, 1, 12), 'Europe/London')).toBe('2024-01-01 12:00:00+00:00');
    expect(formatTime(null, 'UTC')).toBe('-');
    expect(differenceMarks('abcd', 'abXd', [2], '')).toBe('known  abcd\ntyped  abXd\n         ^\n');
  });

  it('parses ISO dates and times in the reporting zone unless they carry an offset, and refuses anything else', () => {
    expect(typedTimeToMs(parseIsoTime('2024-05-01', '--from'), 'UTC')).toBe(Date.UTC(2024, 4, 1));
    expect(typedTimeToMs(parseIsoTime('2024-05-01T12:00', '--from'), 'UTC')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(typedTimeToMs(parseIsoTime('2024-05-01 12:00:00Z', '--from'), 'UTC')).toBe(Date.UTC(2024, 4, 1, 12));
    expect(typedTimeToMs(parseIsoTime('2024-05-01T12:00:00+02:00', '--from'), 'UTC')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(typedTimeToMs(parseIsoTime('2024-05-01T12:00:00.250-0330', '--from'), 'UTC')).toBe(Date.UTC(2024, 4, 1, 15, 30, 0, 250));
    // Without an offset, the reporting zone decides: midnight in Berlin (summer) is 22:00 UTC the day before.
    expect(typedTimeToMs(parseIsoTime('2024-05-01', '--from'), 'Europe/Berlin')).toBe(Date.UTC(2024, 3, 30, 22));
    expect(typedTimeToMs(parseIsoTime('2024-12-01 09:15', '--from'), 'Asia/Kolkata')).toBe(Date.UTC(2024, 11, 1, 3, 45));
    expect(typedTimeToMs(parseIsoTime('2024-05-01T12:00:00Z', '--from'), 'Europe/Berlin')).toBe(Date.UTC(2024, 4, 1, 12));
    for (const bad of ['yesterday', '1714564800', '2024-13-45', '2024-02-30', '2024-05-01T24:00', '05/01/2024']) {
      expect(() => parseIsoTime(bad, '--from')).toThrow(UsageError);
    }
  });
});
