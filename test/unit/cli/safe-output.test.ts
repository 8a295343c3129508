// Proves that no CLI output carries a control or text-direction character raw (issue 9, item 10): ESC, U+202E,
// U+2066, C1 U+009B, NUL, CR and tab in a value from the engine, the network or argv are escaped in human output
// (⟨U+XXXX⟩, columns still aligned) and in --json output (\uXXXX: still valid JSON that parses back to the original),
// while ordinary text with newlines and non-Latin letters passes unchanged.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNSAFE_TEXT_CHARACTERS, type ContractEvent, type Page, type Result, type WithdrawalView } from '../../../electron/contract';
import type { Engine } from '../../../electron/core/engine';
import { fields, table } from '../../../electron/cli/format';
import type { CliIo } from '../../../electron/cli/io';
import { jsonText, safeIo, safeJsonDocument } from '../../../electron/cli/safe-output';
import { encryptBytes } from '../../../electron/protocol/cipher';
import { runInProcessPlain } from '../../support/cli';

/** Everything the rule names, plus tab: an ANSI colour, the bidi override and isolate, a C1 CSI, NUL and CR. */
const NASTY = 'pay \u001b[31mred\u001b[0m \u202Eexe.pdf \u2066iso\u2069 \u009b2J nul\u0000 cr\rtab\there \u007f';
const ORDINARY = 'Zürich 東京 — Ünïcödé ok\nsecond line: עברית العربية';

const ANY_UNSAFE = new RegExp(UNSAFE_TEXT_CHARACTERS.source, 'gu');

/** Fails naming the first raw unsafe character, if any. */
function expectNoRawUnsafe(text: string): void {
  const found = [...text.matchAll(ANY_UNSAFE)].map((match) => `U+${(match[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} at ${match.index}`);
  expect(found).toEqual([]);
}

/** NASTY as people see it. */
const NASTY_SHOWN =
  'pay ⟨U+001B⟩[31mred⟨U+001B⟩[0m ⟨U+202E⟩exe.pdf ⟨U+2066⟩iso⟨U+2069⟩ ⟨U+009B⟩2J nul⟨U+0000⟩ cr⟨U+000D⟩tab⟨U+0009⟩here ⟨U+007F⟩';

// ---- a fake engine behind the real commands ---------------------------------------------------------------------

function withdrawal(memo: string, who: string): WithdrawalView {
  return {
    id: '7',
    fingerprint: 'ab12 cd34 ef56 7890',
    verification: { ok: false, countedApprovals: 0, requiredApprovals: 1, problems: [memo] },
    currency: 'trx.usdt',
    amount: '12.5',
    toAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    withdrawType: 'normal',
    memo,
    userOrder: 'wd-7',
    state: 'rejected',
    initiator: who,
    requiredApprovals: 1,
    approvals: [{ operator: who, decision: 'reject', reason: memo, at: Date.UTC(2026, 0, 2), counts: false, note: memo }],
    sentBy: null,
    orderStatus: null,
    outcome: null,
    apiOrder: null,
    fee: null,
    txid: null,
    platformMessage: memo,
    platformRecord: { message: memo, [`note${memo}`]: memo },
    history: [{ status: memo, source: 'callback', observedAt: Date.UTC(2026, 0, 3) }],
    lastError: memo,
    createdAt: Date.UTC(2026, 0, 1),
    updatedAt: Date.UTC(2026, 0, 3),
    stuck: null,
    batch: null,
  };
}

/** What the fake engine answers: set per test. */
const answers: { text: string; failWith: string | null } = { text: NASTY, failWith: null };

function answer(method: string): Result<unknown> {
  // Every command reads the reporting time zone first (the zone its times are printed in).
  if (method === 'session/state') return { ok: true, value: { locked: false, operator: null, lockTimeoutSeconds: 900, reportingTimeZone: 'UTC', profile: 'main', isDemo: false, signsLabelsUntil: null } };
  if (answers.failWith !== null) return { ok: false, error: { code: 'service', message: answers.failWith, serviceReason: answers.failWith } };
  const text = answers.text;
  switch (method) {
    case 'withdrawals/get':
      return { ok: true, value: withdrawal(text, text) };
    case 'withdrawals/list':
      return { ok: true, value: { rows: [withdrawal(text, text)], nextCursor: null } satisfies Page<WithdrawalView> };
    default:
      return { ok: false, error: { code: 'internal', message: `the fake engine does not answer ${method}` } };
  }
}

const fakeEngine: Engine = {
  handlers: new Proxy({} as Engine['handlers'], { get: (_target, method: string) => () => Promise.resolve(answer(method)) }),
  onEvent: (_listener: (event: ContractEvent) => void) => () => undefined,
  warnings: [],
  sendInFlight: () => false,
  close: () => Promise.resolve(),
};

// withSession loads these on demand; nothing of the real engine, keychain or SQLite is touched.
vi.mock('../../../electron/core/engine', () => ({ createEngine: () => Promise.resolve(fakeEngine) }));
vi.mock('../../../electron/core/secrets', () => ({ KeychainVault: class {} }));
vi.mock('../../../electron/core/store/paths', () => ({ defaultDatabasePath: () => '/nonexistent/treasury.sqlite' }));
vi.mock('../../../electron/core/kernel/errors', () => ({ toContractError: () => ({ code: 'internal', message: 'fake' }) }));

afterEach(() => {
  answers.text = NASTY;
  answers.failWith = null;
});

describe('engine answers in human output', () => {
  it('withdraw status: memo, initiator, reason, platform status and last error are escaped, the fields stay aligned', async () => {
    const run = await runInProcessPlain(['withdraw', 'status', '7']);
    expect(run.code).toBe(0);
    expectNoRawUnsafe(run.stdout);
    expect(run.stdout).toContain(`memo          ${NASTY_SHOWN}\n`);
    expect(run.stdout).toContain(`initiator     ${NASTY_SHOWN}\n`);
    expect(run.stdout).toContain(`last error    ${NASTY_SHOWN}\n`);
    expect(run.stdout).toContain(`rejected by ${NASTY_SHOWN}: ${NASTY_SHOWN}\n`);
    expect(run.stdout).toContain(`${NASTY_SHOWN} (from callback)\n`);
    // The platform's remark, labelled as such, and every field of its record (names too) are text from the network.
    expect(run.stdout).toContain(`platform's remark (text from the service): ${NASTY_SHOWN}\n`);
    expect(run.stdout).toContain(`  message: ${NASTY_SHOWN}\n  note${NASTY_SHOWN}: ${NASTY_SHOWN}\n`);
  });

  it('withdraw list: table cells are escaped before they are measured, so the columns line up', async () => {
    const run = await runInProcessPlain(['withdraw', 'list']);
    expect(run.code).toBe(0);
    expectNoRawUnsafe(run.stdout);
    expect(run.stdout).toContain(NASTY_SHOWN);
    const [header, row] = run.stdout.split('\n');
    // The column after the escaped initiator starts at the same place in the header and the row.
    expect(row?.indexOf('0/1')).toBe(header?.indexOf('approvals'));
  });

  it('an engine error message (a platform reason) is one escaped line on stderr', async () => {
    answers.failWith = `the service said: ${NASTY}`;
    const run = await runInProcessPlain(['withdraw', 'status', '7']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expectNoRawUnsafe(run.stderr);
    expect(run.stderr).toMatch(/^treasury-desk: service: the service said: [^\n]+\n$/);
    expect(run.stderr).toContain('⟨U+001B⟩[31mred');
    expect(run.stderr).toContain('⟨U+202E⟩exe.pdf');
  });

  it('ordinary text (non-Latin letters) is shown unchanged', async () => {
    answers.text = 'Zürich 東京 — עברית';
    const run = await runInProcessPlain(['withdraw', 'status', '7']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('memo          Zürich 東京 — עברית\n');
    expect(run.stdout).not.toContain('⟨');
  });
});

describe('engine answers in --json output', () => {
  it.each([
    [['withdraw', 'status', '7', '--json']],
    [['withdraw', 'list', '--json']],
  ])('%j: no raw unsafe character, and the JSON parses back to the exact original strings', async (args) => {
    const run = await runInProcessPlain(args);
    expect(run.code).toBe(0);
    expectNoRawUnsafe(run.stdout);
    const parsed = JSON.parse(run.stdout) as unknown;
    const method = args[1] === 'list' ? 'withdrawals/list' : 'withdrawals/get';
    expect(parsed).toEqual((answer(method) as { value: unknown }).value);
  });

  it('ordinary text with newlines and non-Latin letters comes back byte for byte', async () => {
    answers.text = ORDINARY;
    const run = await runInProcessPlain(['withdraw', 'status', '7', '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(withdrawal(ORDINARY, ORDINARY), null, 2)}\n`);
    expect((JSON.parse(run.stdout) as WithdrawalView).memo).toBe(ORDINARY);
  });
});

describe('values from argv and the network, without an engine', () => {
  it('a usage error quoting a typed value escapes it', async () => {
    const run = await runInProcessPlain(['deposits', 'list', '--from', `2024\u001b[2J\u202E`]);
    expect(run.code).toBe(2);
    expectNoRawUnsafe(run.stderr);
    // The value is quoted with JSON.stringify (which writes ESC as \u001b); what it leaves raw is escaped for people.
    expect(run.stderr).toContain('got "2024\\u001b[2J⟨U+202E⟩"');
  });

  it("commander's own errors (an unknown option) are escaped too", async () => {
    const run = await runInProcessPlain(['withdraw', 'list', '--x\u009b\u2066']);
    expect(run.code).toBe(2);
    expectNoRawUnsafe(run.stderr);
    expect(run.stderr).toContain("unknown option '--x⟨U+009B⟩⟨U+2066⟩'");
  });

  it('wire decrypt: a decrypted document with unsafe characters prints as JSON that parses to the same value', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const dir = mkdtempSync(join(tmpdir(), 'safe-output-'));
    try {
      const keyPath = join(dir, 'private.pem');
      writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }));
      // Raw DEL, C1 and bidi inside strings (legal JSON), tab and CRLF between tokens, an escaped ESC left as it is.
      const plaintext = `{\r\n\t"memo": ${JSON.stringify(NASTY)},\r\n\t"amount": 1.50,\r\n\t"city": "Zürich 東京"\r\n}`;
      const value = JSON.parse(plaintext) as { memo: string };
      expect(value.memo).toBe(NASTY);
      const run = await runInProcessPlain(['wire', 'decrypt', '--private-key', keyPath], { stdin: encryptBytes(Buffer.from(plaintext, 'utf8'), publicKey) });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expectNoRawUnsafe(run.stdout);
      expect(JSON.parse(run.stdout)).toEqual(value);
      // Not re-serialised: the number keeps its trailing zero, the non-Latin text is unchanged.
      expect(run.stdout).toContain('"amount": 1.50');
      expect(run.stdout).toContain('"city": "Zürich 東京"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ordinary output with newlines is unchanged (help text)', async () => {
    const run = await runInProcessPlain(['withdraw', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').length).toBeGreaterThan(5);
    expect(run.stdout).not.toContain('⟨');
  });
});

describe('the building blocks', () => {
  it('jsonText escapes what JSON.stringify leaves raw (DEL, C1, bidi) and parses back to the original', () => {
    const value = { memo: NASTY, [`key\u202E`]: ['\u0085', ORDINARY] };
    for (const text of [jsonText(value), jsonText(value, 2)]) {
      expectNoRawUnsafe(text);
      expect(JSON.parse(text)).toEqual(value);
    }
    expect(jsonText({ city: ORDINARY }, 2)).toBe(JSON.stringify({ city: ORDINARY }, null, 2));
    expect(jsonText(undefined)).toBe('null');
  });

  it('safeJsonDocument keeps the JSON value and leaves safe documents byte for byte', () => {
    const document = '{"a":"\u202E\u0085\u007f","b":"\\"\\\\\u2066","c":[1,\t2]}';
    const safe = safeJsonDocument(document);
    expectNoRawUnsafe(safe);
    expect(JSON.parse(safe)).toEqual(JSON.parse(document));
    const ordinary = JSON.stringify({ city: ORDINARY, n: 1.5 }, null, 2);
    expect(safeJsonDocument(ordinary)).toBe(ordinary);
  });

  it('table and fields escape cells and keep the columns aligned; ordinary cells are unchanged', () => {
    const text = table(['name', 'role'], [[`a\u001bb`, 'admin'], ['Zürich', 'viewer']]);
    expect(text).toBe('name        role\na⟨U+001B⟩b  admin\nZürich      viewer\n');
    expect(fields([[`memo`, `x\u202Ey`], ['city', '東京']])).toBe('memo  x⟨U+202E⟩y\ncity  東京\n');
  });

  it('safeIo escapes stdout, stderr and prompt questions, keeps newlines, and wraps only once', async () => {
    const written: string[] = [];
    const questions: string[] = [];
    const inner: CliIo = {
      stdin: () => Promise.resolve(''),
      stdout: (text) => written.push(`out:${text}`),
      stderr: (text) => written.push(`err:${text}`),
      env: { A: '1' },
      stdinIsTTY: true,
      prompt: (question) => {
        questions.push(question);
        return Promise.resolve('typed');
      },
    };
    const io = safeIo(inner);
    expect(safeIo(io)).toBe(io);
    io.stdout(`${NASTY}\n${ORDINARY}\n`);
    io.stderr('\u009b\n');
    expect(await io.prompt?.(`Passphrase of \u202Eevil: `, { hidden: true })).toBe('typed');
    expect(written).toEqual([`out:${NASTY_SHOWN}\n${ORDINARY}\n`, 'err:⟨U+009B⟩\n']);
    expect(questions).toEqual(['Passphrase of ⟨U+202E⟩evil: ']);
    expect(io.env).toEqual({ A: '1' });
    expect(io.stdinIsTTY).toBe(true);
  });

});
