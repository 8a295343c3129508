// Runs the shared-store suite against a real PostgreSQL: the throwaway cluster of scripts/with-postgres.sh (its URL
// in TREASURY_DESK_DATABASE_URL, its stop/start helper in TREASURY_DESK_PG_CTL). Fails, never skips, without it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresDeskStore, type PostgresStoreOptions } from '../../../electron/core/team/postgres-store';
import { SharedStoreError } from '../../../electron/core/team/shared-store';
import { latestPgVersion, PG_MIGRATIONS, TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { describeSharedStore } from './shared-store.suite';

// The store runs as a workstation's role (reads, and the owner's append functions); initialise as the owner's.
const url = process.env['TREASURY_DESK_DATABASE_URL'];
const ownerUrl = process.env['TREASURY_DESK_OWNER_DATABASE_URL'];
const pgCtl = process.env['TREASURY_DESK_PG_CTL'];
const harness = process.env['TREASURY_DESK_PG_HARNESS'];
const ca = process.env['TREASURY_DESK_PG_CA'];
const HARNESS_COMMAND = 'bash scripts/with-postgres.sh npx vitest run test/integration/team';

/** Quick reconnects so the outage test sees them in seconds. */
/** A CA path that cannot exist: a file under a folder this test made and never fills (not a guess such as /nonexistent). */
const scratch = mkdtempSync(join(tmpdir(), 'td-pg-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const MISSING_CA = join(scratch, 'absent', 'treasury-ca.pem');

const TEST_OPTIONS: PostgresStoreOptions = { poolSize: 20, heartbeatMs: 300, reconnectDelayMs: { first: 100, longest: 400 }, connectTimeoutMs: 3_000, ownerUrl };

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function serverRuns(): boolean {
  try {
    execFileSync(pgCtl as string, ['status'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (url === undefined || ownerUrl === undefined || pgCtl === undefined || harness === undefined || ca === undefined) {
  describe('shared store: PostgreSQL', () => {
    it('needs the throwaway cluster of scripts/with-postgres.sh', () => {
      throw new Error(`TREASURY_DESK_DATABASE_URL / TREASURY_DESK_OWNER_DATABASE_URL / TREASURY_DESK_PG_CTL are not set: run \`${HARNESS_COMMAND}\` (CI runs every test through it)`);
    });
  });
} else {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  const withChanges = (change: (target: URL) => void): string => {
    const target = new URL(url);
    change(target);
    return target.toString();
  };
  const wrongPassword = 'wrong-password-7f3a9c';

  describeSharedStore('PostgreSQL (as a workstation role)', {
    async fresh() {
      await admin(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
      return async () => openPostgresDeskStore(url, TEST_OPTIONS);
    },
    async makeSchemaNewer() {
      await admin(`INSERT INTO ${TEAM_SCHEMA}.schema_version (version, name) VALUES (${latestPgVersion(PG_MIGRATIONS) + 980}, 'from-the-future')`);
    },
    server: {
      stop: () => execFileSync(pgCtl, ['stop'], { stdio: 'ignore' }),
      start: () => {
        if (!serverRuns()) execFileSync(pgCtl, ['start'], { stdio: 'ignore' });
      },
    },
    badConnections: [
      {
        description: 'a URL of another database system',
        open: () => openPostgresDeskStore(withChanges((target) => (target.protocol = 'mysql:')), TEST_OPTIONS),
        kind: 'badUrl',
        says: /is not a PostgreSQL URL; write it as postgres:\/\//,
        secret: password,
      },
      { description: 'text that is not a URL', open: () => openPostgresDeskStore(`not a url ${password}`), kind: 'badUrl', says: /could not be read/, secret: password },
      {
        description: 'a wrong password',
        open: () => openPostgresDeskStore(withChanges((target) => (target.password = wrongPassword)), TEST_OPTIONS),
        kind: 'authentication',
        says: /password authentication failed .*check the role and password/,
        secret: wrongPassword,
      },
      {
        description: 'a closed port',
        open: () => openPostgresDeskStore(withChanges((target) => (target.port = '1')), TEST_OPTIONS),
        kind: 'unreachable',
        says: /connection refused .*check the host and port/,
        secret: password,
      },
      {
        description: 'an unknown host',
        open: () => openPostgresDeskStore(withChanges((target) => (target.hostname = 'no-such-host.invalid')), TEST_OPTIONS),
        kind: 'unreachable',
        says: /(unknown host|could not be looked up|did not answer).*check the host and port/,
        secret: password,
      },
      {
        description: 'a database that does not exist',
        open: () => openPostgresDeskStore(withChanges((target) => (target.pathname = '/no_such_database')), TEST_OPTIONS),
        kind: 'badUrl',
        says: /no_such_database" does not exist; check the database name/,
        secret: password,
      },
      {
        description: 'sslmode=verify-full without the CA that signed the server',
        open: () => openPostgresDeskStore(withChanges((target) => target.searchParams.set('sslmode', 'verify-full')), TEST_OPTIONS),
        kind: 'tls',
        says: /certificate.*check sslmode and sslrootcert/,
        secret: password,
      },
      {
        description: 'sslmode=verify-full to a host name the certificate does not name',
        open: () =>
          openPostgresDeskStore(
            withChanges((target) => {
              target.hostname = 'localhost';
              target.searchParams.set('sslmode', 'verify-full');
              target.searchParams.set('sslrootcert', ca ?? '');
            }),
            TEST_OPTIONS,
          ),
        kind: 'tls',
        says: /localhost.*check sslmode and sslrootcert/,
        secret: password,
      },
      {
        description: 'an sslrootcert file that does not exist',
        open: () =>
          openPostgresDeskStore(
            withChanges((target) => {
              target.searchParams.set('sslmode', 'verify-full');
              target.searchParams.set('sslrootcert', MISSING_CA);
            }),
            TEST_OPTIONS,
          ),
        kind: 'tls',
        says: /certificate or key file named in the URL cannot be read \(ENOENT [^)]*\/absent\/treasury-ca\.pem\)/,
        secret: password,
      },
    ],
  });

  describe('connections the server ends', () => {
    // An 'error' nobody hears (a connection the pool had just handed out, terminated) would end the process: vitest
    // fails the run on it, so this test fails without the store's listeners (postgres-store.ts, openPostgresDeskStore).
    it('answer the caller, never end the process, and the store keeps working', async () => {
      await admin(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
      const store = await openPostgresDeskStore(url, TEST_OPTIONS);
      try {
        await store.initialise('desk-terminated', Date.now());
        const refusals: unknown[] = [];
        for (let round = 0; round < 15; round += 1) {
          const claims = Promise.allSettled(Array.from({ length: 8 }, (_, index) => store.claimSubmission(`td-end-${round}-${index}`, 'A', 60_000)));
          await admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
          for (const outcome of await claims) if (outcome.status === 'rejected') refusals.push(outcome.reason);
        }
        // A claim caught by the termination (how many is timing) is a clear refusal naming the database, never the password.
        for (const refusal of refusals) {
          expect(refusal).toBeInstanceOf(SharedStoreError);
          expect(String((refusal as Error).message)).toMatch(/^team database postgres:\/\/.*:\*\*\*@/);
          expect(String((refusal as Error).message)).not.toContain(password);
        }
        await expect(store.claimSubmission('td-end-after', 'A', 60_000)).resolves.toMatchObject({ claimed: true });
      } finally {
        await store.close();
      }
    }, 60_000);
  });

  describe('TLS', () => {
    it('connects with sslmode=verify-full when the server certificate verifies against sslrootcert', async () => {
      await admin(`DROP SCHEMA IF EXISTS ${TEAM_SCHEMA} CASCADE`);
      const store = await openPostgresDeskStore(
        withChanges((target) => {
          target.searchParams.set('sslmode', 'verify-full');
          target.searchParams.set('sslrootcert', ca);
        }),
        TEST_OPTIONS,
      );
      try {
        await store.initialise('desk-tls', 1);
        expect((await store.identity())?.deskId).toBe('desk-tls');
        expect(store.location).toContain('sslmode=verify-full');
        expect(store.location).not.toContain(password);
      } finally {
        await store.close();
      }
    });
  });
}
