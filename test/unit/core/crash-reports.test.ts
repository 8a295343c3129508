// The crash-reports folder (core/crash-reports.ts): a report per failure, kept bounded in count and size, redacted,
// 0600 in a 0700 folder; minidumps pruned to the newest few and listed by name and size only; nothing thrown at the
// caller when the folder cannot be written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CRASH_REPORT_SETTINGS, CrashReports } from '../../../electron/core/crash-reports';
import { Redactor } from '../../../electron/core/log';

let dir: string;
let clock: number;

function reportsIn(folder: string): CrashReports {
  const reports = new CrashReports(new Redactor(), () => new Date(clock));
  reports.configure(folder, '1.2.3');
  return reports;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-crash-reports-'));
  clock = Date.parse('2026-11-28T10:00:00.000Z');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a crash report', () => {
  it('is one JSON file with the source, kind, message, error and app version, 0600 in a 0700 folder', () => {
    const folder = join(dir, 'crash-reports');
    const reports = reportsIn(folder);
    const file = reports.record({ source: 'main', kind: 'uncaughtException', message: 'Error: boom', error: new TypeError('boom'), details: { origin: 'uncaughtException' } });
    expect(file).toMatch(/^crash-20261128T100000000Z-main-[0-9a-f]{8}\.json$/);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, file ?? '')).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(join(folder, file ?? ''), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ at: '2026-11-28T10:00:00.000Z', source: 'main', kind: 'uncaughtException', message: 'Error: boom', appVersion: '1.2.3', details: { origin: 'uncaughtException' } });
    expect(kept['error']).toMatchObject({ type: 'TypeError', message: 'boom' });
    expect(reports.facts().reports).toEqual([expect.objectContaining({ file, source: 'main', kind: 'uncaughtException' })]);
  });

  it(`keeps the newest ${CRASH_REPORT_SETTINGS.maxReports} reports of a flood`, () => {
    const reports = reportsIn(dir);
    for (let i = 0; i < CRASH_REPORT_SETTINGS.maxReports + 7; i += 1) {
      clock += 1_000;
      expect(reports.record({ source: 'window', kind: 'error', message: `failure ${i}` })).not.toBeNull();
    }
    const facts = reports.facts();
    expect(readdirSync(dir)).toHaveLength(CRASH_REPORT_SETTINGS.maxReports);
    expect(facts.reports).toHaveLength(CRASH_REPORT_SETTINGS.maxReports);
    expect(facts.reports[0]?.message).toBe(`failure ${CRASH_REPORT_SETTINGS.maxReports + 6}`);
    expect(facts.reports.at(-1)?.message).toBe('failure 7');
  });

  it(`cuts an enormous stack so the file stays within ${CRASH_REPORT_SETTINGS.maxReportBytes} bytes`, () => {
    const reports = reportsIn(dir);
    const huge = 'at frame (file.js:1:1)\n'.repeat(20_000);
    const file = reports.record({ source: 'window', kind: 'render', message: 'x'.repeat(100_000), details: { stack: huge, componentStack: huge } });
    expect(file).not.toBeNull();
    const size = statSync(join(dir, file ?? '')).size;
    expect(size).toBeLessThanOrEqual(CRASH_REPORT_SETTINGS.maxReportBytes);
    expect(readFileSync(join(dir, file ?? ''), 'utf8')).toContain('… (cut)');
  });

  it('is redacted: a registered secret and a private key shape never reach the file', () => {
    const redactor = new Redactor();
    redactor.register('crash report merchant secret 77', 'merchantSecret');
    const reports = new CrashReports(redactor, () => new Date(clock));
    reports.configure(dir, null);
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----';
    const file = reports.record({ source: 'main', kind: 'uncaughtException', message: 'failed with crash report merchant secret 77', error: new Error(pem) });
    const text = readFileSync(join(dir, file ?? ''), 'utf8');
    expect(text).not.toContain('crash report merchant secret 77');
    expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7');
    expect(text).toContain('[redacted merchantSecret]');
  });

  it('never throws when the folder cannot be made: it answers null and counts the failure', () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    const reports = reportsIn(join(blocked, 'crash-reports'));
    expect(reports.record({ source: 'main', kind: 'uncaughtException', message: 'boom' })).toBeNull();
    expect(reports.facts()).toEqual({ reports: [], minidumps: [], failures: 1 });
  });

  it('is not written before the face says where (an unconfigured process keeps none)', () => {
    expect(new CrashReports(new Redactor()).record({ source: 'main', kind: 'uncaughtException', message: 'boom' })).toBeNull();
  });
});

describe('minidumps', () => {
  it(`are pruned to the newest ${CRASH_REPORT_SETTINGS.maxMinidumps} and listed by name, size and time, never their bytes`, () => {
    const reports = reportsIn(dir);
    const minidumps = reports.minidumpFolder() ?? '';
    expect(statSync(minidumps).mode & 0o777).toBe(0o700);
    const completed = join(minidumps, 'completed');
    mkdirSync(completed);
    const base = Date.parse('2026-11-01T00:00:00Z') / 1000;
    for (let i = 0; i < CRASH_REPORT_SETTINGS.maxMinidumps + 3; i += 1) {
      const path = join(completed, `dump-${i}.dmp`);
      writeFileSync(path, Buffer.alloc(100 + i, 7));
      utimesSync(path, base + i * 60, base + i * 60);
    }
    writeFileSync(join(completed, 'settings.dat'), 'crashpad settings');
    reports.pruneMinidumps();
    const left = readdirSync(completed).filter((name) => name.endsWith('.dmp')).sort();
    expect(left).toEqual(Array.from({ length: CRASH_REPORT_SETTINGS.maxMinidumps }, (_, k) => `dump-${k + 3}.dmp`).sort());
    expect(readdirSync(completed)).toContain('settings.dat');
    const listed = reports.facts().minidumps;
    expect(listed[0]).toEqual({ name: `completed/dump-${CRASH_REPORT_SETTINGS.maxMinidumps + 2}.dmp`, bytes: 100 + CRASH_REPORT_SETTINGS.maxMinidumps + 2, modifiedAt: new Date((base + (CRASH_REPORT_SETTINGS.maxMinidumps + 2) * 60) * 1000).toISOString() });
    expect(Object.keys(listed[0] ?? {})).toEqual(['name', 'bytes', 'modifiedAt']);
  });
});
