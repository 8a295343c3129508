// Migration 0040 (request approvals): existing requests get required_approvals 1; the column is bounded 1..5.
import { describe, expect, it } from 'vitest';
import { createOperator, createProfile, createWithdrawalRequest, getWithdrawalRequest, MIGRATIONS, setWithdrawalRequestError, userVersion } from '../../../../electron/core/store';
import { useTempDir } from '../helpers';

const temp = useTempDir();

describe('migration 0040-request-approvals', () => {
  it('upgrades a version 30 database, keeping its requests with one required approval', () => {
    const old = temp.open('upgrade.sqlite', { migrations: MIGRATIONS.filter((migration) => migration.version <= 30) });
    createProfile(old, { name: 'p', baseUrl: 'http://127.0.0.1:1', merchantId: 'm' }, 1);
    const operator = createOperator(old, { name: 'ann', role: 'initiator', passphraseHash: 'scrypt$1$1$1$a$b' }, 1);
    old
      .prepare(
        `INSERT INTO withdrawal_requests (profile, currency, amount, to_address, withdraw_type, memo, user_order, initiator_id, state, created_at, updated_at)
         VALUES ('p', 'trx', '5', 'T', 'normal', NULL, 'td-old', ?, 'awaitingApproval', 1, 1)`,
      )
      .run(operator.id);
    old.close();
    const db = temp.open('upgrade.sqlite');
    expect(userVersion(db)).toBe(40);
    const request = getWithdrawalRequest(db, 1);
    expect(request?.requiredApprovals).toBe(1);
    expect(request?.lastError).toBeNull();
  });

  it('keeps the required approvals given at creation, bounded 1..5, and the last submission error', () => {
    const db = temp.open();
    createProfile(db, { name: 'p', baseUrl: 'http://127.0.0.1:1', merchantId: 'm' }, 1);
    const operator = createOperator(db, { name: 'ann', role: 'initiator', passphraseHash: 'scrypt$1$1$1$a$b' }, 1);
    const base = { profile: 'p', currency: 'trx', amount: '5', toAddress: 'T', withdrawType: 'normal', initiatorId: operator.id };
    const request = createWithdrawalRequest(db, { ...base, userOrder: 'td-a', requiredApprovals: 3 }, 2);
    expect(request.requiredApprovals).toBe(3);
    expect(() => createWithdrawalRequest(db, { ...base, userOrder: 'td-b', requiredApprovals: 6 }, 2)).toThrow(/CHECK/);
    expect(setWithdrawalRequestError(db, request.id, 'insufficientBalance', 3)).toBe(true);
    expect(getWithdrawalRequest(db, request.id)?.lastError).toBe('insufficientBalance');
  });
});
