// Every engine command of `treasury-desk` in process (runCli with an injected io) against the real sandbox, keychain
// and SQLite: answers in text and --json, exit codes 0/1/2, one-line errors naming the contract code, refusals
// (self-approval, wrong passphrase, a viewer approving), bad input before any passphrase is asked, and files written.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditVerification,
  BalanceView,
  CurrencyView,
  DepositAddressView,
  DepositView,
  OperatorView,
  Page,
  PolicyView,
  ProfileSummary,
  WithdrawalPreflight,
  WithdrawalView,
} from '../../../electron/contract';
import { ADMIN, APPROVER, expectFailure, expectOk, INITIATOR, json, openCliDesk, setUpDesk, tronAddress, VIEWER, type CliDesk } from './support';

let desk: CliDesk;
const as = (operator: { readonly passphrase: string }) => ({ env: { TREASURY_DESK_PASSPHRASE: operator.passphrase } });

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000', trx: '100', 'eth.usdt': '1000.5' } })).status).toBe(200);
}, 60_000);
afterAll(async () => desk?.close());

/** Requests a withdrawal (as carol unless told) and answers its id. */
async function request(amount: string, toAddress = tronAddress(), currency = 'trx.usdt', initiator: { readonly name: string; readonly passphrase: string } = INITIATOR): Promise<string> {
  const run = expectOk(await desk.cli(['withdraw', 'request', '--currency', currency, '--amount', amount, '--to', toAddress, '--as', initiator.name, '--json'], as(initiator)));
  return json<{ withdrawal: WithdrawalView }>(run).withdrawal.id;
}

describe('profiles', () => {
  it('lists the imported profile with fingerprints only, in text and JSON', async () => {
    const listed = json<ProfileSummary[]>(expectOk(await desk.cli(['profile', 'list', '--json'])));
    expect(listed).toEqual([expect.objectContaining({ name: 'main', active: true, credentialSource: 'keychain', merchantId: desk.sandbox.credentials.merchantId })]);
    const text = expectOk(await desk.cli(['profile', 'list'])).stdout;
    expect(text).toMatch(/^\s+name\s+merchant\s+base URL\s+credentials/);
    expect(text).toMatch(/^\*\s+main\s+\d+\s+http:\/\/127\.0\.0\.1:\d+\s+keychain\s/m);
    for (const output of [text, JSON.stringify(listed)]) {
      expect(output).not.toContain(desk.sandbox.credentials.secret);
      expect(output).not.toContain('PRIVATE KEY');
    }
  });

  it('keygen prints the public key and fingerprint; add without --merchant-key uses it; use and remove switch and clean up', async () => {
    const pemFile = join(desk.dir, 'fresh-public.pem');
    const generated = expectOk(await desk.cli(['profile', 'keygen', 'fresh', '--out', pemFile]));
    expect(readFileSync(pemFile, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const fingerprint = /fingerprint \(SHA-256\): ([0-9a-f:]{95})/.exec(generated.stdout)?.[1];
    expect(fingerprint).toBeDefined();
    expect(generated.stdout).not.toContain('PRIVATE');

    const credentials = desk.sandbox.credentials;
    const secretFile = join(desk.dir, 'secret.txt');
    const platformKeyFile = join(desk.dir, 'platform.pem');
    writeFileSync(secretFile, `${credentials.secret}\n`, { mode: 0o600 });
    writeFileSync(platformKeyFile, credentials.platformPublicKey);
    const common = ['--base-url', credentials.baseUrl, '--merchant-id', credentials.merchantId, '--platform-key', platformKeyFile];
    const added = json<ProfileSummary>(expectOk(await desk.cli(['profile', 'add', 'fresh', ...common, '--secret-file', secretFile, '--json'])));
    expect(added).toMatchObject({ name: 'fresh', active: false, credentialSource: 'keychain', merchantKeyFingerprint: fingerprint });

    // The secret from a hidden prompt on a terminal, the merchant key from a file.
    const keyFile = join(desk.dir, 'merchant.pem');
    writeFileSync(keyFile, credentials.merchantPrivateKey, { mode: 0o600 });
    const prompted = await desk.cli(['profile', 'add', 'second', ...common, '--merchant-key', keyFile], { answers: [credentials.secret] });
    expectOk(prompted);
    expect(prompted.prompts).toEqual(['Merchant secret:  [hidden]']);
    expect(prompted.stdout).not.toContain(credentials.secret);

    expect(expectOk(await desk.cli(['profile', 'use', 'second'])).stdout).toContain('using profile second');
    expect(json<ProfileSummary[]>(await desk.cli(['profile', 'list', '--json'])).find((profile) => profile.active)?.name).toBe('second');
    expectOk(await desk.cli(['profile', 'use', 'main']));

    expect(expectFailure(await desk.cli(['profile', 'remove', 'fresh']), 1)).toBe('treasury-desk: forbidden: removing a profile needs an admin: give --as ADMIN');
    expect(expectFailure(await desk.cli(['profile', 'remove', 'fresh', '--as', APPROVER.name], as(APPROVER)), 1)).toMatch(
      /^treasury-desk: forbidden: bob is an approver and may not manage merchant profiles$/,
    );
    for (const name of ['fresh', 'second']) expectOk(await desk.cli(['profile', 'remove', name, '--as', ADMIN.name], as(ADMIN)));
    expect(await desk.vault.listProfiles()).toEqual(['main']);
  });

  it('refuses missing files and bad names as bad input (exit 2), without a secret anywhere', async () => {
    const credentials = desk.sandbox.credentials;
    const missing = expectFailure(
      await desk.cli(['profile', 'add', 'x', '--base-url', credentials.baseUrl, '--merchant-id', '1', '--platform-key', join(desk.dir, 'nope.pem')], {
        env: { TREASURY_DESK_SECRET: credentials.secret },
      }),
      2,
    );
    expect(missing).toBe(`treasury-desk: platform key file ${join(desk.dir, 'nope.pem')}: no such file.`);
    const noSecret = expectFailure(
      await desk.cli(['profile', 'add', 'x', '--base-url', credentials.baseUrl, '--merchant-id', '1', '--platform-key', desk.sandbox.credentialsPath]),
      2,
    );
    expect(noSecret).toContain('TREASURY_DESK_SECRET');
    expect(expectFailure(await desk.cli(['profile', 'use', '-bad name']), 2)).toMatch(/^treasury-desk: unknown option/);
    expect(expectFailure(await desk.cli(['profile', 'use', 'bad/name']), 2)).toMatch(/^treasury-desk: invalidInput: NAME: a profile name is/);
    expect(expectFailure(await desk.cli(['profile', 'use', 'nobody']), 1)).toBe('treasury-desk: notFound: no profile named nobody');
    expect(expectFailure(await desk.cli(['profile', 'import', join(desk.dir, 'missing.json')]), 2)).toMatch(/^treasury-desk: invalidInput: .*missing\.json/);
  });
});

describe('selfcheck, sync, balances, currencies', () => {
  it('selfcheck shows every step and the clock drift', async () => {
    const run = expectOk(await desk.cli(['selfcheck']));
    for (const step of ['token', 'request', 'response', 'echo', 'clock', 'version']) expect(run.stdout).toMatch(new RegExp(`^ok\\s+${step}\\s`, 'm'));
    expect(run.stdout).toMatch(/^clock drift: /m);
    expect(run.stdout).toMatch(/selfcheck passed\n$/);
  });

  it('sync reports counts on stdout and progress on stderr with --progress', async () => {
    const run = await desk.cli(['sync', '--progress']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^synced 13 currencies, 13 balances, \d+ deposits seen \(\d+ new\), \d+ withdrawals? checked \(\d+ advanced\)\n$/);
    expect(run.stderr.split('\n')).toEqual(expect.arrayContaining(['currencies: syncing', 'balances: syncing', 'deposits: syncing', 'withdrawals: syncing']));
    // Without a terminal and without --progress: nothing on stderr.
    expectOk(await desk.cli(['sync']));
  });

  it('balances and currencies keep money as the exact strings the engine gives', async () => {
    const balances = json<BalanceView[]>(expectOk(await desk.cli(['balances', '--json'])));
    expect(balances.find((balance) => balance.currency === 'eth.usdt')).toMatchObject({ available: '1000.5', frozen: '0' });
    const text = expectOk(await desk.cli(['balances'])).stdout;
    expect(text).toMatch(/^eth\.usdt\s+USDT on Ethereum\s+1000\.5\s+0\s+\d{4}-/m);
    // Right-aligned money: every row ends its "available" column at the same place.
    const lines = text.trimEnd().split('\n');
    const header = lines[0] ?? '';
    const end = header.indexOf('available') + 'available'.length;
    for (const line of lines.slice(1)) expect(line[end - 1]).toMatch(/[0-9]/);
    const currencies = json<CurrencyView[]>(expectOk(await desk.cli(['currencies', '--json'])));
    expect(currencies).toHaveLength(13);
    expect(typeof currencies[0]?.withdrawFixedFee).toBe('string');
    expect(expectOk(await desk.cli(['currencies'])).stdout).toMatch(/^symbol\s+name\s+decimals\s+withdraw min/);
  });
});

describe('deposit addresses and deposits', () => {
  let created: DepositAddressView;
  let txid: string;

  it('creates an address as an operator, lists it, and refuses a viewer or a bad type', async () => {
    created = json<DepositAddressView>(expectOk(await desk.cli(['address', 'create', '--type', 'trx', '--user-order', 'cli-order-1', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expect(created).toMatchObject({ addressType: 'trx', userOrder: 'cli-order-1' });
    expect(expectOk(await desk.cli(['address', 'list'])).stdout).toMatch(new RegExp(`^${created.address}\\s+trx\\s+cli-order-1\\s`, 'm'));
    expect(expectFailure(await desk.cli(['address', 'create', '--type', 'ton', '--as', VIEWER.name], as(VIEWER)), 1)).toBe(
      'treasury-desk: forbidden: dave is a viewer and may not create deposit addresses',
    );
    // Bad input is refused before any passphrase is needed (none is given here).
    expect(expectFailure(await desk.cli(['address', 'create', '--type', 'btc', '--as', INITIATOR.name]), 2)).toBe(
      'treasury-desk: invalidInput: --type: address type must be trx, eth_bnb, solana or ton',
    );
  });

  it('writes QR codes as PNG bytes and SVG that decode back to the address', async () => {
    const png = join(desk.dir, 'address.png');
    expect(expectOk(await desk.cli(['address', 'qr', created.address, '--out', png])).stdout).toContain(`wrote a PNG QR code of ${created.address}`);
    const bytes = readFileSync(png);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(execFileSync('zbarimg', ['--quiet', '--raw', '--nodbus', png], { encoding: 'utf8' }).trim()).toBe(created.address);
    const svg = join(desk.dir, 'address.svg');
    expect(json(expectOk(await desk.cli(['address', 'qr', created.address, '--out', svg, '--json'])))).toMatchObject({ format: 'svg', content: created.address });
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg/);
    expect(expectFailure(await desk.cli(['address', 'qr', created.address, '--out', join(desk.dir, 'a.gif')]), 2)).toMatch(/--out must end in \.png or \.svg/);
  });

  it('lists and exports a deposit seen on the simulated chain, with filters', async () => {
    const transfer = await desk.admin<{ deposit: { txid: string; amount: string } }>('POST', '/transfers', { toAddress: created.address, currency: 'trx.usdt', amount: '42.25' });
    txid = transfer.json.deposit.txid;
    expectOk(await desk.cli(['sync']));
    const page = json<Page<DepositView>>(expectOk(await desk.cli(['deposits', 'list', '--currency', 'trx.usdt', '--search', txid.slice(8, 20), '--json'])));
    expect(page.rows.map((row) => row.txid)).toEqual([txid]);
    expect(page.rows[0]?.amount).toBe(transfer.json.deposit.amount);
    expect(expectOk(await desk.cli(['deposits', 'list'])).stdout).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} [0-9:]{8}Z\\s+trx\\.usdt\\s+${transfer.json.deposit.amount.replace('.', '\\.')}\\s`, 'm'));
    expect(expectOk(await desk.cli(['deposits', 'list', '--currency', 'eth'])).stdout).toBe('no deposits match\n');
    expect(json<Page<DepositView>>(await desk.cli(['deposits', 'list', '--from', '2999-01-01', '--json'])).rows).toEqual([]);
    expect(json<Page<DepositView>>(await desk.cli(['deposits', 'list', '--from', '2020-01-01T00:00:00Z', '--to', '2999-01-01', '--json'])).rows).toHaveLength(1);

    const csv = join(desk.dir, 'deposits.csv');
    expect(expectOk(await desk.cli(['deposits', 'export', '--csv', csv, '--currency', 'trx.usdt'])).stdout).toBe(`wrote 1 deposit to ${csv}\n`);
    const lines = readFileSync(csv, 'utf8').trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^first_seen_utc,currency,amount,fee,txid/);
    expect(lines[1]).toContain(txid);
  });

  it('refuses bad filters as bad input', async () => {
    expect(expectFailure(await desk.cli(['deposits', 'list', '--from', 'yesterday']), 2)).toMatch(/^treasury-desk: --from must be an ISO 8601 date/);
    expect(expectFailure(await desk.cli(['deposits', 'list', '--limit', '0']), 2)).toMatch(/^treasury-desk: option '--limit <n>' argument '0' is invalid/);
    expect(expectFailure(await desk.cli(['deposits', 'list', '--currency', 'doge']), 2)).toBe('treasury-desk: invalidInput: --currency: unknown currency symbol');
    expect(expectFailure(await desk.cli(['deposits', 'export', '--currency', 'trx']), 2)).toMatch(/required option '--csv <file>' not specified/);
  });
});

describe('operators', () => {
  it('lists the operators and refuses an operator added without an admin', async () => {
    const operators = json<OperatorView[]>(expectOk(await desk.cli(['operator', 'list', '--json'])));
    expect(operators.map((operator) => `${operator.name}:${operator.role}`)).toEqual(['alice:admin', 'bob:approver', 'carol:initiator', 'dave:viewer']);
    expect(expectOk(await desk.cli(['operator', 'list'])).stdout).toMatch(/^name\s+role\s+added \(UTC\)\s+status\nalice\s+admin\s/);
    expect(expectFailure(await desk.cli(['operator', 'add', '--name', 'erin', '--role', 'viewer'], { env: { TREASURY_DESK_NEW_PASSPHRASE: 'erin passphrase 5' } }), 1)).toMatch(
      /^treasury-desk: forbidden: adding an operator needs an admin/,
    );
    expect(expectFailure(await desk.cli(['operator', 'add', '--name', 'erin', '--role', 'boss', '--as', ADMIN.name]), 2)).toMatch(/^treasury-desk: invalidInput: --role: /);
    const short = await desk.cli(['operator', 'add', '--name', 'erin', '--role', 'viewer', '--as', ADMIN.name], {
      env: { TREASURY_DESK_PASSPHRASE: ADMIN.passphrase, TREASURY_DESK_NEW_PASSPHRASE: 'short' },
    });
    expect(expectFailure(short, 2)).toBe('treasury-desk: invalidInput: a passphrase needs at least 10 characters');
  });

  it('on a terminal asks the admin once and the new passphrase twice, hidden; a mismatch changes nothing', async () => {
    const args = ['operator', 'add', '--name', 'erin', '--role', 'viewer', '--as', ADMIN.name];
    const mismatch = await desk.cli(args, { answers: [ADMIN.passphrase, 'erin passphrase 5', 'erin passphrase 6'] });
    expect(expectFailure(mismatch, 2)).toBe('treasury-desk: the two passphrases typed differ; nothing was changed.');
    const added = await desk.cli(args, { answers: [ADMIN.passphrase, 'erin passphrase 5', 'erin passphrase 5'] });
    expect(expectOk(added).stdout).toBe('added operator erin (viewer)\n');
    expect(added.prompts).toEqual(['Passphrase of alice:  [hidden]', 'New passphrase for erin:  [hidden]', 'Type it again:  [hidden]']);
    expect(added.stdout + added.stderr).not.toContain('passphrase 5');
  });
});

describe('withdrawals', () => {
  it('refuses bad input with exit 2 before asking for a passphrase', async () => {
    const base = ['withdraw', 'request', '--amount', '10', '--to', tronAddress(), '--as', INITIATOR.name];
    expect(expectFailure(await desk.cli([...base, '--currency', 'doge']), 2)).toBe('treasury-desk: invalidInput: --currency: unknown currency symbol');
    expect(expectFailure(await desk.cli([...base, '--currency', 'trx.usdt', '--type', 'fast']), 2)).toMatch(/^treasury-desk: invalidInput: --type: /);
    const badAmount = expectFailure(
      await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '1.2.3', '--to', tronAddress(), '--as', INITIATOR.name], as(INITIATOR)),
      2,
    );
    expect(badAmount).toMatch(/^treasury-desk: invalidInput: the withdrawal cannot be requested: /);
    const tooPrecise = await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '1.1234567', '--to', tronAddress()]);
    expect(tooPrecise.code).toBe(2);
    expect(tooPrecise.stdout).toMatch(/^error: amount: /m);
    expect(tooPrecise.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: amount: [^\n]*\n$/);
    // A missing passphrase is a usage error, not a refusal.
    expect(expectFailure(await desk.cli(['withdraw', 'approve', '1', '--as', APPROVER.name]), 2)).toContain('TREASURY_DESK_PASSPHRASE');
  });

  it('shows the preflight: fee, total, balance after, approvals needed, the new-destination warning', async () => {
    const run = expectOk(await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '100', '--to', tronAddress()]));
    expect(run.stdout).toMatch(/^amount\s+100 trx\.usdt$/m);
    expect(run.stdout).toMatch(/^fee\s+[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^total debited\s+10[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^balance after\s+[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^approvals needed\s+1$/m);
    expect(run.stdout).toMatch(/^warning: toAddress: this destination has never been paid/m);
    const over = await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '999999', '--to', tronAddress()]);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: balance: [^\n]*does not cover[^\n]*\n$/);
  });

  it('refuses self-approval, a wrong passphrase and a viewer with exit 1 and the contract code', async () => {
    // An admin may approve, but never a request of their own.
    const id = await request('10', tronAddress(), 'trx.usdt', ADMIN);
    expect(expectFailure(await desk.cli(['withdraw', 'approve', id, '--as', ADMIN.name], as(ADMIN)), 1)).toBe(
      'treasury-desk: forbidden: the initiator of a request can never approve it: another approver must',
    );
    expect(expectFailure(await desk.cli(['withdraw', 'approve', id, '--as', INITIATOR.name], as(INITIATOR)), 1)).toBe(
      'treasury-desk: forbidden: carol is an initiator and may not approve withdrawals',
    );
    expect(expectFailure(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], { env: { TREASURY_DESK_PASSPHRASE: 'not bob passphrase' } }), 1)).toBe(
      'treasury-desk: wrongPassphrase: the operator name or passphrase is not right',
    );
    expect(expectFailure(await desk.cli(['withdraw', 'approve', id, '--as', VIEWER.name], as(VIEWER)), 1)).toBe(
      'treasury-desk: forbidden: dave is a viewer and may not approve withdrawals',
    );
    expect(expectFailure(await desk.cli(['withdraw', 'submit', id]), 1)).toMatch(/^treasury-desk: conflict: request \d+ is awaitingApproval/);
    expect(expectFailure(await desk.cli(['withdraw', 'status', '999999']), 1)).toMatch(/^treasury-desk: notFound: no withdrawal request 999999/);
    expect(expectFailure(await desk.cli(['withdraw', 'status', 'abc']), 2)).toMatch(/^treasury-desk: invalidInput: "abc" is not a withdrawal request id/);
    // Nothing was decided: the request still waits for its approval.
    expect(json<WithdrawalView>(await desk.cli(['withdraw', 'status', id, '--json']))).toMatchObject({ state: 'awaitingApproval', approvals: [] });
  });

  it('rejects with a reason, cancels, and lists by state', async () => {
    const rejected = await request('11');
    expect(expectFailure(await desk.cli(['withdraw', 'reject', rejected, '--as', APPROVER.name], as(APPROVER)), 2)).toMatch(/required option '--reason <text>'/);
    expect(expectOk(await desk.cli(['withdraw', 'reject', rejected, '--reason', 'unknown recipient', '--as', APPROVER.name], as(APPROVER))).stdout).toBe(
      `request ${rejected}: rejected\n`,
    );
    const cancelled = await request('12');
    expect(expectFailure(await desk.cli(['withdraw', 'cancel', cancelled, '--as', APPROVER.name], as(APPROVER)), 1)).toBe(
      'treasury-desk: forbidden: bob is an approver and may not cancel withdrawal requests',
    );
    expectOk(await desk.cli(['withdraw', 'cancel', cancelled, '--reason', 'typo in amount', '--as', INITIATOR.name], as(INITIATOR)));
    const list = json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--state', 'cancelled', '--json'])));
    expect(list.rows.map((row) => row.id)).toEqual([cancelled]);
    const status = expectOk(await desk.cli(['withdraw', 'status', rejected])).stdout;
    expect(status).toMatch(/^state\s+rejected$/m);
    expect(status).toMatch(/rejected by bob: unknown recipient\n$/);
    const table = expectOk(await desk.cli(['withdraw', 'list'])).stdout;
    expect(table).toMatch(/^\s*id\s+state\s+currency\s+amount\s+to\s+initiator\s+approvals/);
    expect(table).toMatch(new RegExp(`^\\s*${rejected}\\s+rejected\\s+trx\\.usdt\\s+11\\s`, 'm'));
    expect(expectFailure(await desk.cli(['withdraw', 'list', '--state', 'lost']), 2)).toMatch(/^treasury-desk: invalidInput: --state: /);
  });

  it('flags a look-alike of a paid destination with the differing positions', async () => {
    expectOk(await desk.cli(['sync']));
    const known = `0x${'ab'.repeat(20)}`;
    const id = await request('25', known, 'eth.usdt');
    expectOk(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], as(APPROVER)));
    expect(expectOk(await desk.cli(['withdraw', 'submit', id])).stdout).toContain(`request ${id}: submitted`);
    const lookAlike = `${known.slice(0, 10)}ff${known.slice(12)}`;
    const run = expectOk(await desk.cli(['withdraw', 'preflight', '--currency', 'eth.usdt', '--amount', '25', '--to', lookAlike]));
    expect(run.stdout).toContain(`warning: look-alike of known address ${known}: differs at positions 11, 12 (counting from 1)`);
    // The carets sit under the two differing characters (indent 2 + "known  " 7 + position 10).
    expect(run.stdout).toContain(`  known  ${known}\n  typed  ${lookAlike}\n${' '.repeat(19)}^^\n`);
    const preflight = json<WithdrawalPreflight>(await desk.cli(['withdraw', 'preflight', '--currency', 'eth.usdt', '--amount', '25', '--to', lookAlike, '--json']));
    expect(preflight.lookAlike).toEqual([{ knownAddress: known, label: null, differingPositions: [10, 11] }]);
  });
});

describe('policies', () => {
  it('an admin sets thresholds and a daily limit; others are refused; the rest of the policy is kept', async () => {
    const set = ['policy', 'set', '--currency', 'trx.usdt', '--threshold', '1000:2', '--threshold', '0:1', '--daily-limit', '3000'];
    expect(expectFailure(await desk.cli([...set, '--as', APPROVER.name], as(APPROVER)), 1)).toBe('treasury-desk: forbidden: bob is an approver and may not change withdrawal policies');
    expect(expectOk(await desk.cli([...set, '--as', ADMIN.name], as(ADMIN))).stdout).toBe(
      'policy of trx.usdt: approvals >1000: 2, >0: 1; daily limit 3000; normal withdrawals\n',
    );
    const policies = json<PolicyView[]>(expectOk(await desk.cli(['policy', 'list', '--json'])));
    expect(policies.find((policy) => policy.currency === 'trx.usdt')).toEqual({
      currency: 'trx.usdt',
      thresholds: [
        { above: '1000', approvals: 2 },
        { above: '0', approvals: 1 },
      ],
      dailyLimit: '3000',
      useFinancialConfirmation: false,
    });
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\.usdt\s+>1000: 2, >0: 1\s+3000\s+normal$/m);

    const big = json<{ withdrawal: WithdrawalView }>(
      await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '1500', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR)),
    );
    expect(big.withdrawal.requiredApprovals).toBe(2);
    const overLimit = await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '2900', '--to', tronAddress()]);
    expect(overLimit.code).toBe(1);
    expect(overLimit.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: dailyLimit: the daily limit is 3000[^\n]*\n$/);

    // Only the financial-confirmation switch changes; thresholds and limit stay.
    expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--financial-confirmation', '--as', ADMIN.name], as(ADMIN)));
    const after = json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt');
    expect(after).toMatchObject({ dailyLimit: '3000', useFinancialConfirmation: true, thresholds: [{ above: '1000', approvals: 2 }, { above: '0', approvals: 1 }] });
    expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--no-financial-confirmation', '--daily-limit', 'none', '--threshold', '0:1', '--as', ADMIN.name], as(ADMIN)));
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({
      dailyLimit: null,
      useFinancialConfirmation: false,
    });
  });

  it('refuses malformed thresholds and amounts as bad input', async () => {
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--threshold', '1000', '--as', ADMIN.name]), 2)).toMatch(/--threshold must be AMOUNT:APPROVALS/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--threshold', '1000:9', '--as', ADMIN.name]), 2)).toMatch(/^treasury-desk: invalidInput: --threshold: /);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--daily-limit', 'lots', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(/daily limit "lots" is not a decimal amount/);
  });
});

describe('callbacks listen (in process)', () => {
  it('prints the URL, refuses an unsigned callback, and stops cleanly when asked', async () => {
    let stop: (signal: string) => void = () => undefined;
    let announced: (url: string) => void = () => undefined;
    const url = new Promise<string>((resolve) => (announced = resolve));
    const running = desk.cli(['callbacks', 'listen', '--port', '0'], {
      untilStopped: () => new Promise((resolve) => (stop = resolve)),
      onStdout: (text) => {
        const match = /listening for callbacks at (\S+)/.exec(text);
        if (match?.[1]) announced(match[1]);
      },
    });
    const address = await url;
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callbacks$/);
    expect((await fetch(address)).status).toBe(405);
    const forged = await fetch(address, { method: 'POST', body: 'data=forged', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(forged.status).toBe(400);
    stop('SIGTERM');
    const run = await running;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Press Ctrl\+C to stop\.\nstopped \(SIGTERM\): 0 received, 1 refused\n$/);
    expect(run.stderr).toMatch(/^callbacks: 0 received, 1 refused; last refusal: /);
    await expect(fetch(address)).rejects.toThrow();
  });
});

describe('the audit log', () => {
  it('exports every row with its hashes and no secret', async () => {
    const file = join(desk.dir, 'audit.jsonl');
    const run = expectOk(await desk.cli(['audit', 'export', file]));
    expect(run.stdout).toMatch(new RegExp(`^wrote \\d+ audit rows to ${file.replace(/[.]/g, '\\.')}\n$`));
    const text = readFileSync(file, 'utf8');
    const rows = text.trim().split('\n').map((line) => JSON.parse(line) as { seq: number; hash: string; action: string });
    expect(rows[0]?.seq).toBe(1);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.hash))).toBe(true);
    expect(rows.map((row) => row.action)).toContain('withdrawals/reject');
    expect(text).not.toContain(desk.sandbox.credentials.secret);
    expect(json<AuditVerification>(expectOk(await desk.cli(['audit', 'verify', '--json'])))).toMatchObject({ ok: true });
  });

  it('verify exits 1 and names the first altered row when the chain is broken', async () => {
    const db = new Database(desk.dbPath);
    db.exec('DROP TRIGGER audit_log_no_update');
    db.prepare("UPDATE audit_log SET subject = 'someone-else' WHERE seq = 3").run();
    db.close();
    const line = expectFailure(await desk.cli(['audit', 'verify']), 1);
    expect(line).toMatch(/^treasury-desk: the audit chain is broken: row 3 was altered, removed or reordered \(.+\); \d+ rows checked$/);
    const asJson = await desk.cli(['audit', 'verify', '--json']);
    expect(asJson.code).toBe(1);
    expect(json<AuditVerification>(asJson)).toMatchObject({ ok: false, firstBadSeq: 3 });
  });
});
