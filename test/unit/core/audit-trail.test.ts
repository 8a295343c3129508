// Verifying the signed audit log (core/audit/trail.ts) on a real SQLite file with an in-memory desk secret store: a
// clean chain verifies; an edited column, an edited and re-hashed row, a deleted or renumbered row, rows cut from the
// end, a row signed by an unknown key and a checkpoint that no longer matches are each found, at the right row; the
// incremental linkage walk before a send still finds rows edited or deleted from another connection.
import { beforeAll, describe, expect, it } from 'vitest';
import { AuditTrail, parseCheckpoint } from '../../../electron/core/audit/trail';
import { DeskIdentity } from '../../../electron/core/audit/desk-identity';
import { memorySecrets } from '../../support/memory-secrets';
import { generateSigningKey, signBytes } from '../../../electron/core/statements/keys';
import { auditRowHash, canonicalHash, parseStatement, signStatementText, STATEMENT_DOMAIN, type StatementBody } from '../../../electron/core/statements/statement';
import { appendStatement, getAuditRow } from '../../../electron/core/audit/audit-table';
import { closeDatabase, openDatabase, type StoreDatabase } from '../../../electron/core/store/database';
import { useTempDir } from '../store/helpers';

const temp = useTempDir('td-trail-');
const alice = generateSigningKey();
const bob = generateSigningKey();
let identity: DeskIdentity;

beforeAll(async () => {
  identity = await DeskIdentity.load(memorySecrets());
});

interface Fixture {
  readonly db: StoreDatabase;
  readonly trail: AuditTrail;
}

/** A founded profile (alice and bob), then `actions` signed actions by alice and desk-signed system events in turn. */
async function fixture(actions: number): Promise<Fixture> {
  const db = temp.open();
  let clock = 1_000;
  const trail = new AuditTrail(db, identity, memorySecrets(), () => (clock += 1));
  const body: StatementBody = {
    admins: [
      { name: 'alice', publicKey: alice.publicKey },
      { name: 'bob', publicKey: bob.publicKey },
    ],
    deskKey: { publicKey: identity.publicKey },
    merchantId: 'M-1001',
  };
  for (const [name, key] of [['alice', alice], ['bob', bob]] as const) {
    trail.append({ kind: 'found', profile: 'main', subject: canonicalHash(body), body, operator: name, keyId: key.keyId }, (text) => signStatementText(key.privateKey, text));
  }
  for (let i = 1; i <= actions; i++) {
    if (i % 2 === 0) trail.system({ profile: 'main', action: 'deposits/export', details: { i } });
    else trail.append({ kind: 'action', profile: 'main', subject: `W${i}`, body: { action: 'addresses/create', details: { i } }, operator: 'alice', keyId: alice.keyId }, (text) => signStatementText(alice.privateKey, text));
  }
  await trail.flush();
  return { db, trail };
}

function dropGuards(db: StoreDatabase): void {
  db.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete; DROP TRIGGER audit_log_extends_chain;');
}

describe('a clean chain', () => {
  it('verifies every signature against the roster of its row, and is anchored in the secret store', async () => {
    const { trail } = await fixture(6);
    const verification = await trail.verify();
    expect(verification).toMatchObject({ ok: true, rows: 8, legacyRows: 0, anchored: true, checkpoint: null });
    expect(verification.head).toEqual(trail.head());
    expect(trail.head()?.fingerprint).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect(trail.roster('main').active().map((entry) => entry.name).sort()).toEqual(['alice', 'bob']);
    expect(trail.linkage({ profile: 'main', subject: 'W3' })).toMatchObject({ problem: null, collected: [expect.objectContaining({ seq: 5 })] });
  });

  it('verifies against its own checkpoint, also after more rows were appended', async () => {
    const { trail } = await fixture(3);
    const checkpoint = trail.checkpoint();
    if (!checkpoint) throw new Error('no checkpoint');
    const copy = parseCheckpoint(JSON.stringify(checkpoint));
    trail.system({ action: 'deposits/export' });
    await trail.flush();
    expect(await trail.verify({ against: copy })).toMatchObject({ ok: true, rows: 6, checkpoint: 'matched' });
    // An altered checkpoint file does not verify.
    const altered = { ...copy, checkpoint: { ...copy.checkpoint, seq: copy.checkpoint.seq - 1 } };
    expect(await trail.verify({ against: altered })).toMatchObject({ ok: false, reason: 'the checkpoint file was altered: its signature does not verify' });
    expect(() => parseCheckpoint('{"checkpoint":{}}')).toThrow(/not a Treasury Desk audit checkpoint/);
  });
});

describe('tampering', () => {
  it('finds a column edited in place (the statement no longer agrees with it)', async () => {
    const { db, trail } = await fixture(8);
    dropGuards(db);
    db.prepare("UPDATE audit_log SET operator = 'mallory' WHERE seq = 5").run();
    db.prepare("UPDATE audit_log SET subject = 'W-other' WHERE seq = 7").run();
    expect(await trail.verify()).toMatchObject({ ok: false, firstBadSeq: 5, rows: 4, reason: "row 5's columns no longer say what its signed statement says" });
  });

  it('finds a statement edited and its row re-hashed: the signature no longer verifies', async () => {
    const { db, trail } = await fixture(6);
    dropGuards(db);
    const row = getAuditRow(db, 3);
    if (!row) throw new Error('no row 3');
    const forged = row.statement.replace('"subject":"W1"', '"subject":"W9"');
    expect(forged).not.toBe(row.statement);
    db.prepare("UPDATE audit_log SET statement = ?, subject = 'W9', hash = ? WHERE seq = 3").run(forged, auditRowHash(forged, row.signature));
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, firstBadSeq: 3 });
    expect(result.ok ? '' : result.reason).toMatch(/row 3's signature does not verify with alice's key/);
  });

  it('finds an edited statement that was not re-hashed', async () => {
    const { db, trail } = await fixture(4);
    dropGuards(db);
    const row = getAuditRow(db, 4);
    if (!row) throw new Error('no row 4');
    db.prepare('UPDATE audit_log SET statement = ? WHERE seq = 4').run(row.statement.replace('"i":2', '"i":3'));
    expect(await trail.verify()).toMatchObject({ ok: false, firstBadSeq: 4, reason: 'row 4 does not match its hash: it was altered' });
  });

  it('finds a deleted row (a gap in seq) and a deleted first row', async () => {
    const middle = await fixture(6);
    dropGuards(middle.db);
    middle.db.prepare('DELETE FROM audit_log WHERE seq = 4').run();
    const gap = await middle.trail.verify();
    expect(gap).toMatchObject({ ok: false, firstBadSeq: 4, rows: 3 });
    expect(gap.ok ? '' : gap.reason).toMatch(/row 4 is missing/);
    const first = await fixture(2);
    dropGuards(first.db);
    first.db.prepare('DELETE FROM audit_log WHERE seq = 1').run();
    expect(await first.trail.verify()).toMatchObject({ ok: false, firstBadSeq: 1 });
  });

  it('finds rows renumbered to hide a deletion: each statement names the row it was signed for', async () => {
    const { db, trail } = await fixture(5);
    dropGuards(db);
    db.exec('DELETE FROM audit_log WHERE seq = 4; UPDATE audit_log SET seq = seq - 1 WHERE seq > 4;');
    expect(await trail.verify()).toMatchObject({ ok: false, firstBadSeq: 4, reason: 'row 4 holds the statement signed for row 5' });
  });

  it('finds rows cut from the end, by the head this workstation anchored', async () => {
    const { db, trail } = await fixture(6);
    dropGuards(db);
    db.exec('DELETE FROM audit_log WHERE seq >= 7');
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, firstBadSeq: 7 });
    expect(result.ok ? '' : result.reason).toMatch(/ends at row 6, but this workstation already saw row 8: rows were removed from its end/);
  });

  it('finds a system row signed by a key that is neither this desk’s nor one the founders named', async () => {
    const { db, trail } = await fixture(2);
    const stranger = generateSigningKey();
    appendStatement(
      db,
      { kind: 'system', profile: 'main', subject: '', body: { action: 'deposits/export', details: {} }, operator: null, keyId: stranger.keyId },
      (text) => signBytes(stranger.privateKey, STATEMENT_DOMAIN + text),
      5_000,
    );
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, firstBadSeq: 5 });
    expect(result.ok ? '' : result.reason).toMatch(/neither this desk's key nor one its founders named/);
  });

  it('finds an operator row signed by someone the roster never enrolled', async () => {
    const { db, trail } = await fixture(1);
    const mallory = generateSigningKey();
    const row = appendStatement(
      db,
      { kind: 'approve', profile: 'main', subject: 'a'.repeat(64), body: {}, operator: 'mallory', keyId: mallory.keyId },
      (text) => signStatementText(mallory.privateKey, text),
      6_000,
    );
    expect(parseStatement(row.statement)?.operator).toBe('mallory');
    const result = await trail.verify();
    expect(result).toMatchObject({ ok: false, firstBadSeq: row.seq });
    expect(result.ok ? '' : result.reason).toMatch(/signed as mallory, who was not enrolled then/);
  });
});

describe('the linkage walk before each send, incremental', () => {
  it('collects a subject’s rows from before and after the last walk that held, and finds rows edited or deleted from another connection since', async () => {
    const { db, trail } = await fixture(6);
    expect(trail.linkage({ profile: 'main', subject: 'W3' })).toMatchObject({ problem: null, collected: [expect.objectContaining({ seq: 5 })] });
    trail.append({ kind: 'action', profile: 'main', subject: 'W3', body: { action: 'addresses/create', details: { again: true } }, operator: 'alice', keyId: alice.keyId }, (text) =>
      signStatementText(alice.privateKey, text),
    );
    const walk = trail.linkage({ profile: 'main', subject: 'W3' });
    expect(walk.problem).toBeNull();
    expect(walk.collected.map((row) => row.seq)).toEqual([5, 9]);

    // Someone else with the file: the rows walked before are walked again, so a change there stops the send.
    const other = openDatabase(db.name);
    try {
      dropGuards(other);
      other.prepare("UPDATE audit_log SET subject = 'W-other' WHERE seq = 5").run();
      expect(trail.linkage({ profile: 'main', subject: 'W3' })).toMatchObject({ problem: { seq: 5, reason: "row 5's columns no longer say what its signed statement says" } });
      other.prepare("UPDATE audit_log SET subject = 'W3' WHERE seq = 5").run();
      expect(trail.linkage({ profile: 'main', subject: 'W3' }).problem).toBeNull();
      other.prepare('DELETE FROM audit_log WHERE seq = 4').run();
      expect(trail.linkage({ profile: 'main', subject: 'W3' }).problem).toMatchObject({ seq: 4, reason: expect.stringMatching(/row 4 is missing/) });
    } finally {
      closeDatabase(other);
    }
  });
});
