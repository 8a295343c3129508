// `withdraw show` and the approve prompt show everything the approver signs (issue 20, part 5), in the contract's words,
// each item checked against the signed intent read from the desk's own audit log; text from people is escaped.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains';
import { groupAmount, REVIEW_LABELS, type ApproverView, type WithdrawalPreflight, type WithdrawalView } from '../../../electron/contract';
import { intentFingerprint, type WithdrawalIntent } from '../../../electron/core/statements/intent';
import { APPROVER, as, expectOk, INITIATOR, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
});
afterAll(async () => desk?.close());

/** The intent and preflight quote the initiator signed, from the request statement in the audit log. */
function signedRequest(id: string): { intent: WithdrawalIntent; quote: { fee: string; totalDebited: string } } {
  const db = new Database(desk.dbPath, { readonly: true });
  try {
    const { intent_hash: hash } = db.prepare('SELECT intent_hash FROM withdrawal_requests WHERE id = ?').get(Number(id)) as { intent_hash: string };
    const row = db.prepare("SELECT statement FROM audit_log WHERE subject = ? AND kind = 'request'").get(hash) as { statement: string };
    return (JSON.parse(row.statement) as { body: { intent: WithdrawalIntent; quote: { fee: string; totalDebited: string } } }).body;
  } finally {
    db.close();
  }
}

/** The value printed after a label (`  Label  value` or `! Label  value`). */
function valueOf(text: string, label: string): string {
  const line = text.split('\n').find((candidate) => candidate.slice(2).startsWith(`${label} `));
  if (line === undefined) throw new Error(`no line "${label}" in:\n${text}`);
  return line.slice(2 + label.length).trim();
}

describe('the approver sees everything they sign on the CLI', () => {
  let id = '';
  let intent: WithdrawalIntent;
  let quote: { fee: string; totalDebited: string };
  const toAddress = tronAddress();

  beforeAll(async () => {
    const requested = json<{ withdrawal: WithdrawalView; preflight: WithdrawalPreflight }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '1250.5', '--to', toAddress, '--memo', 'rent May', '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    );
    id = requested.withdrawal.id;
    ({ intent, quote } = signedRequest(id));
    expect(quote.fee).toBe(requested.preflight.fee);
  });

  /** Every item, as the signed intent says it must read. */
  function expectItems(text: string, approvals: { given: RegExp; needed: string }): void {
    const fingerprint = intentFingerprint(intent);
    expect(valueOf(text, REVIEW_LABELS.amount)).toBe('1,250.5 trx.usdt');
    expect(intent.amount).toBe('1250.5');
    expect(valueOf(text, REVIEW_LABELS.fee)).toBe(`${quote.fee} trx.usdt (as preflight computed it, signed by the initiator)`);
    const total = new Money(intent.amount).plus(quote.fee).toFixed();
    expect(total).toBe(quote.totalDebited);
    expect(valueOf(text, REVIEW_LABELS.total)).toBe(`${groupAmount(total, 'en-US')} trx.usdt`);
    expect(valueOf(text, REVIEW_LABELS.total)).toMatch(/^1,25\d\.\d+ trx\.usdt$/);
    expect(valueOf(text, REVIEW_LABELS.currency)).toBe('USDT on TRON (trx.usdt), on the TRON chain');
    expect(valueOf(text, REVIEW_LABELS.type)).toBe(intent.withdrawType);
    expect(valueOf(text, REVIEW_LABELS.memo)).toBe(`"${intent.memo ?? ''}"; the order's remark will read "TD ${fingerprint} ${intent.memo ?? ''}"`);
    expect(valueOf(text, REVIEW_LABELS.destination)).toBe(intent.toAddress);
    expect(valueOf(text, REVIEW_LABELS.standing)).toMatch(/^not in the address book; (no label|labelled ".*"); NEW: never paid from this desk; control not proven$/);
    expect(valueOf(text, REVIEW_LABELS.history)).toBe('never paid before from this desk');
    expect(text).toContain(`! ${REVIEW_LABELS.history} `);
    expect(valueOf(text, REVIEW_LABELS.rule)).toBe('the default USDT on TRON policy (none was ever set): no amount tier applies to 1,250.5, so 1 approval');
    expect(valueOf(text, REVIEW_LABELS.given)).toMatch(approvals.given);
    expect(valueOf(text, REVIEW_LABELS.needed)).toBe(approvals.needed);
    expect(valueOf(text, REVIEW_LABELS.age)).toMatch(new RegExp(`ago, at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ, by ${INITIATOR.name}$`));
    expect(valueOf(text, REVIEW_LABELS.fingerprint)).toBe(fingerprint);
    // Items to look at twice are marked.
    expect(text).toContain(`! ${REVIEW_LABELS.standing} `);
  }

  it('withdraw show prints every item in the same words, and --json answers the review', async () => {
    const shown = expectOk(await desk.cli(['withdraw', 'show', id]));
    expect(shown.stdout).toContain(`request ${id}, as its approvers are shown it (UTC):`);
    expectItems(shown.stdout, { given: /^none yet$/, needed: '1 more, from operators independent of the initiator and of each other (0 of 1 given)' });
    const review = json<ApproverView>(expectOk(await desk.cli(['withdraw', 'show', id, '--json'])));
    expect(review).toMatchObject({ id, amount: intent.amount, fee: quote.fee, totalDebited: quote.totalDebited, memo: intent.memo, fingerprint: intentFingerprint(intent) });
  });

  it('the approve prompt shows every item before the passphrase is asked', async () => {
    const approved = expectOk(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], as(APPROVER)));
    const [before] = approved.stdout.split(`request ${id}: approved`);
    expect(before).toContain(`Approving request ${id}: 1,250.5 trx.usdt to ${toAddress}`);
    expectItems(before ?? '', { given: /^none yet$/, needed: '1 more, from operators independent of the initiator and of each other (0 of 1 given)' });
    const after = expectOk(await desk.cli(['withdraw', 'show', id]));
    expectItems(after.stdout, { given: new RegExp(`^${APPROVER.name} at \\d{4}-`), needed: 'none: 1 of 1 independent approval given' });
  });

  it('a label with a terminal escape in the file is shown escaped', async () => {
    const db = new Database(desk.dbPath);
    try {
      db.prepare("INSERT INTO address_book (profile, chain, address, label, created_at) VALUES ('main', 'trx', ?, ?, 0)").run(toAddress, 'payee \u001b[2Jwiped');
    } finally {
      db.close();
    }
    const shown = expectOk(await desk.cli(['withdraw', 'show', id]));
    expect(shown.stdout).toContain('labelled "payee ⟨U+001B⟩[2Jwiped"');
    expect(shown.stdout).not.toContain('\u001b');
  });

  it('an unknown request is refused with what to do, exit 2 for a bad id', async () => {
    const missing = await desk.cli(['withdraw', 'show', '99999']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no withdrawal request 99999');
  });
});
