// Bad input to team mode gets a clear error and changes nothing: a URL that is not one, a URL of another database
// system, a server that does not answer, a wrong password, a database of another desk (init into it, and joining it
// from a workstation holding a different chain), and a database created by a newer Treasury Desk. The password never
// appears in an answer, and never in the local SQLite.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, openDesk, type Desk } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, openFirstWorkstation, openTestStore, openWorkstation, type Workstation } from './desk-support';

let first: Desk;
let a: Workstation;
let other: Desk;

function withUrl(change: (url: URL) => void): string {
  const url = new URL(databaseUrl());
  change(url);
  return url.toString();
}

async function unchanged(workstation: { value: Workstation['value'] }): Promise<void> {
  expect(await workstation.value('team/status', {})).toMatchObject({ enabled: false, database: null });
}

beforeAll(async () => {
  await emptyTeamDatabase();
  const opened = await openFirstWorkstation();
  first = opened.desk;
  a = opened.a;
  // Another desk altogether: its own sandbox merchant, founders and chain.
  other = await openDesk({ engine: { openSharedStore: openTestStore } });
}, 120_000);

afterAll(async () => {
  await other?.close();
  await a?.close();
});

describe('bad input to team mode', () => {
  it('refuses a URL that is not one, or not postgres://, and an unreachable server', async () => {
    const password = new URL(databaseUrl()).password;
    for (const [database, code, text] of [
      ['not a url', 'invalidInput', /is not a URL: give postgres:\/\//],
      [withUrl((url) => (url.protocol = 'mysql:')), 'invalidInput', /must start with postgres:\/\//],
      [withUrl((url) => (url.port = '1')), 'offline', /team database postgres:\/\/.*:\*\*\*@127\.0\.0\.1:1\//],
    ] as const) {
      const answer = await a.call('team/init', { database, workstation: 'A', as: ADMIN });
      expect(answer, database).toMatchObject({ ok: false, error: { code, message: expect.stringMatching(text) } });
      // One prefix naming the database, not one per layer (issue 22 part 2: "team database …: team database …: …").
      if (!answer.ok) expect(answer.error.message.match(/team database/g)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(JSON.stringify(answer)).not.toContain(password);
      await unchanged(a);
    }
  }, 30_000);

  it('refuses a wrong password, and never keeps it', async () => {
    const answer = await a.call('team/init', { database: withUrl((url) => (url.password = 'wrong-password-3b1c')), workstation: 'A', as: ADMIN });
    expect(answer).toMatchObject({ ok: false, error: { code: 'credentials' } });
    expect(JSON.stringify(answer)).not.toContain('wrong-password-3b1c');
    await unchanged(a);
  });

  it("refuses init into another desk's database and joining it from a workstation with a different chain", async () => {
    await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
    const init = await other.call('team/init', { database: databaseUrl(), workstation: 'X', as: ADMIN });
    expect(init).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/already holds a desk .*use team join, or give an empty database/) } });
    const join = await other.call('team/join', { database: databaseUrl(), workstation: 'X', as: ADMIN, genesis: 'AAAA-AAAA-AAAA-AAAA' });
    expect(join).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/already holds another desk's audit chain/) } });
    await unchanged(other);
    // The password is in the keychain, never in the local SQLite.
    const db = new Database(first.dbPath, { readonly: true });
    try {
      const settings = db.prepare('SELECT database_url FROM team_settings').get() as { database_url: string };
      expect(settings.database_url).not.toContain(new URL(databaseUrl()).password);
      const dump = (db.prepare("SELECT group_concat(value_json, ' ') AS text FROM settings").get() as { text: string }).text;
      expect(dump).not.toContain(new URL(databaseUrl()).password);
    } finally {
      db.close();
    }
  }, 60_000);

  it('refuses a database created by a newer Treasury Desk', async () => {
    await adminSql(`INSERT INTO ${TEAM_SCHEMA}.schema_version (version, name) VALUES (99990, 'from-the-future')`);
    const late = await openWorkstation('Z');
    try {
      const answer = await late.call('team/join', { database: databaseUrl(), workstation: 'Z', as: ADMIN, genesis: 'AAAA-AAAA-AAAA-AAAA' });
      expect(answer).toMatchObject({ ok: false, error: { message: expect.stringMatching(/newer Treasury Desk/) } });
      await unchanged(late);
    } finally {
      await late.close();
      await adminSql(`DELETE FROM ${TEAM_SCHEMA}.schema_version WHERE version = 99990`);
    }
  }, 30_000);
});
