// `treasury-desk audit list` and the filtered `audit export` on a real desk (in process, real SQLite, keychain and
// sandbox): rows as sentences with whether each verifies, the viewer's filters and cursor, JSON under --json, bad
// filters refused with exit 2 before anything changes, and a row edited in the file shown as failing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryView, Page } from '../../../electron/contract';
import { ADMIN, expectFailure, expectOk, json, openCliDesk, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 120_000);
afterAll(async () => desk?.close());

describe('treasury-desk audit list', () => {
  it('prints each row as a sentence with its standing, newest first', async () => {
    const { stdout } = expectOk(await desk.cli(['audit', 'list']));
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s*#\s+when \(.+\)\s+verifies\s+what happened$/);
    expect(stdout).toMatch(/^\s*1\s+\S+ \S+\s+✓ verified\s+The desk added profile main \(merchant \d+\)$/m);
    expect(stdout).toMatch(/✓ verified\s+alice proposed to enrol bob as approver$/m);
    expect(stdout).toMatch(/✓ verified\s+frank confirmed the proposal about dave$/m);
    expect(lines.slice(1).map((line) => Number(/^\s*(\d+)/.exec(line)?.[1]))).toEqual([...lines.slice(1)].map((_, index, all) => all.length - index));
  });

  it('filters by operator, action and search, and pages with a cursor', async () => {
    const alice = json<Page<AuditEntryView>>(expectOk(await desk.cli(['audit', 'list', '--operator', 'alice', '--json'])));
    expect(alice.rows.map((row) => row.action)).toEqual(['operators/enrol', 'operators/enrol', 'operators/enrol', 'operators/found']);
    expect(alice.rows.every((row) => row.operator === 'alice' && row.verification.status === 'verified')).toBe(true);

    const first = await desk.cli(['audit', 'list', '--action', 'operators/accept', '--limit', '2', '--json']);
    expect(first.code).toBe(0);
    const page = json<Page<AuditEntryView>>(first);
    expect(page.rows.map((row) => row.sentence)).toEqual(['dave accepted the invitation and set their signing key', 'carol accepted the invitation and set their signing key']);
    expect(page.nextCursor).not.toBeNull();
    const rest = json<Page<AuditEntryView>>(expectOk(await desk.cli(['audit', 'list', '--action', 'operators/accept', '--limit', '2', '--cursor', page.nextCursor ?? '', '--json'])));
    expect(rest).toEqual({ rows: [expect.objectContaining({ operator: 'bob', action: 'operators/accept' })], nextCursor: null });

    const text = await desk.cli(['audit', 'list', '--action', 'operators/accept', '--limit', '2']);
    expect(text.stderr).toBe(`more rows: add --cursor ${page.nextCursor}\n`);

    const searched = json<Page<AuditEntryView>>(expectOk(await desk.cli(['audit', 'list', '--search', 'ENROL DAVE', '--json'])));
    expect(searched.rows.map((row) => row.sentence)).toEqual(['alice proposed to enrol dave as viewer']);
    expect(expectOk(await desk.cli(['audit', 'list', '--search', 'nothing says this'])).stdout).toBe('no audit rows match\n');
  });

  it('refuses bad filters with exit 2 and says what to give', async () => {
    expect(expectFailure(await desk.cli(['audit', 'list', '--from', 'yesterday']), 2)).toMatch(/--from/);
    expect(expectFailure(await desk.cli(['audit', 'list', '--action', 'Approve it']), 2)).toMatch(/--action: an action is written domain\/verb/);
    expect(expectFailure(await desk.cli(['audit', 'list', '--request', 'not-a-request']), 2)).toMatch(/neither a withdrawal request number nor a fingerprint/);
    expect(expectFailure(await desk.cli(['audit', 'list', '--from', '2026-01-02', '--to', '2026-01-01']), 2)).toMatch(/"to" later than "from"/);
  });

  it('exports the filtered view as CSV, recorded in the log', async () => {
    const file = join(desk.dir, 'alice.csv');
    expect(expectOk(await desk.cli(['audit', 'export', file, '--operator', ADMIN.name])).stdout).toBe(`wrote 4 audit rows to ${file}\n`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines.slice(1).every((line) => line.includes(',alice,') && line.includes(',verified,'))).toBe(true);
    const [recorded] = json<Page<AuditEntryView>>(expectOk(await desk.cli(['audit', 'list', '--action', 'audit/export', '--json']))).rows;
    expect(recorded?.sentence).toBe('The desk exported 4 audit entries as CSV');
  });

  it('shows a row edited in the file as failing, and the rows after it as unchecked', async () => {
    const db = new Database(desk.dbPath);
    try {
      db.exec('DROP TRIGGER IF EXISTS audit_log_no_update');
      db.prepare("UPDATE audit_log SET operator = 'mallory' WHERE seq = 4").run();
    } finally {
      db.close();
    }
    const { stdout } = await desk.cli(['audit', 'list']);
    expect(stdout).toMatch(/^\s*4\s+\S+ \S+\s+✗ FAILED\s+mallory proposed to enrol bob as approver$/m);
    expect(stdout).toMatch(/^\s*5\s+\S+ \S+\s+\? unchecked\s+bob accepted/m);
    expect(stdout).toMatch(/^\s*3\s+\S+ \S+\s+✓ verified/m);
    expect(stdout).toContain("row 4 failed: row 4's columns no longer say what its signed statement says\n");
  });
});
