// Proves, against the real engine, keychain and sandbox, that `treasury-desk withdraw request --memo` refuses a memo
// with ESC and bidi characters (exit 2, one line naming the character, nothing stored), in process and as a real
// process whose stderr bytes carry no raw control or text-direction character; an ordinary memo goes through as typed;
// a memo with line breaks cannot print a second `to` or `amount` line in `withdraw status` (issue 23, item 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSAFE_TEXT_CHARACTERS, type Page, type WithdrawalView } from '../../../electron/contract';
import { expectFailure, expectOk, INITIATOR, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

const NASTY = 'INV-7 \u001b[31mPAID\u001b[0m \u202Efdp.exe \u2066x\u2069 \u009b2J';

let desk: CliDesk;
const asInitiator = { env: { TREASURY_DESK_PASSPHRASE: INITIATOR.passphrase } };

beforeAll(async () => {
  desk = await openCliDesk();
}, 60_000);
afterAll(async () => desk?.close());

function requestArgs(memo: string): string[] {
  return ['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '10', '--to', tronAddress(), '--memo', memo, '--as', INITIATOR.name];
}

function expectRefusal(line: string): void {
  expect(UNSAFE_TEXT_CHARACTERS.test(line)).toBe(false);
  expect(line).toContain('--memo');
  expect(line).toContain('U+001B');
  expect(line).toContain('control and text-direction characters');
}

// The request's schema is checked before any profile, operator or passphrase is needed: a bare desk refuses it.
describe('a memo with ESC and bidi characters', () => {
  it('is refused in process before any passphrase is asked', async () => {
    const run = await desk.cli(requestArgs(NASTY), { answers: [] });
    expectRefusal(expectFailure(run, 2));
    expect(run.prompts).toEqual([]);
  });

  it('is refused by the real command, whose stderr bytes carry no raw control or text-direction character', async () => {
    const run = await desk.spawn(requestArgs(NASTY), asInitiator.env);
    expectRefusal(expectFailure(run, 2));
  });
});

describe('on a desk with operators and balances', () => {
  beforeAll(async () => {
    await setUpDesk(desk);
    const merchantId = desk.sandbox.credentials.merchantId;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
  }, 60_000);

  it('a refused memo stores nothing, while an ordinary memo (non-Latin letters) is stored and shown as typed', async () => {
    expectRefusal(expectFailure(await desk.cli(requestArgs(NASTY), asInitiator), 2));
    expect(json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--json']))).rows).toEqual([]);
    const memo = 'Rechnung Zürich 東京 — עברית';
    const created = json<{ withdrawal: WithdrawalView }>(expectOk(await desk.cli([...requestArgs(memo), '--json'], asInitiator))).withdrawal;
    expect(created.memo).toBe(memo);
    const status = expectOk(await desk.cli(['withdraw', 'status', created.id])).stdout;
    expect(status.split('\n').find((line) => line.startsWith('memo '))?.replace(/^memo +/, '')).toBe(memo);
  });

  it('a memo with line breaks cannot spoof the fields of `withdraw status`: it stays one marked line', async () => {
    const other = tronAddress();
    const memo = `9\nto           ${other}\namount       90 trx.usdt`;
    const created = json<{ withdrawal: WithdrawalView }>(expectOk(await desk.cli([...requestArgs(memo), '--json'], asInitiator))).withdrawal;
    expect(created.memo).toBe(memo);
    const lines = expectOk(await desk.cli(['withdraw', 'status', created.id])).stdout.split('\n');
    expect(lines.filter((line) => /^to\s/.test(line))).toEqual([expect.stringMatching(new RegExp(`^to +${created.toAddress}$`))]);
    expect(lines.filter((line) => /^amount\s/.test(line))).toEqual([expect.stringMatching(/^amount +10 trx\.usdt$/)]);
    expect(lines.filter((line) => line.includes(other))).toEqual([expect.stringMatching(new RegExp(`^memo +9⟨U\\+000A⟩to +${other}⟨U\\+000A⟩amount +90 trx\\.usdt$`))]);
    // The JSON answer keeps the exact memo (escaped, parses back).
    const view = json<WithdrawalView>(expectOk(await desk.cli(['withdraw', 'status', created.id, '--json'])));
    expect(view.memo).toBe(memo);
  });
});
