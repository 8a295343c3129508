// Operators as the store keeps them (store/operators.ts): per-profile names unique ignoring case, the wrong-passphrase
// counter and lockout, and sealed key rows; roles, status and parties are deliberately not stored here.
import { beforeAll, describe, expect, it } from 'vitest';
import { type StoreDatabase } from '../../../electron/core/store/database';
import { countOperatorRecords, deleteOperatorRecords, ensureOperator, getOperatorKey, getOperatorRecord, listOperatorRecords, operatorNameProblem, claimPassphraseAttempt, resetPassphraseFailures, saveOperatorKey } from '../../../electron/core/operators/operators-table';
import { createProfile, deleteProfile } from '../../../electron/core/profiles/profiles-table';
import { exportPrivateKey, generateSigningKey } from '../../../electron/core/statements/keys';
import { parseSealedKey, sealPrivateKey } from '../../../electron/core/operators/sealed-key';
import { PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir();
let db: StoreDatabase;

beforeAll(() => {
  db = seededDatabase(temp);
  createProfile(db, { name: 'other', baseUrl: 'https://other.example', merchantId: 'M-2002' }, 1_000);
});

describe('operator records', () => {
  it('creates an operator once per profile: the same name in any case is the same record, spelled as first given', () => {
    const dave = ensureOperator(db, PROFILE, 'Dave', 5_000);
    expect(dave).toEqual({ id: dave.id, profile: PROFILE, name: 'Dave', failedAttempts: 0, lockedUntil: null, createdAt: 5_000 });
    expect(ensureOperator(db, PROFILE, 'DAVE', 6_000)).toEqual(dave);
    expect(getOperatorRecord(db, PROFILE, 'dave')).toEqual(dave);
    expect(getOperatorRecord(db, PROFILE, ' dave ')).toEqual(dave);
    // Operators belong to a profile: the same name elsewhere is another operator.
    const elsewhere = ensureOperator(db, 'other', 'dave', 7_000);
    expect(elsewhere.id).not.toBe(dave.id);
    expect(elsewhere).toMatchObject({ profile: 'other', name: 'dave' });
    expect(getOperatorRecord(db, 'other', 'mallory')).toBeUndefined();
  });

  it('keeps no role, status or party (those come from the signed roster)', () => {
    const record = ensureOperator(db, PROFILE, 'erin');
    expect(Object.keys(record).sort()).toEqual(['createdAt', 'failedAttempts', 'id', 'lockedUntil', 'name', 'profile']);
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('operators') as string[];
    expect(columns.filter((column) => /role|status|party|disabled|passphrase/.test(column))).toEqual([]);
  });

  it('refuses names with spaces at either end, empty or too long names, control and text-direction characters, unknown profiles', () => {
    for (const bad of ['', ' padded', 'padded ', 'x'.repeat(65), 'tab\there', 'escape\u001b[31m', 'evil\u202eeman', 'zero\u200bwidth\u2066isolate']) {
      expect(operatorNameProblem(bad), JSON.stringify(bad)).not.toBeNull();
      expect(() => ensureOperator(db, PROFILE, bad), JSON.stringify(bad)).toThrow();
    }
    expect(operatorNameProblem('Zoë-Ann 2')).toBeNull();
    expect(operatorNameProblem('x'.repeat(64))).toBeNull();
    expect(() => ensureOperator(db, 'nobody', 'ghost')).toThrow(/FOREIGN KEY/);
  });

  it('lists and counts the operators of one profile, by name ignoring case', () => {
    const names = listOperatorRecords(db, PROFILE).map((record) => record.name);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(names).toEqual(expect.arrayContaining(['alice', 'bob', 'carol']));
    expect(countOperatorRecords(db, PROFILE)).toBe(names.length);
    expect(listOperatorRecords(db, 'other').map((record) => record.name)).toEqual(['dave']);
  });
});

describe('the wrong-passphrase counter', () => {
  it('counts each attempt before it is checked, with the time before which no attempt is checked, and a right passphrase clears both', () => {
    const frank = ensureOperator(db, PROFILE, 'frank', 1);
    // The wait is computed from the count the store holds after the increment.
    const waitFromThird = (failures: number): number => (failures >= 3 ? 98_988 : 0);
    expect(claimPassphraseAttempt(db, frank.id, waitFromThird, 10)).toEqual({ allowed: true, failures: 1, lockedUntil: null });
    expect(claimPassphraseAttempt(db, frank.id, waitFromThird, 11)).toEqual({ allowed: true, failures: 2, lockedUntil: null });
    expect(claimPassphraseAttempt(db, frank.id, waitFromThird, 12)).toEqual({ allowed: true, failures: 3, lockedUntil: 99_000 });
    // While locked, an attempt is refused and not counted.
    expect(claimPassphraseAttempt(db, frank.id, waitFromThird, 98_999)).toEqual({ allowed: false, lockedUntil: 99_000 });
    expect(getOperatorRecord(db, PROFILE, 'frank')).toMatchObject({ failedAttempts: 3, lockedUntil: 99_000 });
    // The counter is per operator and per profile.
    expect(getOperatorRecord(db, PROFILE, 'alice')).toMatchObject({ failedAttempts: 0, lockedUntil: null });
    expect(resetPassphraseFailures(db, frank.id, 13)).toBe(true);
    expect(getOperatorRecord(db, PROFILE, 'frank')).toMatchObject({ failedAttempts: 0, lockedUntil: null });
    expect(resetPassphraseFailures(db, frank.id, 14)).toBe(false);
  });

  it('survives a reopen of the database (a restart does not clear a lockout)', () => {
    const path = temp.path('lockout.sqlite');
    const first = seededDatabase(temp, 'lockout.sqlite');
    const grace = ensureOperator(first, PROFILE, 'grace');
    claimPassphraseAttempt(first, grace.id, () => 123_455, 1);
    first.close();
    const again = temp.open('lockout.sqlite');
    expect(again.name).toBe(path);
    expect(getOperatorRecord(again, PROFILE, 'grace')).toMatchObject({ failedAttempts: 1, lockedUntil: 123_456 });
  });
});

describe('sealed key rows', () => {
  it('keeps the passphrase-sealed key per key id; a new passphrase re-seals the same key id in place', async () => {
    const operator = ensureOperator(db, PROFILE, 'heidi');
    const pair = generateSigningKey();
    const seal = await sealPrivateKey(pair.privateKey, 'heidi passphrase 1', { profile: PROFILE, operator: 'heidi', keyId: pair.keyId });
    saveOperatorKey(db, operator.id, { keyId: pair.keyId, publicKey: pair.publicKey, sealedKeyJson: JSON.stringify(seal) }, 100);
    const stored = getOperatorKey(db, operator.id, pair.keyId);
    expect(stored).toEqual({ keyId: pair.keyId, publicKey: pair.publicKey, sealedKeyJson: JSON.stringify(seal), createdAt: 100 });
    expect(parseSealedKey(stored?.sealedKeyJson ?? '')).toEqual(seal);
    // Nothing of the plain key is in the row.
    const plain = exportPrivateKey(pair.privateKey);
    const row = JSON.stringify(db.prepare('SELECT * FROM operator_keys WHERE operator_id = ?').all(operator.id));
    expect(row).not.toContain(plain.toString('base64'));
    expect(row).not.toContain(plain.subarray(-32).toString('base64'));
    expect(row).not.toContain(plain.subarray(-32).toString('hex'));

    const resealed = { ...seal, nonce: Buffer.alloc(12, 7).toString('base64') };
    saveOperatorKey(db, operator.id, { keyId: pair.keyId, publicKey: 'ignored on re-seal', sealedKeyJson: JSON.stringify(resealed) }, 200);
    expect(getOperatorKey(db, operator.id, pair.keyId)).toEqual({ keyId: pair.keyId, publicKey: pair.publicKey, sealedKeyJson: JSON.stringify(resealed), createdAt: 100 });

    const next = generateSigningKey();
    saveOperatorKey(db, operator.id, { keyId: next.keyId, publicKey: next.publicKey, sealedKeyJson: '{"v":1}' }, 300);
    expect(getOperatorKey(db, operator.id, next.keyId)?.createdAt).toBe(300);
    expect(getOperatorKey(db, operator.id, pair.keyId)?.createdAt).toBe(100);
    expect(getOperatorKey(db, operator.id, 'AAAA-AAAA-AAAA-AAAA')).toBeUndefined();
  });

  it('refuses a seal that is not JSON, an empty key id and a key of an unknown operator', () => {
    const operator = ensureOperator(db, PROFILE, 'ivan');
    expect(() => saveOperatorKey(db, operator.id, { keyId: 'K', publicKey: 'P', sealedKeyJson: 'not json' })).toThrow(/CHECK/);
    expect(() => saveOperatorKey(db, operator.id, { keyId: '', publicKey: 'P', sealedKeyJson: '{}' })).toThrow(/CHECK/);
    expect(() => saveOperatorKey(db, 987_654, { keyId: 'K', publicKey: 'P', sealedKeyJson: '{}' })).toThrow(/FOREIGN KEY/);
  });

  it('forgets a profile’s operators with their keys, and only that profile’s', () => {
    const fresh = seededDatabase(temp);
    createProfile(fresh, { name: 'gone', baseUrl: 'https://gone.example', merchantId: 'M-3' }, 1);
    const judy = ensureOperator(fresh, 'gone', 'judy');
    saveOperatorKey(fresh, judy.id, { keyId: 'K1', publicKey: 'P1', sealedKeyJson: '{}' });
    const keep = ensureOperator(fresh, PROFILE, 'judy');
    saveOperatorKey(fresh, keep.id, { keyId: 'K1', publicKey: 'P1', sealedKeyJson: '{}' });
    expect(deleteOperatorRecords(fresh, 'gone')).toBe(1);
    expect(listOperatorRecords(fresh, 'gone')).toEqual([]);
    expect(getOperatorKey(fresh, judy.id, 'K1')).toBeUndefined();
    expect(getOperatorKey(fresh, keep.id, 'K1')).toBeDefined();
    // Deleting a profile takes its operators (and their keys) with it.
    expect(deleteProfile(fresh, PROFILE)).toBe(true);
    expect(getOperatorKey(fresh, keep.id, 'K1')).toBeUndefined();
    expect(countOperatorRecords(fresh, PROFILE)).toBe(0);
  });
});
