// Property (fast-check, issue 18): whatever a database user does to the shared chain in PostgreSQL (rows forged with
// keys they made, deleted, edited, reordered or replayed, in random combinations) between honest work at three
// workstations, the sandbox never receives an order the honest workstations' signed history does not authorize, nor
// a second order for one request. After each sequence the database is restored from the honest chain and every
// workstation must trust it again, so each sequence starts from an honest desk.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionOf, auditRowFromDb, type AuditDbRow, type AuditRow } from '../../../electron/core/audit/audit-table';
import { AUDIT_COLUMNS } from '../../../electron/core/audit/audit-table';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { auditRowHash, canonicalHash, encodeStatement, signStatementText, type Statement, type StatementBody } from '../../../electron/core/statements/statement';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, tronAddress, type Desk } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
/**
 * The sequences CI runs: fast-check's seed 386, whose first 112 sequences hold every pairing this property is about:
 * each of the 8 attacks after each honest step (none, request, approval, veto) and each ordered pair of attacks within
 * one sequence (32 + 64 pairings; the test checks it covered them). 300 sequences from a random seed, run before, missed
 * at least one pairing in about 1 run in 5 (43 of 200 seeds tried) and took 243 s. TREASURY_PROPERTY_SEED and
 * TREASURY_PROPERTY_RUNS run other sequences (e.g. a long run from a new seed); the coverage check applies to CI's set.
 */
const FIXED_SEED = 386;
const FIXED_RUNS = 112;
const SEED = Number(process.env['TREASURY_PROPERTY_SEED'] ?? FIXED_SEED);
const RUNS = Number(process.env['TREASURY_PROPERTY_RUNS'] ?? FIXED_RUNS);
const ATTACK_KINDS = ['puppetFounding', 'forgedApproval', 'forgedSubmit', 'forgedStatus', 'delete', 'edit', 'swap', 'replay'] as const;
const HONEST_KINDS = ['none', 'request', 'approve', 'cancel'] as const;

let desk: Desk;
let a: Workstation;
let b: Workstation;
let c: Workstation;
const attacker = { admin: generateSigningKey(), second: generateSigningKey(), desk: generateSigningKey(), bob: generateSigningKey() };

/** What the honest workstations' signed history authorizes: requests approved by an honest approver and not cancelled. */
const authorized = new Set<string>();
/** Every request an honest initiator made and that is still waiting or approved (the attacker's targets). */
const open = new Map<string, 'waiting' | 'approved'>();
/** Orders already seen at the sandbox (each was checked when it appeared). */
const seen = new Set<string>();

type Honest = { readonly kind: 'request' } | { readonly kind: 'approve'; readonly pick: number } | { readonly kind: 'cancel'; readonly pick: number };
type Attack =
  | { readonly kind: 'puppetFounding'; readonly profile: 'main' | 'eu' }
  | { readonly kind: 'forgedApproval'; readonly pick: number; readonly as: 'bob' | 'mallory' }
  | { readonly kind: 'forgedSubmit'; readonly pick: number }
  | { readonly kind: 'forgedStatus'; readonly pick: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'edit'; readonly at: number }
  | { readonly kind: 'swap'; readonly at: number; readonly with: number }
  | { readonly kind: 'replay'; readonly at: number };

const honestArb: fc.Arbitrary<Honest> = fc.oneof(
  fc.constant<Honest>({ kind: 'request' }),
  fc.nat().map<Honest>((pick) => ({ kind: 'approve', pick })),
  fc.nat().map<Honest>((pick) => ({ kind: 'cancel', pick })),
);
const attackArb: fc.Arbitrary<Attack> = fc.oneof(
  fc.constantFrom<'main' | 'eu'>('main', 'eu').map<Attack>((profile) => ({ kind: 'puppetFounding', profile })),
  fc.record({ pick: fc.nat(), as: fc.constantFrom<'bob' | 'mallory'>('bob', 'mallory') }).map<Attack>((r) => ({ kind: 'forgedApproval', ...r })),
  fc.nat().map<Attack>((pick) => ({ kind: 'forgedSubmit', pick })),
  fc.nat().map<Attack>((pick) => ({ kind: 'forgedStatus', pick })),
  fc.nat().map<Attack>((at) => ({ kind: 'delete', at })),
  fc.nat().map<Attack>((at) => ({ kind: 'edit', at })),
  fc.record({ at: fc.nat(), with: fc.nat() }).map<Attack>((r) => ({ kind: 'swap', ...r })),
  fc.nat().map<Attack>((at) => ({ kind: 'replay', at })),
);
const sequenceArb = fc.record({ honest: fc.option(honestArb, { freq: 4 }), attacks: fc.array(attackArb, { minLength: 1, maxLength: 3 }) });

function pickOf<T>(values: readonly T[], index: number): T | undefined {
  return values.length === 0 ? undefined : values[index % values.length];
}

async function sharedRows(): Promise<AuditRow[]> {
  return (await adminSql<AuditDbRow>(`SELECT ${AUDIT_COLUMNS} FROM ${T}.audit_log ORDER BY seq`)).map(auditRowFromDb);
}

/** Inserts rows as they are (one statement for all of them), as the database's owner can. */
async function insertRows(rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof AuditRow>(key: K): AuditRow[K][] => rows.map((row) => row[key]);
  await adminSql(
    `INSERT INTO ${T}.audit_log (${AUDIT_COLUMNS})
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])`,
    [column('seq'), column('at'), column('profile'), column('kind'), column('action'), column('operator'), column('subject'), column('keyId'), column('statement'), column('signature'), column('prevHash'), column('hash')],
  );
}

/** Rewrites the shared chain as the database's owner can (the append-only triggers are the owner's to switch off). */
async function asOwner(change: () => Promise<void>): Promise<void> {
  await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
  try {
    await change();
  } finally {
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
  }
}

/** A row a database user can make: well formed and linked at the shared tail, signed by a key of theirs. */
async function forge(fields: { kind: Statement['kind']; profile: string; subject: string; body: StatementBody; operator: string | null; key: SigningKeyPair; keyId?: string }): Promise<void> {
  const [tail] = await adminSql<{ seq: string; hash: string }>(`SELECT seq, hash FROM ${T}.audit_log ORDER BY seq DESC LIMIT 1`);
  const seq = Number(tail?.seq ?? 0) + 1;
  const statement: Statement = { v: 1, kind: fields.kind, profile: fields.profile, subject: fields.subject, body: fields.body, operator: fields.operator, keyId: fields.keyId ?? fields.key.keyId, at: Date.now(), seq, prev: tail?.hash ?? '0'.repeat(64) };
  const text = encodeStatement(statement);
  const signature = signStatementText(fields.key.privateKey, text);
  await insertRows([{ seq, at: statement.at, profile: statement.profile, kind: statement.kind, action: actionOf(statement.kind, statement.body), operator: statement.operator, subject: statement.subject, keyId: statement.keyId, statement: text, signature, prevHash: statement.prev, hash: auditRowHash(text, signature) }]);
}

/** The intent hash a request row holds at A (what decisions are signed under), by userOrder. */
async function intentOf(userOrder: string): Promise<string | undefined> {
  const [row] = await adminSql<{ subject: string }>(`SELECT subject FROM ${T}.audit_log WHERE kind = 'request' AND statement LIKE $1`, [`%${userOrder}%`]);
  return row?.subject;
}

async function attack(step: Attack): Promise<void> {
  const rows = await sharedRows();
  const targets = [...open.keys()];
  switch (step.kind) {
    case 'puppetFounding': {
      const body: StatementBody = { admins: [{ name: 'pat', publicKey: attacker.admin.publicKey }, { name: 'quinn', publicKey: attacker.second.publicKey }], deskKey: { publicKey: attacker.desk.publicKey }, merchantId: 'M-PUPPET' };
      const subject = canonicalHash(body);
      await forge({ kind: 'found', profile: step.profile, subject, body, operator: 'pat', key: attacker.admin });
      await forge({ kind: 'found', profile: step.profile, subject, body, operator: 'quinn', key: attacker.second });
      const intent = { v: 1, merchantId: desk.sandbox.credentials.merchantId, currency: 'trx.usdt', amount: '4321', toAddress: tronAddress(), withdrawType: 'normal', userOrder: `td-puppet-${Date.now()}`, memo: null, requiredApprovals: 1, policy: 'default', requestedAt: Date.now() };
      const intentHash = canonicalHash(intent);
      await forge({ kind: 'request', profile: step.profile, subject: intentHash, body: { intent }, operator: 'pat', key: attacker.admin });
      await forge({ kind: 'approve', profile: step.profile, subject: intentHash, body: {}, operator: 'quinn', key: attacker.second });
      await forge({ kind: 'submit', profile: step.profile, subject: intentHash, body: {}, operator: 'pat', key: attacker.admin });
      return;
    }
    case 'forgedApproval': {
      const target = pickOf(targets, step.pick);
      const subject = target === undefined ? undefined : await intentOf(target);
      if (subject === undefined) return;
      // "bob" with bob's key id (the signature cannot verify), or an operator nobody enrolled.
      const bobKeyId = rows.map((row) => JSON.parse(row.statement) as Statement).find((s) => s.operator === APPROVER.operator)?.keyId;
      await forge({ kind: 'approve', profile: 'main', subject, body: {}, operator: step.as, key: attacker.bob, ...(step.as === 'bob' && bobKeyId ? { keyId: bobKeyId } : {}) });
      return;
    }
    case 'forgedSubmit': {
      const target = pickOf(targets, step.pick);
      const subject = target === undefined ? undefined : await intentOf(target);
      if (subject === undefined) return;
      await forge({ kind: 'submit', profile: 'main', subject, body: {}, operator: ADMIN.operator, key: attacker.admin });
      return;
    }
    case 'forgedStatus': {
      const target = pickOf(targets, step.pick);
      if (target === undefined) return;
      await forge({ kind: 'system', profile: 'main', subject: target, body: { action: 'withdrawals/status', details: { status: 'fail' } }, operator: null, key: attacker.desk });
      return;
    }
    case 'delete': {
      const row = pickOf(rows, step.at);
      if (row) await asOwner(async () => void (await adminSql(`DELETE FROM ${T}.audit_log WHERE seq = $1`, [row.seq])));
      return;
    }
    case 'edit': {
      const row = pickOf(rows, step.at);
      if (!row) return;
      // Another amount or name in the signed text, the row's hash made to match (the signature cannot be).
      const text = row.statement.includes('"amount":"') ? row.statement.replace(/"amount":"[0-9.]+"/, '"amount":"9000"') : row.statement.replace(/"at":\d+/, '"at":1');
      await asOwner(async () => void (await adminSql(`UPDATE ${T}.audit_log SET statement = $2, hash = $3 WHERE seq = $1`, [row.seq, text, auditRowHash(text, row.signature)])));
      return;
    }
    case 'swap': {
      const first = pickOf(rows, step.at);
      const second = pickOf(rows, step.with);
      if (!first || !second || first.seq === second.seq) return;
      await asOwner(async () => {
        await adminSql(`DELETE FROM ${T}.audit_log WHERE seq = $1 OR seq = $2`, [first.seq, second.seq]);
        await insertRows([{ ...second, seq: first.seq }, { ...first, seq: second.seq }]);
      });
      return;
    }
    case 'replay': {
      const row = pickOf(rows, step.at);
      const tail = rows[rows.length - 1];
      // An exact copy repeats the row's hash, which the column's unique index refuses: the copy carries another hash
      // (the owner can store any text there), and its signed statement still names its own seq and prev. A copy of a
      // copy (two replays in one sequence) gets one more space, so each copy's hash is new.
      if (!row || !tail) return;
      let padding = ' ';
      while (rows.some((each) => each.hash === auditRowHash(row.statement, `${row.signature}${padding}`))) padding += ' ';
      await insertRows([{ ...row, seq: tail.seq + 1, prevHash: tail.hash, hash: auditRowHash(row.statement, `${row.signature}${padding}`) }]);
      return;
    }
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

async function honest(step: Honest): Promise<void> {
  switch (step.kind) {
    case 'request': {
      const { withdrawal } = await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '17', toAddress: tronAddress(), as: INITIATOR });
      open.set(withdrawal.userOrder, 'waiting');
      return;
    }
    case 'approve': {
      const target = pickOf([...open].filter(([, state]) => state === 'waiting').map(([userOrder]) => userOrder), step.pick);
      const atB = target === undefined ? undefined : await b.find(target);
      if (!atB || !target) return;
      await b.value('withdrawals/approve', { id: atB.id, as: APPROVER });
      open.set(target, 'approved');
      authorized.add(target);
      return;
    }
    case 'cancel': {
      const target = pickOf([...open].filter(([userOrder]) => !seen.has(userOrder)).map(([userOrder]) => userOrder), step.pick);
      const atC = target === undefined ? undefined : await c.find(target);
      if (!atC || !target) return;
      // The veto is in force the moment it is signed: from here on no workstation may send the request.
      authorized.delete(target);
      open.delete(target);
      await c.value('withdrawals/cancel', { id: atC.id, reason: 'property test veto', as: INITIATOR });
      return;
    }
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

/** The three workstations hold the same verified head (honest work has reached everyone before the attacker acts). */
async function caughtUp(): Promise<void> {
  await within('the three workstations at one head', 10_000, async () => {
    const heads = await Promise.all([a, b, c].map(async (w) => (await w.value('audit/head', {})).head?.hash ?? ''));
    return heads.every((hash) => hash === heads[0]);
  });
}

/** A tries to send everything it sees approved (and its sync resumes anything in flight). */
async function aTriesToSend(): Promise<void> {
  await a.call('sync/run', {});
  const page = await a.value('withdrawals/list', { limit: 200 });
  for (const row of page.rows) if (row.state === 'approved') await a.call('withdrawals/submit', { id: row.id, as: ADMIN });
}

/** Every order at the sandbox is authorized by the honest signed history, and none is doubled. */
function checkOrders(): void {
  for (const { userOrder, count } of sandboxOrders(desk)) {
    expect(count, `orders for ${userOrder}`).toBe(1);
    if (seen.has(userOrder)) continue;
    expect(authorized.has(userOrder), `order ${userOrder} reached the sandbox without the honest history authorizing it`).toBe(true);
    seen.add(userOrder);
    open.delete(userOrder);
  }
}

/** Puts back the honest chain (A's verified copy) and waits until every workstation trusts the database again. */
async function restoreHonestChain(): Promise<void> {
  // A publishes its sync's desk events after the sync answers: let that finish (or stop, when A no longer trusts the
  // database), so the copy taken below is A's whole chain.
  await within('A publishing its queued events', 20_000, async () => {
    const status = await a.value('team/status', {});
    return status.pendingEvents === 0 || status.halted !== null;
  });
  const local = new Database(desk.dbPath, { readonly: true });
  let honestRows: AuditRow[];
  try {
    honestRows = (local.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log ORDER BY seq`).all() as AuditDbRow[]).map(auditRowFromDb);
  } finally {
    local.close();
  }
  // Only what differs from the honest chain is put back: from the first row that is missing or not the honest one.
  const shared = await sharedRows();
  let same = 0;
  while (same < honestRows.length && same < shared.length && shared[same]?.hash === honestRows[same]?.hash && shared[same]?.seq === honestRows[same]?.seq) same += 1;
  if (same < honestRows.length || shared.length !== honestRows.length) {
    const from = honestRows[same]?.seq ?? (honestRows.at(-1)?.seq ?? 0) + 1;
    await asOwner(async () => {
      await adminSql(`DELETE FROM ${T}.audit_log WHERE seq >= $1`, [from]);
      await insertRows(honestRows.slice(same));
    });
  }
  for (const workstation of [a, b, c]) {
    let halted: string | null = null;
    try {
      await within(`${workstation.name} trusting the restored database`, 20_000, async () => (halted = (await workstation.value('team/verify', {})).halted) === null);
    } catch (error) {
      const shared = await sharedRows();
      throw new Error(`${workstation.name} still does not trust the restored database: ${String(halted)} (restored ${honestRows.length} rows, the database holds ${shared.length}, last ${shared.at(-1)?.seq})`, { cause: error });
    }
  }
  await caughtUp();
}

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  // B approves (bob signs there), C vetoes (carol cancels there): each gets its device key, confirmed at A.
  await joinTeam(b, 'B', a, [APPROVER]);
  await joinTeam(c, 'C', a, [INITIATOR]);
  for (let i = 0; i < 3; i += 1) await honest({ kind: 'request' });
  await honest({ kind: 'approve', pick: 0 });
  await caughtUp();
}, 180_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

describe('a database user against three honest workstations (property)', () => {
  it(`sends nothing the honest signed history does not authorize, and nothing twice, over ${RUNS} random sequences (seed ${SEED})`, async () => {
    let refusedSequences = 0;
    /** The pairings the sequences held: "honest>attack" and "attack>>later attack". */
    const pairings = new Set<string>();
    await fc.assert(
      fc.asyncProperty(sequenceArb, async ({ honest: step, attacks }) => {
        for (const [index, each] of attacks.entries()) {
          pairings.add(`${step?.kind ?? 'none'}>${each.kind}`);
          for (const later of attacks.slice(index + 1)) pairings.add(`${each.kind}>>${later.kind}`);
        }
        if (step !== null) await honest(step);
        await caughtUp();
        const before = (await sharedRows()).length;
        for (const each of attacks) await attack(each);
        await aTriesToSend();
        checkOrders();
        if ((await sharedRows()).length !== before || (await a.value('team/status', {})).halted !== null) refusedSequences += 1;
        await restoreHonestChain();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`team property: ${RUNS} sequences from seed ${SEED}, ${pairings.size} of 96 pairings, ${seen.size} authorized orders sent, ${refusedSequences} sequences left the shared chain tampered until it was restored`);
    expect(seen.size).toBeGreaterThan(0);
    if (SEED === FIXED_SEED && RUNS >= FIXED_RUNS) {
      const wanted = [...HONEST_KINDS.flatMap((first) => ATTACK_KINDS.map((then) => `${first}>${then}`)), ...ATTACK_KINDS.flatMap((first) => ATTACK_KINDS.map((then) => `${first}>>${then}`))];
      expect(wanted.filter((pairing) => !pairings.has(pairing)), 'pairings the fixed sequences no longer cover (pick another seed or more runs)').toEqual([]);
    }
  }, 3_600_000);
});
