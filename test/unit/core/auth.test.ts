// Operator passphrase rules and role permissions (the passphrase check itself is unsealing: test/unit/core/sealed-key.test.ts).
import { describe, expect, it } from 'vitest';
import { passphraseProblem } from '../../../electron/core/auth/passphrase';
import { roleMay } from '../../../electron/core/auth/roles';

describe('passphrases', () => {
  it('explains a weak passphrase', () => {
    expect(passphraseProblem('short')).toMatch(/at least 10/);
    expect(passphraseProblem(' padded passphrase ')).toMatch(/spaces/);
    expect(passphraseProblem('long enough phrase')).toBeUndefined();
  });
});

describe('roles', () => {
  it('lets only approvers and admins approve', () => {
    expect(roleMay('viewer', 'approveWithdrawal')).toBe(false);
    expect(roleMay('initiator', 'approveWithdrawal')).toBe(false);
    expect(roleMay('approver', 'approveWithdrawal')).toBe(true);
    expect(roleMay('admin', 'approveWithdrawal')).toBe(true);
  });
  it('lets viewers only view', () => {
    expect(roleMay('viewer', 'view')).toBe(true);
    expect(roleMay('viewer', 'requestWithdrawal')).toBe(false);
    expect(roleMay('viewer', 'createAddress')).toBe(false);
  });
  it('lets initiators, approvers and admins submit (a named operator signs the submission), never viewers', () => {
    expect(roleMay('viewer', 'submitWithdrawal')).toBe(false);
    expect(roleMay('initiator', 'submitWithdrawal')).toBe(true);
    expect(roleMay('approver', 'submitWithdrawal')).toBe(true);
    expect(roleMay('admin', 'submitWithdrawal')).toBe(true);
  });
  it('reserves operator management to admins', () => {
    expect(roleMay('approver', 'manageOperators')).toBe(false);
    expect(roleMay('admin', 'manageOperators')).toBe(true);
  });
});
