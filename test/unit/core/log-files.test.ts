// The application log's files (core/log/rotating-file.ts, logger.ts): size rotation keeps N files of at most M bytes,
// private modes (0700 folder, 0600 files), a second writer that rotated the file away, the tail across files, records
// logged before the log was configured, levels, JSON lines, and logging that never throws.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApplicationLog, LOG_SETTINGS, logFolderFor } from '../../../electron/core/log/logger';
import { Redactor } from '../../../electron/core/log/redact';
import { RotatingFile } from '../../../electron/core/log/rotating-file';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-log-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('rotation', () => {
  it('keeps maxFiles files of at most maxFileBytes, newest in the current file, oldest lines dropped', () => {
    const folder = join(dir, 'logs');
    const file = new RotatingFile({ folder, fileName: 'treasury-desk.log', maxFileBytes: 4096, maxFiles: 3 });
    const line = (n: number): string => `${JSON.stringify({ n, pad: 'x'.repeat(180) })}\n`;
    const lineBytes = Buffer.byteLength(line(100));
    for (let n = 100; n < 400; n += 1) file.write(line(n)); // 300 lines of ~200 bytes: about 60 KB against 12 KB kept
    file.close();

    expect(readdirSync(folder).sort()).toEqual(['treasury-desk.1.log', 'treasury-desk.2.log', 'treasury-desk.log']);
    for (const name of readdirSync(folder)) {
      expect(statSync(join(folder, name)).size).toBeLessThanOrEqual(4096);
      expect(statSync(join(folder, name)).size).toBeGreaterThan(0);
    }
    // Whole lines only, in order across the files (oldest file first), ending with the last one written.
    const kept = ['treasury-desk.2.log', 'treasury-desk.1.log', 'treasury-desk.log'].flatMap((name) => lines(join(folder, name))).map((text) => (JSON.parse(text) as { n: number }).n);
    expect(kept.at(-1)).toBe(399);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 399 - kept.length + 1 + i));
    expect(kept.length).toBeGreaterThanOrEqual(3 * Math.floor(4096 / lineBytes) - 3);
    expect(kept[0]).toBeGreaterThan(100);
  });

  it('with one file, starts it again when full', () => {
    const file = new RotatingFile({ folder: dir, fileName: 'a.log', maxFileBytes: 1024, maxFiles: 1 });
    for (let n = 0; n < 30; n += 1) file.write(`${'y'.repeat(99)}\n`);
    file.close();
    expect(readdirSync(dir)).toEqual(['a.log']);
    expect(statSync(join(dir, 'a.log')).size).toBeLessThanOrEqual(1024);
  });

  it('removes older files beyond the limit left by a larger limit before', () => {
    for (const name of ['t.1.log', 't.2.log', 't.3.log', 't.4.log']) writeFileSync(join(dir, name), 'old\n');
    const file = new RotatingFile({ folder: dir, fileName: 't.log', maxFileBytes: 1024, maxFiles: 2 });
    for (let n = 0; n < 20; n += 1) file.write(`${'z'.repeat(99)}\n`);
    file.close();
    expect(readdirSync(dir).sort()).toEqual(['t.1.log', 't.log']);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => new RotatingFile({ folder: dir, fileName: 'x.log', maxFileBytes: 10, maxFiles: 2 })).toThrow(RangeError);
    expect(() => new RotatingFile({ folder: dir, fileName: 'x.log', maxFileBytes: 4096, maxFiles: 0 })).toThrow(RangeError);
  });

  it('follows a file another process (the app, a CLI run) rotated away', () => {
    const app = new RotatingFile({ folder: dir, fileName: 'shared.log', maxFileBytes: 1024, maxFiles: 3 });
    const cli = new RotatingFile({ folder: dir, fileName: 'shared.log', maxFileBytes: 1024, maxFiles: 3 });
    app.write('app 1\n');
    for (let n = 0; n < 12; n += 1) cli.write(`cli ${n} ${'c'.repeat(90)}\n`); // the CLI run fills and rotates the file
    app.write('app 2\n');
    app.close();
    cli.close();
    expect(lines(join(dir, 'shared.log')).at(-1)).toBe('app 2');
    expect(readFileSync(join(dir, 'shared.1.log'), 'utf8')).toContain('app 1');
  });
});

describe('privacy of the files', () => {
  it('creates the folder 0700 and the files 0600, and makes looser ones private again', () => {
    const folder = join(dir, 'logs');
    const file = new RotatingFile({ folder, fileName: 'p.log', maxFileBytes: 1024, maxFiles: 2 });
    file.write('one\n');
    file.close();
    expect(mode(folder)).toBe(0o700);
    expect(mode(join(folder, 'p.log'))).toBe(0o600);
    chmodSync(folder, 0o755);
    chmodSync(join(folder, 'p.log'), 0o644);
    const again = new RotatingFile({ folder, fileName: 'p.log', maxFileBytes: 1024, maxFiles: 2 });
    again.write('two\n');
    for (let n = 0; n < 20; n += 1) again.write(`${'r'.repeat(99)}\n`);
    again.close();
    expect(mode(folder)).toBe(0o700);
    for (const name of readdirSync(folder)) expect(mode(join(folder, name))).toBe(0o600);
  });
});

describe('tail', () => {
  it('gives the last bytes across files, oldest first, starting at a whole line', () => {
    const file = new RotatingFile({ folder: dir, fileName: 'tail.log', maxFileBytes: 1024, maxFiles: 3 });
    for (let n = 0; n < 25; n += 1) file.write(`line ${String(n).padStart(2, '0')} ${'t'.repeat(90)}\n`);
    const all = file.tail(100_000).split('\n').filter((line) => line !== '');
    expect(all.at(-1)).toMatch(/^line 24 /);
    expect(all.map((line) => line.slice(0, 7))).toEqual(all.map((_, i) => `line ${String(25 - all.length + i).padStart(2, '0')}`));
    const some = file.tail(350).split('\n').filter((line) => line !== '');
    expect(some.length).toBeGreaterThanOrEqual(2);
    expect(some.every((line) => /^line \d\d t+$/.test(line))).toBe(true);
    expect(some.at(-1)).toMatch(/^line 24 /);
    file.close();
  });
});

describe('the application log', () => {
  it('writes JSON lines with level, time, face, pid and message, at the configured level and above', () => {
    const log = new ApplicationLog(new Redactor());
    log.configure({ folder: dir, face: 'cli', level: 'info' });
    log.debug('not written');
    log.info('hello', { count: 2, level: 'a field named like a pino field', msg: 'kept too' });
    log.error('failed', { error: new Error('boom') });
    log.close();
    const records = lines(join(dir, 'treasury-desk.log')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ level: 'info', face: 'cli', pid: process.pid, msg: 'hello', count: 2, level_: 'a field named like a pino field', msg_: 'kept too' });
    expect(Date.parse(String(records[0]?.['time']))).not.toBeNaN();
    expect(records[1]).toMatchObject({ level: 'error', msg: 'failed', error: { type: 'Error', message: 'boom' } });
  });

  it('keeps records logged before configure (with their own time) and writes them first', async () => {
    const log = new ApplicationLog(new Redactor());
    log.warn('early');
    const early = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 15));
    log.configure({ folder: dir, face: 'app' });
    log.info('late');
    log.close();
    const records = lines(join(dir, 'treasury-desk.log')).map((line) => JSON.parse(line) as { msg: string; time: string });
    expect(records.map((record) => record.msg)).toEqual(['early', 'late']);
    expect(Date.parse(records[0]?.time ?? '')).toBeLessThanOrEqual(early);
  });

  it('never throws when the folder cannot be written; it counts the lines lost', () => {
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'a file where the folder should be');
    const log = new ApplicationLog(new Redactor());
    log.configure({ folder: join(blocker, 'logs'), face: 'cli' });
    expect(() => log.error('lost', { error: new Error('x') })).not.toThrow();
    expect(log.writeFailures).toBe(1);
    expect(log.files()).toEqual([]);
  });

  it('rotates by its named settings and answers its files, current first', () => {
    const log = new ApplicationLog(new Redactor());
    log.configure({ folder: dir, face: 'harness', maxFileBytes: 2048, maxFiles: 2 });
    for (let n = 0; n < 60; n += 1) log.info(`record ${n}`, { pad: 'p'.repeat(100) });
    expect(log.files().map((file) => file.name)).toEqual(['treasury-desk.log', 'treasury-desk.1.log']);
    expect(log.files().every((file) => file.bytes <= 2048)).toBe(true);
    expect(log.tail(10_000)).toContain('"msg":"record 59"');
    log.close();
    expect(LOG_SETTINGS).toMatchObject({ maxFileBytes: 5 * 1024 * 1024, maxFiles: 5 });
  });

  it('shortens a record too long for one line instead of writing it whole', () => {
    const log = new ApplicationLog(new Redactor());
    log.configure({ folder: dir, face: 'cli' });
    const huge = Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`field${i}`, 'h'.repeat(8000)]));
    log.info('huge', huge);
    log.close();
    const [record] = lines(join(dir, 'treasury-desk.log')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(record).toMatchObject({ level: 'warn', msg: 'a record was too long for the log and is shortened' });
    expect(statSync(join(dir, 'treasury-desk.log')).size).toBeLessThan(LOG_SETTINGS.maxLineBytes);
  });

  it('lives in logs/ beside the desk database', () => {
    expect(logFolderFor('/home/ann/.local/share/treasury-desk/treasury.sqlite')).toBe('/home/ann/.local/share/treasury-desk/logs');
  });
});
