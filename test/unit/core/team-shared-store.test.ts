// The shared store's pure parts: URL redaction (the database password never shown), the claim decision, the append
// checks, and how a node-postgres failure becomes a refusal that says what to do.
import { describe, expect, it } from 'vitest';
import { describePgFailure, pgFailure, checkDatabaseUrl } from '../../../electron/core/team/postgres-store';
import { redactDatabaseUrl, SharedStoreError, urlWithoutPassword, type SubmissionClaim } from '../../../electron/core/team/shared-store';
import { checkAppend, decideClaim, sameHead } from '../../../electron/core/team/shared-store-rules';
import { chainRows } from '../../support/shared-chain';

const PASSWORD = 's3cret-Pa55word';

describe('database URLs', () => {
  it('redacts the password in the authority and in a password parameter, keeping the rest', () => {
    expect(redactDatabaseUrl(`postgres://desk:${PASSWORD}@db.example:5432/treasury?sslmode=verify-full`)).toBe(
      'postgres://desk:***@db.example:5432/treasury?sslmode=verify-full',
    );
    expect(redactDatabaseUrl(`postgres://desk@db.example/treasury?password=${PASSWORD}`)).toBe('postgres://desk@db.example/treasury?password=***');
    expect(redactDatabaseUrl(`not a url ${PASSWORD}`)).not.toContain(PASSWORD);
  });

  it('drops the password for keeping in settings', () => {
    expect(urlWithoutPassword(`postgres://desk:${PASSWORD}@db.example/treasury?password=x&sslmode=verify-full`)).toBe(
      'postgres://desk@db.example/treasury?sslmode=verify-full',
    );
  });

  it('refuses URLs that are not postgres:// with a host, a database and a role, never echoing the password', () => {
    for (const url of [`mysql://desk:${PASSWORD}@h/db`, `postgres://desk:${PASSWORD}@h`, `postgres://:${PASSWORD}@h/db`, `${PASSWORD}`]) {
      let caught: unknown;
      try {
        checkDatabaseUrl(url);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SharedStoreError);
      expect((caught as SharedStoreError).kind).toBe('badUrl');
      expect((caught as SharedStoreError).message).toMatch(/postgres:\/\/ROLE:PASSWORD@HOST:PORT\/DATABASE/);
      expect((caught as SharedStoreError).message).not.toContain(PASSWORD);
    }
    expect(checkDatabaseUrl('postgresql://desk@h/db').hostname).toBe('h');
  });
});

describe('node-postgres failures', () => {
  const failure = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

  it.each([
    [failure('ECONNREFUSED'), 'unreachable', /connection refused/],
    [failure('ENOTFOUND'), 'unreachable', /unknown host/],
    [failure('57P01', 'terminating connection due to administrator command'), 'unreachable', /shut down by its administrator/],
    [new Error('Connection terminated due to connection timeout'), 'unreachable', /did not answer in time/],
    [new Error('Connection terminated unexpectedly'), 'unreachable', /connection was lost/],
    [failure('28P01', 'password authentication failed for user "desk"'), 'authentication', /password authentication failed/],
    [failure('42501', 'permission denied for schema treasury_desk'), 'authentication', /permission denied/],
    [failure('3D000', 'database "x" does not exist'), 'badUrl', /does not exist/],
    [failure('42P01', 'relation "treasury_desk.audit_log" does not exist'), 'notInitialised', /no Treasury Desk schema/],
    [failure('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'tls', /self-signed/],
  ] as const)('%s → %s', (error, kind, reason) => {
    expect(describePgFailure(error)).toMatchObject({ kind, reason: expect.stringMatching(reason) });
    const refusal = pgFailure(error, 'postgres://desk:***@db/treasury');
    expect(refusal.message).toMatch(/^team database postgres:\/\/desk:\*\*\*@db\/treasury: .+; .+/);
  });
});

describe('claims', () => {
  const claim = (fields: Partial<SubmissionClaim>): SubmissionClaim => ({ userOrder: 'wd-1', workstation: 'ws-a', leaseUntil: 1_000, state: 'claimed', result: null, ...fields });

  it('renews the holder, takes over an expired lease, refuses a live one and any done claim', () => {
    expect(decideClaim(claim({}), 'ws-a', 5_000)).toEqual({ take: 'renew' });
    expect(decideClaim(claim({}), 'ws-b', 1_001)).toEqual({ take: 'over' });
    expect(decideClaim(claim({}), 'ws-b', 1_000)).toMatchObject({ take: 'refuse', outcome: { claimed: false, heldBy: { workstation: 'ws-a' } } });
    expect(decideClaim(claim({ state: 'done' }), 'ws-a', 5_000)).toMatchObject({ take: 'refuse' });
    expect(decideClaim(claim({ state: 'done' }), 'ws-b', 5_000)).toMatchObject({ take: 'refuse' });
  });
});

describe('appends', () => {
  it('accepts consecutive rows on the expected head and compares heads by seq and hash', () => {
    const rows = chainRows(null, 3);
    expect(() => checkAppend(rows, [], null)).not.toThrow();
    const head = { seq: 3, hash: rows[2]?.hash ?? '' };
    expect(() => checkAppend(chainRows(head, 2), [], head)).not.toThrow();
    expect(sameHead(head, { ...head })).toBe(true);
    expect(sameHead(head, { ...head, hash: 'f'.repeat(64) })).toBe(false);
    expect(sameHead(null, null)).toBe(true);
    expect(sameHead(head, null)).toBe(false);
  });

  it('refuses a malformed hash, a missing signature and a non-finite projection number', () => {
    const [row] = chainRows(null, 1);
    if (row === undefined) throw new Error('no row');
    expect(() => checkAppend([{ ...row, hash: 'XYZ' }], [], null)).toThrow(/malformed hash/);
    expect(() => checkAppend([{ ...row, signature: '' }], [], null)).toThrow(/lacks its kind, action, statement, signature or key id/);
    expect(() => checkAppend([row], [{ table: 'withdrawal_requests', key: 'wd-1', row: { n: Number.POSITIVE_INFINITY } }], null)).toThrow(/not a finite number/);
    expect(() => checkAppend([row], [{ table: 'withdrawal_requests', key: '', row: {} }], null)).toThrow(/projection key/);
  });
});
