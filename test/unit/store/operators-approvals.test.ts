// Operators (names unique ignoring case, the hash only via getOperatorCredential) and approvals (one decision per
// operator per request, the first one standing).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approvalTally,
  countActiveAdmins,
  createOperator,
  createWithdrawalRequest,
  getOperator,
  getOperatorByName,
  getOperatorCredential,
  listApprovals,
  listOperators,
  recordApproval,
  setOperatorDisabled,
  setOperatorPassphraseHash,
  setOperatorRole,
  type OperatorRole,
  type StoreDatabase,
} from '../../../electron/core/store';
import { PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir();
let db: StoreDatabase;

beforeAll(() => {
  db = seededDatabase(temp);
});

describe('operators', () => {
  it('creates operators with roles; lists and lookups never carry the passphrase hash', () => {
    const dave = createOperator(db, { name: 'Dave', role: 'viewer', passphraseHash: 'scrypt$1$2$3$salt$key' }, 5_000);
    expect(dave).toEqual({ id: dave.id, name: 'Dave', role: 'viewer', createdAt: 5_000, updatedAt: 5_000, disabled: false });
    expect(getOperatorByName(db, 'dave')).toEqual(dave);
    expect(getOperator(db, dave.id)).toEqual(dave);
    for (const operator of listOperators(db)) expect(Object.keys(operator)).not.toContain('passphraseHash');
    expect(JSON.stringify(listOperators(db))).not.toContain('scrypt$');
    expect(getOperatorCredential(db, 'DAVE')).toEqual({ id: dave.id, name: 'Dave', role: 'viewer', disabled: false, passphraseHash: 'scrypt$1$2$3$salt$key' });
  });

  it('refuses a second operator whose name differs only in case, unknown roles and empty hashes', () => {
    expect(() => createOperator(db, { name: 'ALICE', role: 'viewer', passphraseHash: 'h' })).toThrow(/already exists/);
    expect(() => createOperator(db, { name: 'eve', role: 'root' as OperatorRole, passphraseHash: 'h' })).toThrow(/unknown operator role/);
    expect(() => createOperator(db, { name: 'eve', role: 'viewer', passphraseHash: '' })).toThrow(/empty/);
    expect(() => createOperator(db, { name: '  ', role: 'viewer', passphraseHash: 'h' })).toThrow(/1 to 64/);
  });

  it('changes role, hash and disabled flag, and counts the admins who can still sign in', () => {
    const frank = createOperator(db, { name: 'frank', role: 'initiator', passphraseHash: 'old' }, 1);
    expect(setOperatorRole(db, frank.id, 'admin', 2)).toBe(true);
    expect(setOperatorPassphraseHash(db, frank.id, 'new', 3)).toBe(true);
    expect(getOperatorCredential(db, 'frank')?.passphraseHash).toBe('new');
    const admins = countActiveAdmins(db);
    expect(setOperatorDisabled(db, frank.id, true, 4)).toBe(true);
    expect(countActiveAdmins(db)).toBe(admins - 1);
    expect(getOperator(db, frank.id)).toMatchObject({ role: 'admin', disabled: true, updatedAt: 4 });
    expect(setOperatorRole(db, 424_242, 'viewer')).toBe(false);
  });
});

describe('approvals', () => {
  it('records one decision per operator per request; the first one stands', () => {
    const alice = getOperatorByName(db, 'alice');
    const bob = getOperatorByName(db, 'bob');
    const carol = getOperatorByName(db, 'carol');
    if (alice === undefined || bob === undefined || carol === undefined) throw new Error('seed operators missing');
    const request = createWithdrawalRequest(db, {
      profile: PROFILE,
      currency: 'trx',
      amount: '5',
      toAddress: 'T',
      withdrawType: 'normal',
      userOrder: 'APPROVE-1',
      initiatorId: alice.id,
    });
    const first = recordApproval(db, { requestId: request.id, operatorId: bob.id, decision: 'approve' }, 100);
    expect(first).toMatchObject({ recorded: true, approval: { requestId: request.id, operatorId: bob.id, decision: 'approve', reason: null, at: 100 } });
    const change = recordApproval(db, { requestId: request.id, operatorId: bob.id, decision: 'reject', reason: 'changed my mind' }, 200);
    expect(change).toMatchObject({ recorded: false, existing: { decision: 'approve', at: 100 } });
    recordApproval(db, { requestId: request.id, operatorId: carol.id, decision: 'reject', reason: 'unknown address' }, 300);
    expect(listApprovals(db, request.id).map((a) => [a.operatorId, a.decision, a.reason])).toEqual([
      [bob.id, 'approve', null],
      [carol.id, 'reject', 'unknown address'],
    ]);
    expect(approvalTally(db, request.id)).toEqual({ approvals: 1, rejections: 1 });
    expect(approvalTally(db, 999_999)).toEqual({ approvals: 0, rejections: 0 });
  });

  it('refuses approvals of unknown requests or by unknown operators', () => {
    expect(() => recordApproval(db, { requestId: 999_999, operatorId: 1, decision: 'approve' })).toThrow(/unknown withdrawal request/);
  });
});
