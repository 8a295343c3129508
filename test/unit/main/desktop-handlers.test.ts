// The desktop methods over a stubbed DesktopShell and a fake engine: dialogs decide every path, a cancel changes
// nothing, answers name the file and never its folder, explorer links come only from the table, the clipboard gets
// exactly the text, a statement is printed before its save dialog and its PDF handed to the engine, and the workstation
// preferences (the tray choice, the window's language) survive a damaged file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchWindowCall as dispatchWithReporter, fail, METHOD_NAMES, ok, type Result, type TreasuryHandlers, type WindowHandlers } from '../../../electron/contract';
import { createDesktopHandlers, type DesktopShell, type OpenDialogRequest, type SaveDialogRequest } from '../../../electron/main/desktop-handlers';
import { DESKTOP_PREFERENCES_FILE, desktopPreferencesIn } from '../../../electron/main/desktop-preferences';

const TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const TXID = 'a'.repeat(64);

/** Handlers that threw instead of answering (the IPC would log them): none may, checked after each test. */
let unexpectedFailures: string[] = [];

/** The window's dispatch as IPC runs it, recording any handler that throws. */
function dispatchWindowCall(handlers: WindowHandlers, method: unknown, payload: unknown): Promise<Result<unknown>> {
  return dispatchWithReporter(handlers, method, payload, (failed, error) => unexpectedFailures.push(`${failed}: ${String(error)}`));
}

let folder: string;
let engineCalls: Array<{ method: string; request: unknown }>;
let engineAnswer: (method: string, request: Record<string, unknown>) => Result<unknown>;

function fakeEngine(): TreasuryHandlers {
  const entries = METHOD_NAMES.map((method) => [
    method,
    async (request: Record<string, unknown>) => {
      engineCalls.push({ method, request });
      return engineAnswer(method, request);
    },
  ]);
  return Object.fromEntries(entries) as unknown as TreasuryHandlers;
}

function fakeShell(answers: { save?: string | null; open?: string | null } = {}) {
  const saves: SaveDialogRequest[] = [];
  const opens: OpenDialogRequest[] = [];
  const shell = {
    writeClipboardText: vi.fn<(text: string) => void>(),
    showSaveDialog: vi.fn(async (request: SaveDialogRequest) => {
      saves.push(request);
      return answers.save === undefined ? join(folder, 'chosen', request.defaultName) : answers.save;
    }),
    showOpenDialog: vi.fn(async (request: OpenDialogRequest) => {
      opens.push(request);
      return answers.open ?? null;
    }),
    openExternal: vi.fn(async () => undefined),
    showNotification: vi.fn(),
    showMainWindow: vi.fn(),
    printHtmlToPdf: vi.fn(async (html: string) => new TextEncoder().encode(`%PDF of ${html.length} characters`)),
  } satisfies DesktopShell;
  return { shell, saves, opens };
}

function windowHandlers(shell: DesktopShell): WindowHandlers {
  const engine = fakeEngine();
  const desktop = createDesktopHandlers({ shell, engine, preferences: desktopPreferencesIn(folder), now: () => new Date('2026-11-23T10:00:00Z') });
  return { ...engine, ...desktop };
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'td-desktop-'));
  engineCalls = [];
  engineAnswer = (method, request) => {
    if (method === 'deposits/exportCsv' || method === 'audit/export') return ok({ rows: 7, path: request['path'] });
    if (method === 'audit/checkpoint') return ok({ path: request['path'], seq: 12, fingerprint: 'ABCD-EFGH-JKMN-PQRS' });
    if (method === 'audit/verify') return ok({ ok: true, rows: 12, head: null });
    if (method === 'profiles/importFile') return ok({ name: request['name'] });
    if (method === 'withdrawals/exportCsv') return ok({ rows: 3, path: request['path'] });
    if (method === 'statements/exportCsv') return ok({ currencies: 2, path: request['path'], statement: {} });
    if (method === 'statements/html') return ok({ html: '<p>statement</p>', statement: {} });
    if (method === 'audit/head') return ok({ head: { seq: 12, hash: 'f'.repeat(64), fingerprint: 'ABCD-EFGH-JKMN-PQRS' } });
    if (method === 'accounting/export') return ok({ path: request['path'], format: request['format'], records: 2, journals: 1, lines: 7, timeZone: 'UTC', auditHead: { seq: 12, fingerprint: 'ABCD-EFGH-JKMN-PQRS' } });
    if (method === 'audit/pack') return ok({ path: request['path'], rows: 23, auditHead: { seq: 23, hash: 'e'.repeat(64), fingerprint: 'ABCD-EFGH-JKMN-PQRS' } });
    if (method === 'statements/savePdf') return ok({ bytes: Buffer.from(String(request['pdf']), 'base64').length, path: request['path'] });
    return fail('internal', `unexpected ${method}`);
  };
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  expect(unexpectedFailures).toEqual([]);
  unexpectedFailures = [];
});

describe('file dialogs', () => {
  it('exports deposits to the file chosen in the save dialog, with the filter, answering its name only', async () => {
    const { shell, saves } = fakeShell();
    const handlers = windowHandlers(shell);
    const answer = await dispatchWindowCall(handlers, 'desktop/exportDepositsCsv', { currency: 'trx.usdt', search: 'abc' });
    expect(answer).toEqual(ok({ cancelled: false, fileName: 'deposits-2026-11-23.csv', value: { rows: 7 } }));
    expect(saves).toEqual([{ purpose: 'depositsCsv', title: 'Export deposits as CSV', defaultName: 'deposits-2026-11-23.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] }]);
    expect(engineCalls).toEqual([{ method: 'deposits/exportCsv', request: { currency: 'trx.usdt', search: 'abc', path: join(folder, 'chosen', 'deposits-2026-11-23.csv') } }]);
    expect(JSON.stringify(answer)).not.toContain(folder);
  });

  it('does nothing when the person cancels a save or an open dialog', async () => {
    const { shell } = fakeShell({ save: null, open: null });
    const handlers = windowHandlers(shell);
    for (const method of ['desktop/exportDepositsCsv', 'desktop/exportAudit', 'desktop/saveCheckpoint', 'desktop/verifyAuditAgainst'] as const) {
      expect(await dispatchWindowCall(handlers, method, {})).toEqual(ok({ cancelled: true }));
    }
    expect(await dispatchWindowCall(handlers, 'desktop/importProfile', { name: 'main' })).toEqual(ok({ cancelled: true }));
    expect(engineCalls).toEqual([]);
  });

  it('saves a checkpoint and the audit log, and takes the folder out of what the window sees', async () => {
    const { shell } = fakeShell();
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/saveCheckpoint', {})).toEqual(
      ok({ cancelled: false, fileName: 'audit-checkpoint-2026-11-23.json', value: { seq: 12, fingerprint: 'ABCD-EFGH-JKMN-PQRS' } }),
    );
    expect(await dispatchWindowCall(handlers, 'desktop/exportAudit', {})).toEqual(ok({ cancelled: false, fileName: 'audit-2026-11-23.jsonl', value: { rows: 7 } }));
    engineAnswer = (_method, request) => fail('invalidInput', `could not write ${String(request['path'])}: permission denied`);
    const refused = await dispatchWindowCall(handlers, 'desktop/exportAudit', {});
    expect(refused).toEqual(fail('invalidInput', 'could not write audit-2026-11-23.jsonl: permission denied'));
  });

  it('exports the filtered audit view in the file type chosen in the save dialog', async () => {
    const csvFile = join(folder, 'kept', 'audit view.CSV');
    const { shell, saves } = fakeShell({ save: csvFile });
    const handlers = windowHandlers(shell);
    const filter = { operator: 'bob', action: 'withdrawals/approve', request: '12', from: 1, to: 2, search: 'usdt' };
    expect(await dispatchWindowCall(handlers, 'desktop/exportAudit', filter)).toEqual(ok({ cancelled: false, fileName: 'audit view.CSV', value: { rows: 7 } }));
    expect(saves.map((request) => request.filters.map((type) => type.extensions.join()))).toEqual([['jsonl', 'csv']]);
    const jsonl = fakeShell();
    expect(await dispatchWindowCall(windowHandlers(jsonl.shell), 'desktop/exportAudit', { search: 'usdt' })).toEqual(ok({ cancelled: false, fileName: 'audit-2026-11-23.jsonl', value: { rows: 7 } }));
    expect(engineCalls).toEqual([
      { method: 'audit/export', request: { ...filter, path: csvFile, format: 'csv' } },
      { method: 'audit/export', request: { search: 'usdt', path: join(folder, 'chosen', 'audit-2026-11-23.jsonl'), format: 'jsonl' } },
    ]);
    expect(await dispatchWindowCall(handlers, 'desktop/exportAudit', { path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('verifies against, and imports, the file chosen in the open dialog', async () => {
    const checkpoint = join(folder, 'kept', 'checkpoint.json');
    const { shell, opens } = fakeShell({ open: checkpoint });
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/verifyAuditAgainst', {})).toEqual(ok({ cancelled: false, fileName: 'checkpoint.json', value: { ok: true, rows: 12, head: null } }));
    expect(await dispatchWindowCall(handlers, 'desktop/importProfile', { name: 'main' })).toEqual(ok({ cancelled: false, fileName: 'checkpoint.json', value: { name: 'main' } }));
    expect(engineCalls).toEqual([
      { method: 'audit/verify', request: { against: checkpoint } },
      { method: 'profiles/importFile', request: { name: 'main', path: checkpoint } },
    ]);
    expect(opens.map((request) => request.purpose)).toEqual(['auditCheckpointToVerify', 'credentials']);
  });

  it('exports withdrawals and a statement as CSV to the files chosen, with the period as the window gave it', async () => {
    const { shell, saves } = fakeShell();
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/exportWithdrawalsCsv', { state: 'submitted' })).toEqual(
      ok({ cancelled: false, fileName: 'withdrawals-2026-11-23.csv', value: { rows: 3 } }),
    );
    const period = { from: 1_000, to: 2_000, timeZone: 'Europe/Berlin' };
    expect(await dispatchWindowCall(handlers, 'desktop/exportStatementCsv', period)).toEqual(ok({ cancelled: false, fileName: 'statement-2026-11-23.csv', value: { currencies: 2 } }));
    expect(saves.map((request) => request.purpose)).toEqual(['withdrawalsCsv', 'statementCsv']);
    expect(engineCalls).toEqual([
      { method: 'withdrawals/exportCsv', request: { state: 'submitted', path: join(folder, 'chosen', 'withdrawals-2026-11-23.csv') } },
      { method: 'statements/exportCsv', request: { ...period, path: join(folder, 'chosen', 'statement-2026-11-23.csv') } },
    ]);
  });

  it('saves the auditor pack of the period the window gave to the JSON file chosen; the window names no path', async () => {
    const { shell, saves } = fakeShell();
    const period = { from: 1_000, to: 2_000, timeZone: 'UTC' };
    expect(await dispatchWindowCall(windowHandlers(shell), 'desktop/exportAuditPack', period)).toEqual(
      ok({ cancelled: false, fileName: 'auditor-pack-2026-11-23.json', value: { rows: 23, fingerprint: 'ABCD-EFGH-JKMN-PQRS' } }),
    );
    expect(saves.map((request) => request.purpose)).toEqual(['auditPack']);
    expect(engineCalls).toEqual([{ method: 'audit/pack', request: { ...period, path: join(folder, 'chosen', 'auditor-pack-2026-11-23.json') } }]);
  });

  it('exports accounting journals: the mapping from the file opened, the journals to the file saved, named with the audit fingerprint', async () => {
    const mappingFile = join(folder, 'mapping.csv');
    writeFileSync(mappingFile, 'kind,key,account\nclearing,,1290\nfees,,6120\n');
    const { shell, saves, opens } = fakeShell({ open: mappingFile });
    const handlers = windowHandlers(shell);
    const period = { from: 1_000, to: 2_000, timeZone: 'Pacific/Auckland', format: 'xero' };
    const answer = await dispatchWindowCall(handlers, 'desktop/exportAccounting', period);
    const fileName = 'xero-journals-2026-11-23-ABCDEFGHJKMNPQRS.csv';
    expect(answer).toEqual(ok({ cancelled: false, fileName, value: { format: 'xero', records: 2, journals: 1, lines: 7, timeZone: 'UTC', auditHead: { seq: 12, fingerprint: 'ABCD-EFGH-JKMN-PQRS' } } }));
    expect(opens.map((request) => request.purpose)).toEqual(['accountingMapping']);
    expect(saves.map((request) => request.purpose)).toEqual(['accountingExport']);
    expect(engineCalls).toEqual([
      { method: 'audit/head', request: {} },
      { method: 'accounting/export', request: { ...period, mapping: 'kind,key,account\nclearing,,1290\nfees,,6120\n', path: join(folder, 'chosen', fileName) } },
    ]);
    // A window may not name the file itself, nor does it learn the folder of an unreadable mapping.
    expect((await dispatchWindowCall(handlers, 'accounting/export', { ...period, mapping: '', path: '/tmp/x.csv' })).ok).toBe(false);
    const missing = await dispatchWindowCall(windowHandlers(fakeShell({ open: join(folder, 'gone.csv') }).shell), 'desktop/exportAccounting', period);
    expect(missing.ok).toBe(false);
    expect(JSON.stringify(missing)).toContain('gone.csv');
    expect(JSON.stringify(missing)).not.toContain(folder);
    expect(await dispatchWindowCall(windowHandlers(fakeShell({ open: null }).shell), 'desktop/exportAccounting', period)).toEqual(ok({ cancelled: true }));
  });

  it('prints a statement to PDF, then has the engine save those bytes to the file chosen; a refused period asks nothing', async () => {
    const { shell, saves } = fakeShell();
    const handlers = windowHandlers(shell);
    const period = { from: 1_000, to: 2_000 };
    const answer = await dispatchWindowCall(handlers, 'desktop/exportStatementPdf', period);
    const printed = '%PDF of 16 characters';
    expect(answer).toEqual(ok({ cancelled: false, fileName: 'statement-2026-11-23.pdf', value: { bytes: printed.length } }));
    expect(shell.printHtmlToPdf).toHaveBeenCalledWith('<p>statement</p>');
    expect(engineCalls).toEqual([
      { method: 'statements/html', request: period },
      { method: 'statements/savePdf', request: { ...period, path: join(folder, 'chosen', 'statement-2026-11-23.pdf'), pdf: Buffer.from(printed).toString('base64') } },
    ]);
    expect(saves.map((request) => [request.purpose, request.filters])).toEqual([['statementPdf', [{ name: 'PDF', extensions: ['pdf'] }]]]);

    engineAnswer = () => fail('invalidInput', 'the period must start before it ends: choose an end after the start');
    expect(await dispatchWindowCall(handlers, 'desktop/exportStatementPdf', { from: 2_000, to: 1_000 })).toEqual(
      fail('invalidInput', 'the period must start before it ends: choose an end after the start'),
    );
    expect(saves).toHaveLength(1);
    expect(shell.printHtmlToPdf).toHaveBeenCalledTimes(1);
  });

  it('a PDF the engine could not write is answered naming the file only', async () => {
    const gone = join(folder, 'gone', 'statement.pdf');
    const { shell } = fakeShell({ save: gone });
    const handlers = windowHandlers(shell);
    const answerBefore = engineAnswer;
    engineAnswer = (method, request) => (method === 'statements/savePdf' ? fail('invalidInput', `could not write ${gone}: the folder does not exist`) : answerBefore(method, request));
    const answer = await dispatchWindowCall(handlers, 'desktop/exportStatementPdf', { from: 1_000, to: 2_000 });
    expect(answer).toEqual(fail('invalidInput', 'could not write statement.pdf: the folder does not exist'));
  });

  it('answers a failing dialog as internal, without throwing', async () => {
    const { shell } = fakeShell();
    shell.showSaveDialog.mockRejectedValueOnce(new Error('no display'));
    const answer = await dispatchWindowCall(windowHandlers(shell), 'desktop/exportDepositsCsv', {});
    expect(!answer.ok && answer.error.code).toBe('internal');
    expect(engineCalls).toEqual([]);
  });
});

describe('the window may not name a path', () => {
  it('refuses every engine method that takes one, before the engine or a dialog sees it', async () => {
    const { shell } = fakeShell();
    const handlers = windowHandlers(shell);
    for (const [method, request] of [
      ['deposits/exportCsv', { path: '/root/.bashrc' }],
      ['withdrawals/exportCsv', { path: '/root/.bashrc' }],
      ['statements/exportCsv', { from: 1, to: 2, path: '/root/.bashrc' }],
      ['statements/savePdf', { from: 1, to: 2, path: '/root/.bashrc', pdf: 'JVBERi0=' }],
      ['audit/export', { path: '/root/.profile' }],
      ['audit/checkpoint', { path: 'x.json' }],
      ['audit/verify', { against: '/etc/passwd' }],
      ['profiles/importFile', { name: 'main', path: '/home/you/credentials.json' }],
    ] as const) {
      const answer = await dispatchWindowCall(handlers, method, request);
      expect(!answer.ok && answer.error.code, method).toBe('forbidden');
    }
    expect(engineCalls).toEqual([]);
    expect(shell.showSaveDialog).not.toHaveBeenCalled();
  });
});

describe('clipboard and explorer links', () => {
  it('copies exactly the text, and refuses control and text-direction characters', async () => {
    const { shell } = fakeShell();
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/copyText', { text: TRON })).toEqual(ok({ copied: TRON.length }));
    expect(shell.writeClipboardText).toHaveBeenCalledWith(TRON);
    for (const text of [`${TRON}\u202E`, 'a\u001b[31m', '']) {
      const answer = await dispatchWindowCall(handlers, 'desktop/copyText', { text });
      expect(!answer.ok && answer.error.code).toBe('invalidInput');
    }
    expect(shell.writeClipboardText).toHaveBeenCalledTimes(1);
  });

  it('opens explorer pages built from the table for valid addresses and transaction ids only', async () => {
    const { shell } = fakeShell();
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/openExplorer', { chain: 'trx', target: 'address', value: TRON })).toEqual(
      ok({ explorer: 'Tronscan', url: `https://tronscan.org/#/address/${TRON}` }),
    );
    expect(await dispatchWindowCall(handlers, 'desktop/openExplorer', { chain: 'eth', target: 'transaction', value: `0x${TXID}` })).toEqual(
      ok({ explorer: 'Etherscan', url: `https://etherscan.io/tx/0x${TXID}` }),
    );
    for (const request of [
      { chain: 'trx', target: 'address', value: 'https://evil.example/' },
      { chain: 'eth', target: 'transaction', value: `${TXID}/../../evil` },
      { chain: 'trx', target: 'transaction', value: `${TXID}?x=1` },
      { chain: 'bitcoin', target: 'address', value: TRON },
    ]) {
      const answer = await dispatchWindowCall(handlers, 'desktop/openExplorer', request);
      expect(!answer.ok && answer.error.code).toBe('invalidInput');
    }
    expect(shell.openExternal.mock.calls).toEqual([[`https://tronscan.org/#/address/${TRON}`], [`https://etherscan.io/tx/0x${TXID}`]]);
  });
});

describe('workstation preferences', () => {
  it('keeps keepRunningInTray in the data folder and falls back to defaults on a damaged or hostile file', async () => {
    const { shell } = fakeShell();
    const handlers = windowHandlers(shell);
    expect(await dispatchWindowCall(handlers, 'desktop/preferences', {})).toEqual(ok({ keepRunningInTray: false, language: 'system' }));
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { keepRunningInTray: true })).toEqual(ok({ keepRunningInTray: true, language: 'system' }));
    expect(JSON.parse(readFileSync(join(folder, DESKTOP_PREFERENCES_FILE), 'utf8'))).toEqual({ keepRunningInTray: true, language: 'system', window: null });
    const answer = await dispatchWindowCall(handlers, 'desktop/setPreferences', { keepRunningInTray: 'yes' });
    expect(!answer.ok && answer.error.code).toBe('invalidInput');

    const store = desktopPreferencesIn(folder);
    store.update({ window: { x: 10, y: 20, width: 1200, height: 800, maximized: false } });
    expect(store.read().window).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: false });
    writeFileSync(join(folder, DESKTOP_PREFERENCES_FILE), '{"keepRunningInTray": true, "window": {"x": 1e300, "y": 0, "width": -5, "height": 1, "maximized": 1}}');
    expect(store.read()).toEqual({ keepRunningInTray: true, language: 'system', window: null });
    writeFileSync(join(folder, DESKTOP_PREFERENCES_FILE), 'not json');
    expect(store.read()).toEqual({ keepRunningInTray: false, language: 'system', window: null });
    writeFileSync(join(folder, DESKTOP_PREFERENCES_FILE), '["__proto__"]');
    expect(store.read()).toEqual({ keepRunningInTray: false, language: 'system', window: null });
  });

  it('keeps the window language beside the tray choice; a damaged language in the file falls back to the system language alone', async () => {
    const handlers = windowHandlers(fakeShell().shell);
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { language: 'de' })).toEqual(ok({ keepRunningInTray: false, language: 'de' }));
    // Setting the tray choice keeps the language, and the other way round.
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { keepRunningInTray: true })).toEqual(ok({ keepRunningInTray: true, language: 'de' }));
    expect(await dispatchWindowCall(handlers, 'desktop/preferences', {})).toEqual(ok({ keepRunningInTray: true, language: 'de' }));
    expect(JSON.parse(readFileSync(join(folder, DESKTOP_PREFERENCES_FILE), 'utf8'))).toEqual({ keepRunningInTray: true, language: 'de', window: null });
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { language: 'en' })).toEqual(ok({ keepRunningInTray: true, language: 'en' }));

    // A language the desk does not speak, or not a string, is refused at the contract and changes nothing.
    for (const language of ['fr', 'DE', 'de-DE', '', 1, null]) {
      const answer = await dispatchWindowCall(handlers, 'desktop/setPreferences', { language });
      expect(!answer.ok && answer.error.code, String(language)).toBe('invalidInput');
    }
    expect(await dispatchWindowCall(handlers, 'desktop/preferences', {})).toEqual(ok({ keepRunningInTray: true, language: 'en' }));

    // A damaged language in the file falls back to "system" and nothing else is lost; setPreferences then keeps what it sets.
    for (const damaged of ['"klingon"', '"DE"', '42', 'null', '{"toString": "de"}', '["de"]']) {
      writeFileSync(join(folder, DESKTOP_PREFERENCES_FILE), `{"keepRunningInTray": true, "language": ${damaged}, "window": null}`);
      expect(await dispatchWindowCall(handlers, 'desktop/preferences', {}), damaged).toEqual(ok({ keepRunningInTray: true, language: 'system' }));
    }
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { language: 'de' })).toEqual(ok({ keepRunningInTray: true, language: 'de' }));
    expect(desktopPreferencesIn(folder).read()).toEqual({ keepRunningInTray: true, language: 'de', window: null });
    expect(await dispatchWindowCall(handlers, 'desktop/setPreferences', { language: 'system' })).toEqual(ok({ keepRunningInTray: true, language: 'system' }));
    expect(JSON.parse(readFileSync(join(folder, DESKTOP_PREFERENCES_FILE), 'utf8'))).toMatchObject({ language: 'system' });
  });
});

describe('the update banner', () => {
  it('answers no update and refuses a restart when the build has no update channel', async () => {
    const handlers = windowHandlers(fakeShell().shell);
    expect(await dispatchWindowCall(handlers, 'desktop/updateReady', {})).toEqual(ok({ ready: null }));
    expect(await dispatchWindowCall(handlers, 'desktop/restartToUpdate', {})).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('no verified update is ready') } });
    expect(await dispatchWindowCall(handlers, 'desktop/restartToUpdate', { now: true })).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it("passes the channel's answers through, and a channel that throws is answered as internal", async () => {
    let sending = true;
    const restart = vi.fn(() => (sending ? fail<{ restarting: true; version: string }>('conflict', 'a withdrawal is being sent') : ok({ restarting: true as const, version: '1.3.0' })));
    const engine = fakeEngine();
    const desktop = createDesktopHandlers({ shell: fakeShell().shell, engine, preferences: desktopPreferencesIn(folder), updates: { ready: () => ({ version: '1.3.0', notes: '<b>notes</b>' }), restart } });
    const handlers = { ...engine, ...desktop };
    expect(await dispatchWindowCall(handlers, 'desktop/updateReady', {})).toEqual(ok({ ready: { version: '1.3.0', notes: '<b>notes</b>' } }));
    expect(await dispatchWindowCall(handlers, 'desktop/restartToUpdate', {})).toMatchObject({ ok: false, error: { code: 'conflict' } });
    sending = false;
    expect(await dispatchWindowCall(handlers, 'desktop/restartToUpdate', {})).toEqual(ok({ restarting: true, version: '1.3.0' }));
    restart.mockImplementation(() => {
      throw new Error('quitAndInstall failed');
    });
    expect(await dispatchWindowCall(handlers, 'desktop/restartToUpdate', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
