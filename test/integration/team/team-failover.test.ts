// Failover of the team database: the workstations' URL lists the primary and its streaming standby (two private
// clusters on loopback from scripts/with-postgres.sh) with target_session_attrs=read-write. Work goes on, the primary
// is stopped, IT promotes the standby (pg_ctl promote), the workstations reconnect by themselves and go on; nothing
// is lost or doubled: one order per request at the sandbox, and the chain on the promoted server has each row once.
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, enrolAfterJoin, genesisOf, openFirstWorkstation, openWorkstation, ownerDatabaseUrl, postgres, sandboxOrders, within, type Workstation } from './desk-support';

const standbyCtl = process.env['TREASURY_DESK_PG_STANDBY_CTL'];
const standbyPort = process.env['TREASURY_DESK_PG_STANDBY_PORT'];
if (standbyCtl === undefined || standbyPort === undefined) {
  throw new Error('the failover test needs the standby of scripts/with-postgres.sh (TREASURY_PG_STANDBY=1, the default): run it through that script');
}

/** The URL naming both servers, the primary first, following the writable one. */
function bothServers(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('target_session_attrs', 'read-write');
  return parsed.toString().replace(`@${parsed.host}/`, `@${parsed.host},${parsed.hostname}:${standbyPort}/`);
}

/** Runs SQL as the owner on the standby (after promotion: the new primary). */
async function onStandby<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const parsed = new URL(ownerDatabaseUrl());
  parsed.port = String(standbyPort);
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

let desk: Desk;
let a: Workstation;
let b: Workstation;
const submitted: string[] = [];

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: bothServers(databaseUrl()), ownerDatabase: bothServers(ownerDatabaseUrl()), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  await b.value('team/join', { database: bothServers(databaseUrl()), workstation: 'B', as: ADMIN, genesis: await genesisOf(a) });
  await enrolAfterJoin(b, 'B', a, [APPROVER]);
}, 120_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
  // The other team tests use the first server: it comes back as a primary of its own (the promoted standby stays apart).
  postgres('start');
});

/** A request at A, approved at B, submitted at A. */
async function oneRequest(): Promise<string> {
  const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR });
  await within('the request at B', 15_000, async () => (await b.find(withdrawal.userOrder))?.state === 'awaitingApproval');
  await b.value('withdrawals/approve', { id: (await b.find(withdrawal.userOrder))?.id, as: APPROVER });
  await within('the approval at A', 15_000, async () => (await a.find(withdrawal.userOrder))?.state === 'approved');
  await a.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
  submitted.push(withdrawal.userOrder);
  return withdrawal.userOrder;
}

describe('a primary and a streaming standby', () => {
  it('keeps the desk working across a promotion, losing and doubling nothing', async () => {
    for (let round = 0; round < 3; round += 1) await oneRequest();
    expect((await a.value('team/status', {})).database).toContain(`,127.0.0.1:${standbyPort}/`);

    postgres('stop');
    await within('A notices the primary is gone', 15_000, async () => !(await a.value('team/status', {})).connected);
    const refused = await a.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: tronAddress(), as: INITIATOR });
    expect(refused).toMatchObject({ ok: false, error: { code: 'offline' } });
    execFileSync(standbyCtl, ['promote'], { stdio: 'ignore' });
    for (const workstation of [a, b]) {
      await within(`${workstation.name} reconnects to the promoted standby`, 30_000, async () => (await workstation.value('team/status', {})).connected);
    }

    for (let round = 0; round < 3; round += 1) await oneRequest();
    for (const userOrder of submitted) {
      await within(`${userOrder} submitted at A and B`, 15_000, async () => (await a.find(userOrder))?.state === 'submitted' && (await b.find(userOrder))?.state === 'submitted');
    }

    const orders = sandboxOrders(desk).filter((order) => submitted.includes(order.userOrder));
    expect(orders).toHaveLength(submitted.length);
    expect(orders.every((order) => order.count === 1)).toBe(true);
    const [chain] = await onStandby<{ rows: number; last: string; distinct_hashes: number }>(
      `SELECT count(*)::int AS rows, max(seq)::text AS last, count(DISTINCT hash)::int AS distinct_hashes FROM ${TEAM_SCHEMA}.audit_log`,
    );
    expect(chain?.rows).toBe(Number(chain?.last));
    expect(chain?.distinct_hashes).toBe(chain?.rows);
    // Each request's signed statement once (its subject is the intent's hash).
    const requests = await onStandby<{ subject: string; rows: number }>(`SELECT subject, count(*)::int AS rows FROM ${TEAM_SCHEMA}.audit_log WHERE kind = 'request' GROUP BY subject`);
    expect(requests).toHaveLength(submitted.length);
    expect(requests.every((row) => row.rows === 1)).toBe(true);
    await within('A and B at the promoted server\'s head', 15_000, async () => {
      const [statusA, statusB] = [await a.value('team/status', {}), await b.value('team/status', {})];
      return statusA.verifiedSeq === Number(chain?.last) && statusB.verifiedSeq === Number(chain?.last);
    });
    console.log(`team failover: ${submitted.length} requests submitted across the promotion, ${chain?.rows} chain rows on the promoted server, one order each at the sandbox`);
  }, 300_000);
});
