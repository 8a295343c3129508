// Runs the shared-store suite against the SQLite backend (a temporary file per test).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteDeskStore } from '../../../electron/core/team/sqlite-store';
import { describeSharedStore } from './shared-store.suite';

const folder = mkdtempSync(join(tmpdir(), 'treasury-shared-sqlite-'));
const notADatabase = join(folder, 'not-a-database.sqlite');
writeFileSync(notADatabase, 'this is not a SQLite file, it is long enough to have a header of sorts............................');
let files = 0;
let current = '';

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeSharedStore('SQLite', {
  async fresh() {
    files += 1;
    const path = join(folder, `desk-${files}.sqlite`);
    current = path;
    return async () => openSqliteDeskStore(path);
  },
  async makeSchemaNewer() {
    const db = new Database(current);
    db.pragma('user_version = 990');
    db.close();
  },
  badConnections: [
    { description: 'a folder instead of a file', open: async () => openSqliteDeskStore(folder), kind: 'badUrl', says: /shared desk file .* cannot be used/ },
    { description: 'a file that is not a database', open: async () => openSqliteDeskStore(notADatabase), kind: 'badUrl', says: /not-a-database\.sqlite cannot be used/ },
  ],
});
