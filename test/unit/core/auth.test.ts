// Operator passphrase hashing (scrypt) and role permissions.
import { describe, expect, it } from 'vitest';
import { hashPassphrase, passphraseProblem, verifyPassphrase } from '../../../electron/core/auth/passphrase';
import { roleMay } from '../../../electron/core/auth/roles';

describe('passphrases', () => {
  it('verifies the right passphrase and refuses a wrong one', async () => {
    const encoded = await hashPassphrase('correct horse battery');
    expect(encoded).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(encoded).not.toContain('correct horse');
    expect(await verifyPassphrase('correct horse battery', encoded)).toBe(true);
    expect(await verifyPassphrase('correct horse batterY', encoded)).toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassphrase('same passphrase!')).not.toBe(await hashPassphrase('same passphrase!'));
  });

  it('treats a malformed stored hash as a mismatch, not a crash', async () => {
    for (const bad of ['', 'scrypt$1$2', 'bcrypt$x$y$z$a$b', 'scrypt$99999999$8$1$c2FsdA==$a2V5', 'scrypt$32768$8$1$$']) {
      expect(await verifyPassphrase('anything at all', bad)).toBe(false);
    }
  });

  it('normalises Unicode so the same passphrase typed differently still matches', async () => {
    const encoded = await hashPassphrase('caf\u00e9 au lait!');
    expect(await verifyPassphrase('cafe\u0301 au lait!', encoded)).toBe(true);
  });

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
  it('reserves operator management to admins', () => {
    expect(roleMay('approver', 'manageOperators')).toBe(false);
    expect(roleMay('admin', 'manageOperators')).toBe(true);
  });
});
