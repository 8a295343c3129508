// House rules 2 and 14 end to end: a real engine (real sandbox, real keychain, a temporary data folder) holds every kind
// of secret (the merchant secret and private key, the Authorization header, an access token, the desk key, operator
// passphrases and keys, an invitation code); each is then written, in every encoding, through every log path: the
// engine's internal-error path, the IPC dispatch's, the CLI's, a window's error report, and crash recovery's
// uncaught-exception, unhandled-rejection and render-process-gone handlers. Every log file, every crash report (the
// window's and main's failures each leave one) and both diagnostics exports (engine method and CLI command) are then
// scanned byte for byte for every secret; and each path's record is there, so the scan looks at what the paths wrote.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { App, BrowserWindow, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchWindowCall, LOG_FILE_NAME, LOG_FOLDER_NAME, ok, RENDERER_ERROR_LIMITS, type Result, type TreasuryHandlers, type WindowHandlers } from '../../../electron/contract';
import { CRASH_REPORT_SETTINGS, crashReportFolderFor, crashReports } from '../../../electron/core/crash-reports';
import { appLog, logFolderFor } from '../../../electron/core/log';
import { parseSealedKey, unsealPrivateKey } from '../../../electron/core/operators/sealed-key';
import { closeDatabase, openDatabase } from '../../../electron/core/store/database';
import { getOperatorRecord } from '../../../electron/core/operators/operators-table';
import { authorizationHeader } from '../../../electron/protocol/wire';
import { installCrashRecovery, type CrashDialogBox } from '../../../electron/main/crash-recovery';
import { createDesktopHandlers } from '../../../electron/main/desktop-handlers';
import { DEFAULT_PREFERENCES_STORE, silentDesktopShell } from '../../support/desktop-shell';
import { answerInvoke } from '../../../electron/main/ipc';
import { runInProcess } from '../../support/cli';
import { ADMIN, APPROVER, openDesk, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';

interface Secret {
  readonly kind: string;
  /** The value as the program holds it. */
  readonly raw: string;
  /** Every form to look for in the files (the raw value, its base64, base64url and hex, a key's DER and PEM lines). */
  readonly forms: readonly string[];
}

function textForms(raw: string): string[] {
  const bytes = Buffer.from(raw, 'utf8');
  return [raw, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase(), JSON.stringify(raw).slice(1, -1)];
}

function keyForms(key: KeyObject): string[] {
  const der = key.export({ format: 'der', type: 'pkcs8' });
  const pem = String(key.export({ format: 'pem', type: 'pkcs8' }));
  const lines = pem.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'));
  return [der.toString('base64'), der.toString('base64url'), der.toString('hex'), ...lines];
}

function textSecret(kind: string, raw: string): Secret {
  return { kind, raw, forms: textForms(raw) };
}

/** Everything a path writes: each secret raw, base64 and hex, in one text. */
function everyForm(secrets: readonly Secret[]): string {
  return secrets.map((secret) => textForms(secret.raw).slice(0, 4).join(' | ')).join(' || ');
}

/** The forms of `secrets` found in `bytes`: "kind #form (length)", never the value itself. */
function leaks(bytes: Buffer, secrets: readonly Secret[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    secret.forms.forEach((form, index) => {
      if (form.length >= 8 && bytes.includes(Buffer.from(form, 'utf8'))) found.push(`${secret.kind} form #${index} (${form.length} characters)`);
    });
  }
  return found;
}

let desk: Desk;
let secrets: Secret[];
let logFolder: string;
let crashFolder: string;
const answers: Record<string, Result<unknown>> = {};
let cliStderr = '';
const dialogTexts: string[] = [];

beforeAll(async () => {
  desk = await openDesk();
  logFolder = logFolderFor(desk.dbPath);
  appLog.configure({ folder: logFolder, face: 'app' });
  crashFolder = crashReportFolderFor(desk.dbPath);
  crashReports.configure(crashFolder, '0.0.0-test');

  // The secrets the engine now holds.
  const credentials = JSON.parse(readFileSync(desk.sandbox.credentialsPath, 'utf8')) as { merchantId: string; secret: string; merchantPrivateKey: string };
  await desk.value('selfcheck/run', {}); // fetches an access token
  const sandboxDb = new Database(join(desk.sandbox.dataDir, 'sandbox.sqlite'), { readonly: true });
  const tokens = (sandboxDb.prepare('SELECT token FROM tokens').all() as Array<{ token: string }>).map((row) => row.token);
  sandboxDb.close();
  expect(tokens.length).toBeGreaterThan(0);
  const deskKey = await desk.vault.readDeskEntry('key');
  expect(deskKey).not.toBeNull();
  const invitation = await desk.value('operators/invite', { name: 'erin', role: 'viewer', as: ADMIN });
  const db = openDatabase(desk.dbPath);
  const alice = getOperatorRecord(db, 'main', ADMIN.operator);
  const keyRow = db.prepare('SELECT key_id, sealed_key_json FROM operator_keys WHERE operator_id = ?').get(alice?.id) as { key_id: string; sealed_key_json: string };
  closeDatabase(db);
  const operatorKey = await unsealPrivateKey(parseSealedKey(keyRow.sealed_key_json), ADMIN.passphrase, { profile: 'main', operator: ADMIN.operator, keyId: keyRow.key_id });
  // A private key nobody registered: the PEM shape alone must keep it out.
  const unregistered = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const merchantKeyLines = credentials.merchantPrivateKey.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'));

  secrets = [
    { ...textSecret('merchantSecret', credentials.secret) },
    { kind: 'merchantPrivateKey', raw: credentials.merchantPrivateKey, forms: [credentials.merchantPrivateKey, ...merchantKeyLines, JSON.stringify(credentials.merchantPrivateKey).slice(1, -1)] },
    textSecret('authorization', authorizationHeader(credentials.merchantId, credentials.secret).slice('auth '.length)),
    ...tokens.map((token) => textSecret('accessToken', token)),
    { kind: 'deskKey', raw: deskKey ?? '', forms: [deskKey ?? '', ...keyForms((await import('node:crypto')).createPrivateKey({ key: Buffer.from(deskKey ?? '', 'base64'), format: 'der', type: 'pkcs8' }))] },
    textSecret('passphrase', ADMIN.passphrase),
    textSecret('passphrase', SECOND_ADMIN.passphrase),
    textSecret('passphrase', APPROVER.passphrase),
    { kind: 'operatorKey', raw: operatorKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'), forms: keyForms(operatorKey) },
    textSecret('invitationCode', invitation.code),
    { kind: 'unregisteredPrivateKey', raw: String(unregistered.export({ format: 'pem', type: 'pkcs8' })), forms: keyForms(unregistered) },
  ];
  const written = everyForm(secrets);
  const pem = credentials.merchantPrivateKey;
  const secretError = (): Error =>
    Object.assign(new Error(`failure carrying ${written}`, { cause: new Error(`cause with ${pem} and ${secrets[9]?.raw ?? ''}`) }), {
      passphrase: ADMIN.passphrase,
      token: tokens[0],
      code: invitation.code,
      merchantPrivateKey: pem,
    });

  // 1. The engine's internal-error path: a fault inside a handler (here the clock) with every secret in it.
  const explodingClock = { armed: false };
  const engine = await desk.reopen({
    clock: () => {
      if (explodingClock.armed) throw secretError();
      return Date.now();
    },
  });
  explodingClock.armed = true;
  answers['engine'] = await engine.handlers['sync/run']({});
  explodingClock.armed = false;

  // 2. The IPC dispatch's internal-error path: a handler that throws instead of answering.
  const page = join(import.meta.dirname, 'renderer-root', 'index.html');
  const contents = { id: 4242 } as WebContents;
  const throwing = {
    ...desk.engine.handlers,
    'balances/list': async () => {
      throw secretError();
    },
  } as unknown as WindowHandlers;
  answers['ipc'] = await answerInvoke(
    throwing,
    { trusted: { fileRoot: join(import.meta.dirname, 'renderer-root'), devOrigin: null }, isOwnWebContents: (sender) => sender.id === contents.id },
    'balances/list',
    { sender: contents, senderFrame: { url: pathToFileURL(page).href, parent: null } as never },
    [{}],
  );

  // 3. The CLI's unexpected-failure path: output that fails with every secret in its error (same data folder).
  const cli = await runInProcess(['--db', desk.dbPath, 'address', 'validate', tronAddress(), '--chain', 'trx'], {
    env: { TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service },
    onStdout: () => {
      throw secretError();
    },
  });
  expect(cli.code).toBe(1);
  cliStderr = cli.stderr;
  appLog.configure({ folder: logFolder, face: 'app' });

  // 4. A window's error reports, through the window's dispatch (the schema's bounds apply, and main's limit of ten a
  // minute): the secrets packed into as few reports as fit, each raw in the message and encoded in the stack.
  const desktop = createDesktopHandlers({
    shell: silentDesktopShell(),
    engine: desk.engine.handlers as TreasuryHandlers,
    preferences: DEFAULT_PREFERENCES_STORE,
  });
  const windowHandlers = { ...desk.engine.handlers, ...desktop } as WindowHandlers;
  const reports: Array<{ message: string; stack: string }> = [];
  for (const secret of secrets) {
    const message = ` ${secret.raw}`;
    const stack = `\n${textForms(secret.raw).slice(1, 4).join('\n')}`;
    const last = reports.at(-1);
    if (last !== undefined && last.message.length + message.length <= RENDERER_ERROR_LIMITS.messageChars && last.stack.length + stack.length <= RENDERER_ERROR_LIMITS.stackChars) {
      reports[reports.length - 1] = { message: last.message + message, stack: last.stack + stack };
    } else {
      reports.push({ message: `TypeError:${message}`, stack: `TypeError${stack}` });
    }
  }
  expect(reports.length).toBeLessThanOrEqual(10);
  for (const report of reports) {
    const answer = await dispatchWindowCall(windowHandlers, 'desktop/reportError', { kind: 'error', ...report }, () => expect.fail('a report is answered, not thrown'));
    expect(answer).toEqual(ok({ recorded: true }));
  }

  // 5-7. Crash recovery: an uncaught exception, an unhandled rejection, a window's page that stopped.
  const proc = new EventEmitter();
  const app = Object.assign(new EventEmitter(), { quit: () => undefined, relaunch: () => undefined, isReady: () => true });
  const uninstall = installCrashRecovery({
    process: proc as unknown as NodeJS.Process,
    app: app as unknown as App,
    log: appLog,
    reports: crashReports,
    ask: async (_window, box: CrashDialogBox) => {
      dialogTexts.push(`${box.message ?? ''}\n${box.detail ?? ''}`);
      return box.cancelId ?? 0;
    },
    showErrorBox: () => undefined,
    windowOf: () => null as unknown as BrowserWindow,
    openWindow: () => undefined,
  });
  proc.emit('unhandledRejection', secretError(), Promise.resolve());
  proc.emit('unhandledRejection', written, Promise.resolve());
  proc.emit('uncaughtException', secretError(), 'uncaughtException');
  app.emit('render-process-gone', {}, { id: 1, isDestroyed: () => true, reload: () => undefined }, { reason: written, exitCode: 11 });
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
  uninstall();
}, 120_000);

afterAll(async () => {
  await desk?.close();
});

function logFiles(): string[] {
  return readdirSync(logFolder).map((name) => join(logFolder, name));
}

function logText(): string {
  return logFiles()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

describe('every log path', () => {
  it('wrote its record to logs/treasury-desk.log in the data folder', () => {
    expect(readdirSync(logFolder)).toContain(LOG_FILE_NAME);
    expect(logFolder).toBe(join(desk.dir, LOG_FOLDER_NAME));
    const text = logText();
    for (const marker of [
      'engine: sync/run failed unexpectedly',
      'ipc: balances/list failed unexpectedly',
      'cli: address validate failed unexpectedly',
      'renderer: uncaught error',
      'main: uncaught exception',
      'main: unhandled promise rejection',
      "renderer: the window's page stopped",
    ]) {
      expect(text, marker).toContain(`"msg":${JSON.stringify(marker)}`);
    }
    expect(text).toContain('[redacted merchantSecret]');
    expect(text).toContain('[redacted private key]');
  });

  it('left no secret in any log file, in any encoding, byte for byte', () => {
    for (const file of logFiles()) expect(leaks(readFileSync(file), secrets), file).toEqual([]);
    expect(logText()).not.toContain('PRIVATE KEY-----');
  });

  it('answered the caller with where the log is and no secret', () => {
    for (const [path, answer] of Object.entries(answers)) {
      expect(answer.ok, path).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code, path).toBe('internal');
      expect(answer.error.message, path).toContain('logs/treasury-desk.log in the Treasury Desk data folder');
      expect(leaks(Buffer.from(JSON.stringify(answer)), secrets), path).toEqual([]);
    }
    expect(cliStderr).toMatch(/^treasury-desk: unexpected failure: .*logs\/treasury-desk\.log in the Treasury Desk data folder/);
    expect(leaks(Buffer.from(cliStderr), secrets)).toEqual([]);
  });

  it('showed dialogs that say what to do and carry no secret', () => {
    expect(dialogTexts.length).toBeGreaterThanOrEqual(2);
    expect(dialogTexts.join('\n')).toContain('export diagnostics');
    expect(leaks(Buffer.from(dialogTexts.join('\n')), secrets)).toEqual([]);
  });
});

describe('the crash reports', () => {
  it("each crash path left its own bounded report (the window's errors, main's exception and rejection, the stopped page), 0600 in a 0700 folder", () => {
    const files = readdirSync(crashFolder).filter((name) => name.endsWith('.json'));
    const reports = files.map((name) => JSON.parse(readFileSync(join(crashFolder, name), 'utf8')) as { source: string; kind: string });
    const kinds = reports.map((report) => `${report.source} ${report.kind}`);
    expect(kinds).toContain('window error');
    expect(kinds).toContain('main uncaughtException');
    expect(kinds).toContain('main unhandledRejection');
    expect(kinds).toContain('window pageStopped');
    expect(files.length).toBeLessThanOrEqual(CRASH_REPORT_SETTINGS.maxReports);
    expect(statSync(crashFolder).mode & 0o777).toBe(0o700);
    for (const name of files) {
      const info = statSync(join(crashFolder, name));
      expect(info.size, name).toBeLessThanOrEqual(CRASH_REPORT_SETTINGS.maxReportBytes);
      expect(info.mode & 0o777, name).toBe(0o600);
    }
  });

  it('left no secret in any report, in any encoding, byte for byte', () => {
    const files = readdirSync(crashFolder).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(leaks(readFileSync(join(crashFolder, name)), secrets), name).toEqual([]);
  });
});

describe('the diagnostics exports', () => {
  it('the engine method writes the log tail and state, and no secret', async () => {
    const path = join(desk.dir, 'diagnostics-engine.json');
    const written = await desk.value('diagnostics/export', { path });
    const bytes = readFileSync(path);
    expect(written).toEqual({ path, bytes: bytes.length });
    const document = JSON.parse(bytes.toString('utf8')) as { kind: string; desk: { profiles: number; schemaVersion: number }; log: { tail: Array<{ msg?: string }> } };
    expect(document.kind).toBe('treasury-desk-diagnostics');
    expect(document.desk.profiles).toBe(1);
    expect(document.desk.schemaVersion).toBeGreaterThan(0);
    expect(document.log.tail.map((record) => record.msg)).toContain('main: uncaught exception');
    // The crash reports go in whole (newest first), redacted again; no minidump was written here, so none is listed.
    const crashes = (document as unknown as { crashReports: { reports: Array<{ source: string; kind: string }>; minidumps: unknown[] } }).crashReports;
    expect(crashes.reports.map((report) => `${report.source} ${report.kind}`)).toEqual(expect.arrayContaining(['window error', 'main uncaughtException', 'window pageStopped']));
    expect(crashes.minidumps).toEqual([]);
    expect(leaks(bytes, secrets)).toEqual([]);
  });

  it('the CLI command writes the same kind of file, and no secret', async () => {
    const path = join(desk.dir, 'diagnostics-cli.json');
    const run = await runInProcess(['--db', desk.dbPath, 'diagnostics', '--out', path], { env: { TREASURY_DESK_KEYCHAIN_SERVICE: desk.vault.service } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const bytes = readFileSync(path);
    expect(bytes.toString('utf8')).toContain('cli: address validate failed unexpectedly');
    expect(bytes.toString('utf8')).toContain('"kind": "uncaughtException"');
    expect(leaks(bytes, secrets)).toEqual([]);
  });
});
