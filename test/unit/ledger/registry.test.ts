// The statement-kind registry (ledger/registry.ts): one refused row for each rule family (wrong role, not enrolled,
// disabled, wrong key, a desk key where an operator must sign, an unknown action or desk event, an unknown desk key),
// each named with its seq, kind and signer; and the ChainVerifier refuses on replay what the local path refuses.
import { describe, expect, it } from 'vitest';
import { ChainVerifier } from '../../../electron/core/audit/trail';
import { refuseRow, type ChainStanding, type DeskKeyInForce } from '../../../electron/core/ledger/registry';
import { Roster, type ChainRow } from '../../../electron/core/ledger/roster';
import { generateSigningKey, type SigningKeyPair } from '../../../electron/core/statements/keys';
import { canonicalHash, STATEMENT_DOMAIN, type Statement, type StatementBody } from '../../../electron/core/statements/statement';
import { signBytes } from '../../../electron/core/statements/keys';
import { actionOf, type AuditRow } from '../../../electron/core/audit/audit-table';
import { signedRow } from '../../support/signed-rows';

const desk = generateSigningKey();
const keys: Record<string, SigningKeyPair> = { ann: generateSigningKey(), ivy: generateSigningKey(), pat: generateSigningKey(), vic: generateSigningKey(), dan: generateSigningKey() };
const INTENT = 'a'.repeat(64);

/** A chain: ann founds alone, then enrols ivy (initiator), pat (approver), vic (viewer) and dan (approver, then disabled). */
function baseChain(): ChainRow[] {
  const rows: ChainRow[] = [];
  const add = (operator: string, kind: Statement['kind'], subject: string, body: StatementBody, key = keys[operator]!): ChainRow => {
    const row = signedRow(rows.at(-1), { kind, profile: 'main', subject, body, operator, keyId: key.keyId, at: 1_000 + rows.length }, key.privateKey);
    rows.push(row);
    return row;
  };
  const founding: StatementBody = { admins: [{ name: 'ann', publicKey: keys['ann']!.publicKey }], deskKey: { publicKey: desk.publicKey }, merchantId: 'M-1' };
  add('ann', 'found', canonicalHash(founding), founding);
  for (const [name, role] of [['ivy', 'initiator'], ['pat', 'approver'], ['vic', 'viewer'], ['dan', 'approver']] as const) {
    const invite = add('ann', 'enrol', name, { role, codeHash: '0'.repeat(64) });
    add(name, 'accept', name, { proposal: invite.hash, publicKey: keys[name]!.publicKey });
  }
  add('ann', 'disable', 'dan', {});
  return rows;
}

/** The standing after `rows` (replayed as the verifier does), with ivy's request of INTENT in it. */
function standingAfter(rows: readonly ChainRow[], deskKeys: ReadonlyMap<string, DeskKeyInForce> = new Map([[desk.keyId, { publicKey: desk.publicKey, workstation: null, own: true }]])): ChainStanding {
  const roster = Roster.replay(rows);
  return { roster: () => roster, deskKey: (keyId) => deskKeys.get(keyId), initiator: (subject) => (subject === INTENT ? 'ivy' : undefined), legacy: () => ({ rows: 0, headHash: '' }), foundingRefusal: () => null, afterPin: false, teamDesk: () => false };
}

function next(rows: readonly ChainRow[], operator: string | null, kind: Statement['kind'], body: StatementBody, key: SigningKeyPair, subject = INTENT): ChainRow {
  const previous = rows.at(-1);
  const fields = { kind, profile: 'main', subject, body, operator, keyId: key.keyId, at: 9_000 };
  if (operator !== null) return signedRow(previous, fields, key.privateKey);
  const unsigned = signedRow(previous, fields, key.privateKey);
  // A desk key signs the statement text under the same domain as an operator's key (AuditTrail.systemDraft).
  const signature = signBytes(key.privateKey, STATEMENT_DOMAIN + unsigned.text);
  return { ...unsigned, signature };
}

describe('the withdrawal decisions', () => {
  const rows = baseChain();
  const at = rows.length + 1;
  it.each([
    ['a request by a viewer', 'vic', 'request', `row ${at} (request by vic) does not hold: vic is a viewer and may not request withdrawals`],
    ['an approval by a viewer', 'vic', 'approve', `row ${at} (approve by vic) does not hold: vic is a viewer and may not approve withdrawals`],
    ['an approval by the initiator', 'ivy', 'approve', `row ${at} (approve by ivy) does not hold: ivy is an initiator and may not approve withdrawals`],
    ['a submission by a viewer', 'vic', 'submit', `row ${at} (submit by vic) does not hold: vic is a viewer and may not submit withdrawals`],
    ['a cancellation by an approver who did not make the request', 'pat', 'cancel', `row ${at} (cancel by pat) does not hold: pat is an approver and may not cancel withdrawals`],
  ] as const)('refuses %s, naming the row', (_what, operator, kind, reason) => {
    const body: StatementBody = kind === 'request' ? { intent: { v: 1, merchantId: 'M-1', currency: 'trx.usdt', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: 'u1', memo: null, requiredApprovals: 1, policy: 'default', requestedAt: 1 }, warnings: [] } : kind === 'cancel' ? { fingerprint: 'f', reason: null } : { fingerprint: 'f' };
    expect(refuseRow(next(rows, operator, kind, body, keys[operator]!), standingAfter(rows))).toBe(reason);
  });

  it('lets the request’s approver approve and its initiator cancel', () => {
    expect(refuseRow(next(rows, 'pat', 'approve', { fingerprint: 'f' }, keys['pat']!), standingAfter(rows))).toBeNull();
    expect(refuseRow(next(rows, 'ivy', 'cancel', { fingerprint: 'f', reason: null }, keys['ivy']!), standingAfter(rows))).toBeNull();
    expect(refuseRow(next(rows, 'ann', 'cancel', { fingerprint: 'f', reason: 'admin' }, keys['ann']!), standingAfter(rows))).toBeNull();
  });

  it('refuses a row by someone not enrolled, a disabled operator, a wrong key, a desk key, and a body of another shape', () => {
    const mallory = generateSigningKey();
    expect(refuseRow(next(rows, 'mallory', 'approve', { fingerprint: 'f' }, mallory), standingAfter(rows))).toBe(`row ${at} is signed as mallory, who was not enrolled then: signed by no enrolled key`);
    expect(refuseRow(next(rows, 'dan', 'approve', { fingerprint: 'f' }, keys['dan']!), standingAfter(rows))).toBe(`row ${at} is signed by dan after they were disabled`);
    expect(refuseRow(next(rows, 'pat', 'approve', { fingerprint: 'f' }, mallory), standingAfter(rows))).toBe(`row ${at} is signed with key ${mallory.keyId}, not pat's key ${keys['pat']!.keyId}`);
    expect(refuseRow(next(rows, null, 'approve', { fingerprint: 'f' }, desk), standingAfter(rows))).toBe(`row ${at} (approve) is signed by desk key ${desk.keyId}: only an operator signs approve statements, a desk key never vouches for one`);
    expect(refuseRow(next(rows, 'pat', 'approve', { reason: 'no fingerprint' }, keys['pat']!), standingAfter(rows))).toMatch(new RegExp(`^row ${at} \\(approve by pat\\) does not hold: its body is not what approve statements hold \\(fingerprint: `));
  });
});

describe('roster, action and desk-event rules', () => {
  const rows = baseChain();
  const at = rows.length + 1;
  it('refuses a roster change by a non-admin through the roster’s own rule, and a desk-signed one', () => {
    expect(refuseRow(next(rows, 'pat', 'enrol', { role: 'admin', codeHash: '0'.repeat(64) }, keys['pat']!, 'eve'), standingAfter(rows))).toMatch(new RegExp(`^row ${at} \\(enrol by pat\\) does not hold: proposal refused: pat is an? approver$`));
    expect(refuseRow(next(rows, null, 'disable', {}, desk, 'ann'), standingAfter(rows))).toMatch(/only an operator signs disable statements, a desk key never vouches for one/);
  });

  it('refuses an unknown action, an action the role may not sign, and a workstation enrolment by a non-admin', () => {
    expect(refuseRow(next(rows, 'pat', 'action', { action: 'money/print', details: {} }, keys['pat']!, ''), standingAfter(rows))).toBe(`row ${at} (action money/print by pat) does not hold: this version knows no action money/print (update this workstation if a newer one wrote it)`);
    expect(refuseRow(next(rows, 'vic', 'action', { action: 'labels/set', details: {} }, keys['vic']!, 'deposit:1'), standingAfter(rows))).toBe(`row ${at} (action labels/set by vic) does not hold: vic is a viewer and may not sign labels/set`);
    const station = generateSigningKey();
    expect(refuseRow(next(rows, 'pat', 'action', { action: 'team/workstation', details: { workstation: 'X', publicKey: station.publicKey } }, keys['pat']!, 'X'), standingAfter(rows))).toBe(`row ${at} (action team/workstation by pat) does not hold: pat enrols a workstation but is not an admin`);
    expect(refuseRow(next(rows, 'ann', 'action', { action: 'team/workstation', details: { workstation: 'X', publicKey: station.publicKey } }, keys['ann']!, 'X'), standingAfter(rows))).toBeNull();
    // A desk key belongs to one workstation.
    const bound = new Map([[station.keyId, { publicKey: station.publicKey, workstation: 'W', own: false }]]);
    expect(refuseRow(next(rows, 'ann', 'action', { action: 'team/workstation', details: { workstation: 'X', publicKey: station.publicKey } }, keys['ann']!, 'X'), standingAfter(rows, bound))).toBe(`row ${at} (action team/workstation by ann) does not hold: desk key ${station.keyId} already belongs to workstation W`);
  });

  it('refuses a desk event that is not one of the named ones, and one signed by a key not in force', () => {
    expect(refuseRow(next(rows, null, 'system', { action: 'roster/reset', details: {} }, desk, ''), standingAfter(rows))).toMatch(new RegExp(`^row ${at} \\(system roster/reset by desk key ${desk.keyId}\\) does not hold: a desk key signs only the desk's named events, and roster/reset is not one`));
    const stranger = generateSigningKey();
    expect(refuseRow(next(rows, null, 'system', { action: 'withdrawals/status', details: { status: 'fail' } }, stranger, 'u1'), standingAfter(rows))).toMatch(/which is neither this desk's key nor one its founders named/);
    expect(refuseRow(next(rows, null, 'system', { action: 'withdrawals/status', details: { status: 'fail' } }, desk, 'u1'), standingAfter(rows))).toBeNull();
  });
});

describe('replay', () => {
  it('refuses on replay the approval a viewer signed and the submission of someone without the submit permission, naming them', () => {
    const rows = baseChain();
    const request = next(rows, 'ivy', 'request', { intent: { v: 1, merchantId: 'M-1', currency: 'trx.usdt', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: 'u1', memo: null, requiredApprovals: 1, policy: 'default', requestedAt: 1 }, warnings: [] }, keys['ivy']!);
    const chain = [...rows, request];
    const toAudit = (row: ChainRow): AuditRow => ({
      seq: row.seq, at: row.statement.at, profile: row.statement.profile, kind: row.statement.kind, action: actionOf(row.statement.kind, row.statement.body), operator: row.statement.operator,
      subject: row.statement.subject, keyId: row.statement.keyId, statement: row.text, signature: row.signature, prevHash: row.statement.prev, hash: row.hash,
    });
    for (const [operator, kind, reason] of [
      ['vic', 'approve', 'vic is a viewer and may not approve withdrawals'],
      ['vic', 'submit', 'vic is a viewer and may not submit withdrawals'],
      ['ivy', 'approve', 'ivy is an initiator and may not approve withdrawals'],
    ] as const) {
      const verifier = new ChainVerifier({ keyId: desk.keyId, publicKey: desk.publicKey }, () => ({ rows: 0, headHash: '' }));
      for (const row of chain) expect(verifier.check(toAudit(row))).toBeNull();
      const forged = next(chain, operator, kind, { fingerprint: 'f' }, keys[operator]!);
      expect(verifier.check(toAudit(forged))).toEqual({ seq: forged.seq, reason: `row ${forged.seq} (${kind} by ${operator}) does not hold: ${reason}` });
      expect(verifier.rows).toBe(chain.length);
    }
  });
});
