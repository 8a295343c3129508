// Roster rule: a proposal about an operator stops applying once the roster moved on. A re-key issued before the
// operator was disabled cannot bring them back by being accepted (found by the CLI tests), and an invitation for a
// name that became active meanwhile cannot be accepted twice. Real signed rows in a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditTrail } from '../../../electron/core/audit/trail';
import { DeskIdentity, fileDeskSecrets } from '../../../electron/core/audit/desk-identity';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { canonicalHash, signStatementText, type StatementBody, type StatementKind } from '../../../electron/core/statements/statement';
import { appendStatement } from '../../../electron/core/audit/audit-table';
import { closeDatabase, openDatabase, type StoreDatabase } from '../../../electron/core/store/database';
import { createProfile } from '../../../electron/core/profiles/profiles-table';

const PROFILE = 'main';
let dir: string;
let db: StoreDatabase;
let trail: AuditTrail;

function sign(pair: SigningKeyPair, operator: string, kind: StatementKind, subject: string, body: StatementBody) {
  return trail.append({ kind, profile: PROFILE, subject, body, operator, keyId: pair.keyId }, (text) => signStatementText(pair.privateKey, text));
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-roster-'));
  db = openDatabase(join(dir, 'desk.sqlite'));
  createProfile(db, { name: PROFILE, baseUrl: 'https://127.0.0.1:1', merchantId: 'M1' });
  const secrets = fileDeskSecrets(join(dir, 'secrets.json'));
  trail = new AuditTrail(db, await DeskIdentity.load(secrets), secrets, Date.now);
});

afterEach(async () => {
  await trail.flush();
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe('stale proposals', () => {
  it('a re-key accepted after the operator was disabled is refused and leaves them disabled', () => {
    const sam = generateSigningKey();
    const founding: StatementBody = { admins: [{ name: 'sam', publicKey: sam.publicKey }], deskKey: { publicKey: trail.deskPublicKey }, merchantId: 'M1' };
    sign(sam, 'sam', 'found', canonicalHash(founding), founding);
    const carolKey = generateSigningKey();
    const invite = sign(sam, 'sam', 'enrol', 'carol', { role: 'approver', codeHash: '0'.repeat(64) });
    sign(carolKey, 'carol', 'accept', 'carol', { proposal: invite.hash, publicKey: carolKey.publicKey });
    expect(trail.roster(PROFILE).at('carol')?.status).toBe('active');

    const rekey = sign(sam, 'sam', 'rekey', 'carol', { codeHash: '1'.repeat(64) });
    sign(sam, 'sam', 'disable', 'carol', {});
    expect(trail.roster(PROFILE).at('carol')?.status).toBe('disabled');

    const newKey = generateSigningKey();
    const draft = { kind: 'accept' as const, profile: PROFILE, subject: 'carol', body: { proposal: rekey.hash, publicKey: newKey.publicKey }, operator: 'carol', keyId: newKey.keyId };
    // The local path refuses it (the registry's rule) and stores nothing; written by another hand, replay refuses it too.
    expect(() => sign(newKey, 'carol', 'accept', 'carol', draft.body)).toThrow(/row 6 \(accept by carol\) does not hold: the proposal no longer applies: carol is not an active operator/);
    const late = appendStatement(db, draft, (text) => signStatementText(newKey.privateKey, text));
    expect(late.seq).toBe(6);
    const roster = trail.roster(PROFILE);
    expect(roster.at('carol')).toMatchObject({ status: 'disabled', keyId: carolKey.keyId });
    expect(roster.problems).toEqual([{ seq: late.seq, reason: 'the proposal no longer applies: carol is not an active operator' }]);
  });
});
