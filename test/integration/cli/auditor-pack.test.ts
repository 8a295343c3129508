// `treasury-desk audit pack` and tools/verify-auditor-pack.mjs against the real sandbox: a period with a deposit and two
// withdrawals approved four-eyes packs into one file the verifier (a child process, plain Node) passes; copies edited
// the ways a forger would (an amount in a request row, an approval row removed, a row removed from the middle, a
// statement total moved by 0.000001) fail, each naming the place.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditorPack, DepositAddressView, WithdrawalView } from '../../../electron/contract';
import { APPROVER, INITIATOR, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

const VERIFIER = join(__dirname, '../../../tools/verify-auditor-pack.mjs');

let desk: CliDesk;
let packPath: string;
let pack: AuditorPack;
const withdrawals: WithdrawalView[] = [];

/** Runs the verifier on a pack file: its exit code and what it printed. */
function verifyPack(path: string): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [VERIFIER, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { code: failed.status, out: `${failed.stdout}${failed.stderr}` };
  }
}

/** Writes an edited copy of the pack and runs the verifier on it. */
function verifyEdited(name: string, edit: (copy: { -readonly [K in keyof AuditorPack]: AuditorPack[K] }) => void): { code: number; out: string } {
  const copy = JSON.parse(JSON.stringify(pack)) as { -readonly [K in keyof AuditorPack]: AuditorPack[K] };
  edit(copy);
  const path = join(desk.dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(copy));
  return verifyPack(path);
}

/** The pack's chain row of a withdrawal decision about `userOrder`'s request. */
function rowOf(kind: string, subject: string): AuditorPack['chain'][number] {
  const row = pack.chain.find((entry) => {
    const statement = JSON.parse(entry.statement) as { kind: string; subject: string };
    return statement.kind === kind && statement.subject === subject;
  });
  if (row === undefined) throw new Error(`no ${kind} row about ${subject}`);
  return row;
}

function requestRowOf(userOrder: string): AuditorPack['chain'][number] {
  const row = pack.chain.find((entry) => {
    const statement = JSON.parse(entry.statement) as { kind: string; body: { intent?: { userOrder?: string } } };
    return statement.kind === 'request' && statement.body.intent?.userOrder === userOrder;
  });
  if (row === undefined) throw new Error(`no request row of ${userOrder}`);
  return row;
}

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  expectOk(await desk.cli(['sync']));
  const from = new Date().toISOString();
  const address = json<DepositAddressView>(expectOk(await desk.cli(['address', 'create', '--type', 'trx', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  expect((await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: address.address, currency: 'trx.usdt', amount: '70.000007' })).json.credited).toBe(true);
  for (const amount of ['12.5', '30.000001']) {
    const withdrawal = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', amount, '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    ).withdrawal;
    expectOk(await desk.cli(['withdraw', 'approve', withdrawal.id, '--as', APPROVER.name], as(APPROVER)));
    expectOk(await desk.cli(['withdraw', 'submit', withdrawal.id, '--as', INITIATOR.name], as(INITIATOR)));
    withdrawals.push(withdrawal);
  }
  expectOk(await desk.cli(['sync']));
  const to = new Date(Date.now() + 1000).toISOString();
  packPath = join(desk.dir, 'pack.json');
  const run = expectOk(await desk.cli(['audit', 'pack', '--from', from, '--to', to, '--out', packPath]));
  expect(run.stdout).toMatch(/^wrote the auditor pack of \d+ audit rows \(head \d+, fingerprint [A-Z2-7-]{19}\) to /m);
  pack = JSON.parse(readFileSync(packPath, 'utf8')) as AuditorPack;
}, 120_000);
afterAll(async () => desk?.close());

describe('treasury-desk audit pack', () => {
  it('holds the statement, the chain from its first row through the head, the keys and a signed checkpoint', () => {
    expect(pack).toMatchObject({ format: 'treasury-desk/auditor-pack', version: 1, profile: 'main' });
    expect(pack.chain[0]?.seq).toBe(1);
    expect(pack.chain.at(-1)?.seq).toBe(pack.auditHead.seq);
    expect(pack.checkpoint.checkpoint.seq).toBe(pack.auditHead.seq);
    expect(pack.statement.currencies.find((currency) => currency.currency === 'trx.usdt')).toMatchObject({ deposits: { count: 1, amount: '69.500007' }, withdrawals: { count: 2, amount: '42.500001' }, unexplained: '0' });
    expect(pack.operators.map((operator) => operator.name).sort()).toEqual(['alice', 'bob', 'carol', 'dave', 'frank']);
  });

  it('records the pack in the audit log as a desk event that audit verify accepts', async () => {
    const verified = expectOk(await desk.cli(['audit', 'verify']));
    expect(verified.stdout).toMatch(/verified/i);
    const listed = expectOk(await desk.cli(['audit', 'list', '--action', 'audit/pack']));
    expect(listed.stdout).toMatch(/built an auditor pack of \d+ audit entries/);
  });

  it('refuses a period given twice or not at all (exit 2)', async () => {
    expect(expectFailure(await desk.cli(['audit', 'pack', '--period', '2026-10', '--from', '2026-10-01', '--to', '2026-11-01', '--out', 'x.json']), 2)).toMatch(/give --period, or --from and --to, not both/);
    expect(expectFailure(await desk.cli(['audit', 'pack', '--out', 'x.json']), 2)).toMatch(/give the period/);
    expect(expectFailure(await desk.cli(['audit', 'pack', '--period', '2026-13', '--out', 'x.json']), 2)).toMatch(/--period must be a calendar month/);
  });
});

describe('tools/verify-auditor-pack.mjs', () => {
  it('passes the real pack, printing each check', () => {
    const { code, out } = verifyPack(packPath);
    expect(out).toMatch(/^ok +chain: \d+ rows linked from row 1 to row \d+/m);
    expect(out).toMatch(/^ok +signatures:/m);
    expect(out).toMatch(/^ok +checkpoint:/m);
    expect(out).toMatch(/^ok +four-eyes: 2 withdrawals/m);
    expect(out).toMatch(/^ok +statement trx\.usdt:/m);
    expect(out).toMatch(/^PASS/m);
    expect(code).toBe(0);
  });

  it('fails on an amount edited in a request row, naming the row', () => {
    const row = requestRowOf(withdrawals[0]!.userOrder);
    const { code, out } = verifyEdited('edited-amount', (copy) => {
      const index = copy.chain.findIndex((entry) => entry.seq === row.seq);
      const original = copy.chain[index]!;
      (copy.chain as AuditorPack['chain'][number][])[index] = { ...original, statement: original.statement.replace('"amount":"12.5"', '"amount":"125"') };
    });
    expect(row.statement).toContain('"amount":"12.5"');
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^FAIL +audit row ${row.seq}: `, 'm'));
  });

  it('fails on an edited amount re-hashed (signature no longer holds), naming the row', () => {
    const row = requestRowOf(withdrawals[0]!.userOrder);
    const { code, out } = verifyEdited('edited-amount-rehashed', (copy) => {
      const index = copy.chain.findIndex((entry) => entry.seq === row.seq);
      const original = copy.chain[index]!;
      const statement = original.statement.replace('"amount":"12.5"', '"amount":"125"');
      // A forger who also re-hashes the row still cannot sign it.
      const hash = createHash('sha256').update(`treasury-desk/audit/v2\n${statement}\n${original.signature}`, 'utf8').digest('hex');
      (copy.chain as AuditorPack['chain'][number][])[index] = { ...original, statement, hash };
    });
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^FAIL +audit row ${row.seq}: .*signature`, 'm'));
  });

  it('fails on a removed approval row, naming where the chain breaks', () => {
    const approval = rowOf('approve', JSON.parse(requestRowOf(withdrawals[1]!.userOrder).statement).subject as string);
    const { code, out } = verifyEdited('removed-approval', (copy) => {
      copy.chain = copy.chain.filter((entry) => entry.seq !== approval.seq);
    });
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^FAIL +audit row ${approval.seq}: .*missing`, 'm'));
  });

  it('fails on a row removed from the middle, naming its seq', () => {
    const middle = pack.chain[Math.floor(pack.chain.length / 2)]!.seq;
    const { code, out } = verifyEdited('removed-row', (copy) => {
      copy.chain = copy.chain.filter((entry) => entry.seq !== middle);
    });
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^FAIL +audit row ${middle}: `, 'm'));
  });

  it('fails on a statement total changed by 0.000001, naming the currency and the total', () => {
    const deposits = verifyEdited('deposits-total', (copy) => {
      const trx = copy.statement.currencies.find((currency) => currency.currency === 'trx.usdt')!;
      (trx.deposits as { amount: string }).amount = '69.500008';
    });
    expect(deposits.code).toBe(1);
    expect(deposits.out).toMatch(/^FAIL +statement trx\.usdt: .*unexplained/m);
    const withdrawn = verifyEdited('withdrawals-total', (copy) => {
      const trx = copy.statement.currencies.find((currency) => currency.currency === 'trx.usdt')!;
      (trx.withdrawals as { amount: string }).amount = '42.500002';
    });
    expect(withdrawn.code).toBe(1);
    expect(withdrawn.out).toMatch(/^FAIL +statement trx\.usdt withdrawals: .*42\.500002.*42\.500001/m);
  });
});
