// Every engine command of `treasury-desk` in process (runCli with an injected io) against the real sandbox, keychain
// and SQLite: answers in text and --json, exit codes 0/1/2, one-line errors naming the contract code, refusals
// (self-approval, wrong passphrase, a viewer approving, an admin confirming their own proposal), bad input before any
// passphrase is asked, the signed roster (found, invite, accept, confirm, role, disable, rekey, passphrase), the
// fingerprint shown before every decision, the single-admin desk saying it cannot give four-eyes, and files written.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_REFUSALS_KEPT } from '../../../electron/contract';
import type {
  AuditHeadView,
  CallbackRefusalsView,
  AuditVerification,
  BalanceView,
  CheckpointView,
  CurrencyView,
  DepositAddressView,
  DepositView,
  InvitationView,
  Page,
  PolicyChangeView,
  PolicyView,
  ProfileSummary,
  RosterView,
  WithdrawalPreflight,
  WithdrawalView,
} from '../../../electron/contract';
import {
  ADMIN,
  APPROVER,
  as,
  enrol,
  expectDecisionFailure,
  expectFailure,
  expectOk,
  INITIATOR,
  json,
  openCliDesk,
  SECOND_ADMIN,
  setUpDesk,
  tronAddress,
  VIEWER,
  type CliDesk,
} from './support';

let desk: CliDesk;
const FINGERPRINT = /[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}/;

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
    const fingerprint = /^fingerprint: ([A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4})$/m.exec(generated.stdout)?.[1];
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

    // Neither profile is founded (operators belong to a profile), so removing them needs no admin; a founded one does
    // (see "a single-admin desk" below).
    for (const name of ['fresh', 'second']) expect(expectOk(await desk.cli(['profile', 'remove', name])).stdout).toBe(`removed profile ${name} and its keychain entries\n`);
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
    expect(run.stdout).toMatch(
      /^synced 13 currencies, 13 balances, \d+ deposits? seen \(\d+ new\), \d+ withdrawals? checked \(\d+ advanced\)\ndeposit history complete \(\d+ deposits? held, as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)\n$/,
    );
    expect(run.stderr.split('\n')).toEqual(expect.arrayContaining(['currencies: asking the service', 'balances: asking the service', 'deposits: asking the service', 'withdrawals: asking the service']));
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
    expect(expectOk(await desk.cli(['currencies'])).stdout).toMatch(/^symbol\s+name\s+decimals\s+deposit min\s+deposit fee \(fixed \+ %, min\.\.max\)\s+withdraw min/);
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
    expect(lines[0]).toMatch(/^first_seen,currency,amount,fee,txid/);
    expect(lines[1]).toContain(txid);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,trx\.usdt,/);
  });

  it('shows, filters and exports times in the reporting time zone an admin sets with "settings timezone"', async () => {
    expect(expectOk(await desk.cli(['settings', 'timezone'])).stdout).toMatch(/^reporting time zone: UTC \(now \d{4}-\d{2}-\d{2} [0-9:]{8}Z\)\n$/);
    expect(expectFailure(await desk.cli(['settings', 'timezone', 'Europe/Berlin', '--as', APPROVER.name], as(APPROVER)), 1)).toMatch(/^treasury-desk: forbidden: /);
    expect(expectFailure(await desk.cli(['settings', 'timezone', 'Mars/Olympus', '--as', ADMIN.name], as(ADMIN)), 2)).toBe(
      'treasury-desk: invalidInput: the time zone: "Mars/Olympus" is not an IANA time zone name such as Europe/Berlin, America/New_York or UTC',
    );
    expect(expectOk(await desk.cli(['settings', 'timezone', 'Asia/Kolkata', '--as', ADMIN.name], as(ADMIN))).stdout).toBe(
      'reporting time zone: Asia/Kolkata (the app, the CLI and CSV exports show times in it)\n',
    );
    try {
      expect(json(await desk.cli(['settings', 'show', '--json']))).toEqual({ lockTimeoutSeconds: 900, reportingTimeZone: 'Asia/Kolkata' });
      const [deposit] = json<Page<DepositView>>(await desk.cli(['deposits', 'list', '--search', txid, '--json'])).rows;
      if (deposit === undefined) throw new Error('the deposit is gone');
      const listed = expectOk(await desk.cli(['deposits', 'list', '--search', txid])).stdout;
      expect(listed).toMatch(/^first seen \(Asia\/Kolkata\)\s+currency/);
      const shown = /^(\d{4}-\d{2}-\d{2} [0-9:]{8}\+05:30)\s+trx\.usdt/m.exec(listed)?.[1] ?? '';
      expect(Date.parse(shown.replace(' ', 'T'))).toBe(Math.floor(deposit.firstSeenAt / 1000) * 1000);
      // A date typed without an offset is a day in the reporting zone: the deposit's own Kolkata day finds it.
      const day = shown.slice(0, 10);
      expect(json<Page<DepositView>>(await desk.cli(['deposits', 'list', '--search', txid, '--from', day, '--json'])).rows).toHaveLength(1);
      expect(json<Page<DepositView>>(await desk.cli(['deposits', 'list', '--search', txid, '--to', day, '--json'])).rows).toHaveLength(0);
      const csv = join(desk.dir, 'deposits-kolkata.csv');
      expectOk(await desk.cli(['deposits', 'export', '--csv', csv, '--search', txid]));
      const [, row = ''] = readFileSync(csv, 'utf8').trim().split(/\r?\n/);
      const firstSeen = row.split(',')[0] ?? '';
      expect(firstSeen).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30$/);
      expect(Date.parse(firstSeen)).toBe(deposit.firstSeenAt);
    } finally {
      expectOk(await desk.cli(['settings', 'timezone', 'UTC', '--as', ADMIN.name], as(ADMIN)));
    }
  });

  it('refuses bad filters as bad input', async () => {
    expect(expectFailure(await desk.cli(['deposits', 'list', '--from', 'yesterday']), 2)).toMatch(/^treasury-desk: --from must be an ISO 8601 date/);
    expect(expectFailure(await desk.cli(['deposits', 'list', '--limit', '0']), 2)).toMatch(/^treasury-desk: option '--limit <n>' argument '0' is invalid/);
    expect(expectFailure(await desk.cli(['deposits', 'list', '--currency', 'doge']), 2)).toBe(
      'treasury-desk: invalidInput: doge is not a currency this desk knows or the service lists (run a sync if the service added it recently)',
    );
    expect(expectFailure(await desk.cli(['deposits', 'list', '--currency', 'DOGE!']), 2)).toMatch(/^treasury-desk: invalidInput: --currency: a currency symbol looks like "trx\.usdt"/);
    expect(expectFailure(await desk.cli(['deposits', 'export', '--currency', 'trx']), 2)).toMatch(/required option '--csv <file>' not specified/);
  });
});

describe('operators', () => {
  const ERIN = { name: 'erin', role: 'viewer', passphrase: 'erin passphrase 5' } as const;

  it('lists the signed roster: keys, parties, who enrolled whom, no open proposals and no notice on a two-admin desk', async () => {
    const roster = json<RosterView>(expectOk(await desk.cli(['operator', 'list', '--json'])));
    expect(roster).toMatchObject({ founded: true, fourEyes: true, notice: null, proposals: [] });
    expect(roster.operators.map((operator) => `${operator.name}:${operator.role}:${operator.status}`)).toEqual([
      'alice:admin:active',
      'bob:approver:active',
      'carol:initiator:active',
      'dave:viewer:active',
      'frank:admin:active',
    ]);
    expect(roster.operators.find((operator) => operator.name === 'bob')).toMatchObject({ party: ['bob'], founding: false, enrolledBy: ['alice', 'frank'] });
    expect(roster.operators.find((operator) => operator.name === 'alice')).toMatchObject({ party: ['alice'], founding: true, enrolledBy: [] });
    const text = expectOk(await desk.cli(['operator', 'list'])).stdout;
    expect(text).toMatch(/^name\s+role\s+status\s+key fingerprint\s+party\s+enrolled by\n/);
    expect(text).toMatch(new RegExp(`^alice\\s+admin\\s+active\\s+${FINGERPRINT.source}\\s+alice\\s+founder$`, 'm'));
    expect(text).toMatch(new RegExp(`^bob\\s+approver\\s+active\\s+${FINGERPRINT.source}\\s+bob\\s+alice \\+ frank$`, 'm'));
    expect(text).not.toContain('open proposals');
  });

  it('refuses a second founding, an invitation by a non-admin, and bad input before any passphrase is asked', async () => {
    const again = await desk.cli(['operator', 'found', '--admin', 'mallory'], { env: { TREASURY_DESK_NEW_PASSPHRASE: 'mallory passphrase 1' } });
    expect(expectFailure(again, 1)).toBe('treasury-desk: conflict: profile main is already founded: its admins invite new operators');
    expect(expectFailure(await desk.cli(['operator', 'invite', ERIN.name, '--role', 'viewer', '--as', APPROVER.name], as(APPROVER)), 1)).toBe(
      'treasury-desk: forbidden: bob is an approver and may not manage operators',
    );
    const badRole = await desk.cli(['operator', 'invite', ERIN.name, '--role', 'boss', '--as', ADMIN.name], { answers: [] });
    expect(expectFailure(badRole, 2)).toMatch(/^treasury-desk: invalidInput: --role: /);
    expect(badRole.prompts).toEqual([]);
    expect(expectFailure(await desk.cli(['operator', 'found', '--admin', 'a', '--admin', 'b', '--admin', 'c']), 2)).toMatch(/^treasury-desk: invalidInput: --admin: /);
    expect(expectFailure(await desk.cli(['operator', 'accept', ERIN.name]), 2)).toBe(
      'treasury-desk: the invitation code for erin is needed: type it at a terminal, or set TREASURY_DESK_INVITATION_CODE when stdin is not a terminal.',
    );
    expect(expectFailure(await desk.cli(['operator', 'confirm', 'abc', '--as', SECOND_ADMIN.name]), 2)).toMatch(/^treasury-desk: PROPOSAL_ID must be a proposal id \(64 hexadecimal characters\) or a unique prefix of at least 8/);
    expect(expectFailure(await desk.cli(['operator', 'confirm', '00000000', '--as', SECOND_ADMIN.name]), 1)).toBe(
      'treasury-desk: no open proposal starts with 00000000: see "treasury-desk operator list".',
    );
  });

  it('on a terminal: an invitation, accepted with the hidden code and a new passphrase typed twice, then confirmed by the other admin', async () => {
    const invited = await desk.cli(['operator', 'invite', ERIN.name, '--role', ERIN.role, '--as', ADMIN.name], { answers: [ADMIN.passphrase] });
    expectOk(invited);
    expect(invited.prompts).toEqual(['Passphrase of alice:  [hidden]']);
    const code = /^invitation for erin: code ([A-Z2-7-]+)$/m.exec(invited.stdout)?.[1] ?? '';
    expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]$/);
    expect(invited.stdout).toContain('another admin, independent of alice, confirms');
    const proposal = /\(proposal ([0-9a-f]{12})\)/.exec(invited.stdout)?.[1] ?? '';

    const mismatch = await desk.cli(['operator', 'accept', ERIN.name], { answers: [code, ERIN.passphrase, 'erin passphrase 6'] });
    expect(expectFailure(mismatch, 2)).toBe('treasury-desk: the two passphrases typed differ; nothing was changed.');
    const wrongCode = await desk.cli(['operator', 'accept', ERIN.name], { env: { TREASURY_DESK_INVITATION_CODE: 'AAAA-BBBB-CCCC-D', TREASURY_DESK_NEW_PASSPHRASE: ERIN.passphrase } });
    expect(expectFailure(wrongCode, 1)).toBe('treasury-desk: wrongPassphrase: the invitation code is not right: type it as the admin gave it');

    const accepted = await desk.cli(['operator', 'accept', ERIN.name], { answers: [code, ERIN.passphrase, ERIN.passphrase] });
    expectOk(accepted);
    expect(accepted.prompts).toEqual(['Invitation code for erin:  [hidden]', 'New passphrase for erin:  [hidden]', 'Type it again:  [hidden]']);
    const key = new RegExp(`^erin accepted: new key fingerprint (${FINGERPRINT.source})$`, 'm').exec(accepted.stdout)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(accepted.stdout).toContain(`it waits for an admin independent of alice to confirm key ${key}: `);
    expect(accepted.stdout + accepted.stderr).not.toContain(ERIN.passphrase);

    const waiting = expectOk(await desk.cli(['operator', 'list'])).stdout;
    expect(waiting).toMatch(new RegExp(`^erin\\s+viewer\\s+invited\\s+${key}\\s+-\\s+alice$`, 'm'));
    expect(waiting).toMatch(new RegExp(`^open proposals:\\nid\\s+summary\\s+proposer\\s+waiting for\\n${proposal}\\s+invite erin as viewer\\s+alice\\s+an admin independent of alice to confirm key ${key}\\n`, 'm'));

    // alice proposed it: she is not independent of herself. The proposal (and erin's key) is shown before her passphrase.
    const own = await desk.cli(['operator', 'confirm', proposal, '--as', ADMIN.name], as(ADMIN));
    expect(own.code).toBe(1);
    expect(own.stdout).toBe(`Confirming proposal ${proposal}: invite erin as viewer, proposed by alice; erin's key fingerprint ${key}\n`);
    expect(own.stderr).toBe('treasury-desk: forbidden: alice is not independent of alice, who proposed it: another admin must confirm\n');

    const confirmed = expectOk(await desk.cli(['operator', 'confirm', proposal.slice(0, 8), '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(confirmed.stdout).toMatch(/\nconfirmed: invite erin as viewer is in force\n$/);
    const roster = json<RosterView>(await desk.cli(['operator', 'list', '--json']));
    expect(roster.proposals).toEqual([]);
    expect(roster.operators.find((operator) => operator.name === 'erin')).toMatchObject({ status: 'active', keyFingerprint: key, party: ['erin'], enrolledBy: ['alice', 'frank'] });
  });

  it('a role change waits for the second admin and can be withdrawn; re-key, own passphrase, then disabling', async () => {
    const proposed = expectOk(await desk.cli(['operator', 'role', ERIN.name, 'initiator', '--as', ADMIN.name], as(ADMIN))).stdout;
    const id = /^proposed: make erin initiator \(proposal ([0-9a-f]{12})\)$/m.exec(proposed)?.[1] ?? '';
    expect(proposed).toContain(`it waits for an admin independent of alice to confirm: "treasury-desk operator confirm ${id} --as ADMIN"`);
    expect(expectFailure(await desk.cli(['operator', 'role', ERIN.name, 'boss', '--as', ADMIN.name]), 2)).toMatch(/^treasury-desk: invalidInput: ROLE: /);
    const withdrawn = expectOk(await desk.cli(['operator', 'withdraw-proposal', id, '--as', ADMIN.name], as(ADMIN))).stdout;
    expect(withdrawn).toBe(`Withdrawing proposal ${id}: make erin initiator, proposed by alice\nwithdrew proposal ${id}\n`);
    expect(json<RosterView>(await desk.cli(['operator', 'list', '--json'])).operators.find((operator) => operator.name === 'erin')?.role).toBe('viewer');

    // A lost passphrase: alice re-keys erin (a code like an invitation), erin chooses a new one, frank confirms the new key.
    const rekeyed = json<InvitationView>(expectOk(await desk.cli(['operator', 'rekey', ERIN.name, '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(rekeyed).toMatchObject({ operator: 'erin', needsConfirmation: true });
    const newPassphrase = 'erin passphrase 77';
    expectOk(await desk.cli(['operator', 'accept', ERIN.name], { env: { TREASURY_DESK_INVITATION_CODE: rekeyed.code, TREASURY_DESK_NEW_PASSPHRASE: newPassphrase } }));
    expectOk(await desk.cli(['operator', 'confirm', rekeyed.proposal, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));

    // Her own passphrase, changed: the current one from TREASURY_DESK_PASSPHRASE, the new one from ..._NEW_PASSPHRASE.
    const changed = await desk.cli(['operator', 'passphrase', ERIN.name], { env: { TREASURY_DESK_PASSPHRASE: newPassphrase, TREASURY_DESK_NEW_PASSPHRASE: 'erin passphrase 88' } });
    expect(expectOk(changed).stdout).toMatch(new RegExp(`^new passphrase set for erin; the key stays ${FINGERPRINT.source}\\n$`));
    const stale = await desk.cli(['operator', 'passphrase', ERIN.name], { env: { TREASURY_DESK_PASSPHRASE: ERIN.passphrase, TREASURY_DESK_NEW_PASSPHRASE: 'erin passphrase 99' } });
    expect(expectFailure(stale, 1)).toBe('treasury-desk: wrongPassphrase: the operator name or passphrase is not right');

    const disabling = expectOk(await desk.cli(['operator', 'disable', ERIN.name, '--as', ADMIN.name], as(ADMIN))).stdout;
    const disableId = /\(proposal ([0-9a-f]{12})\)/.exec(disabling)?.[1] ?? '';
    expect(expectOk(await desk.cli(['operator', 'confirm', disableId, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN))).stdout).toMatch(/\nconfirmed: disable erin is in force\n$/);
    expect(expectOk(await desk.cli(['operator', 'list'])).stdout).toMatch(/^erin\s+viewer\s+disabled\s/m);
  });
});

describe('a single-admin desk', () => {
  const SAM = { name: 'sam', role: 'admin', passphrase: 'sam passphrase 11' } as const;
  const OLIVE = { name: 'olive', role: 'approver', passphrase: 'olive passphrase 2' } as const;
  const solo = ['--profile', 'solo'];

  it('says plainly that it cannot give four-eyes, and an approval from the admin’s own party does not count', async () => {
    expectOk(await desk.cli(['profile', 'import', desk.sandbox.credentialsPath, '--name', 'solo']));
    const unfounded = expectOk(await desk.cli([...solo, 'operator', 'list'])).stdout;
    expect(unfounded).toMatch(/^This desk profile is not founded yet: .*\nfound it with "treasury-desk operator found --admin NAME \[--admin NAME2\]"\n$/);

    const founded = await desk.cli([...solo, 'operator', 'found', '--admin', SAM.name], { answers: [SAM.passphrase, SAM.passphrase] });
    expectOk(founded);
    expect(founded.prompts).toEqual(['New passphrase for sam:  [hidden]', 'Type it again:  [hidden]']);
    expect(founded.stdout).toMatch(new RegExp(`^founded the desk: sam \\(admin, key ${FINGERPRINT.source}\\)\\nThis desk has a single admin, so it cannot give four-eyes: `));
    await enrol(desk, OLIVE, SAM, null, solo);
    const roster = json<RosterView>(await desk.cli([...solo, 'operator', 'list', '--json']));
    expect(roster.fourEyes).toBe(false);
    expect(roster.operators.find((operator) => operator.name === 'olive')).toMatchObject({ status: 'active', party: ['olive', 'sam'], enrolledBy: ['sam'] });
    const text = expectOk(await desk.cli([...solo, 'operator', 'list'])).stdout;
    expect(text).toMatch(/^olive\s+approver\s+active\s+\S+\s+olive, sam\s+sam$/m);
    expect(text).toMatch(/\n\nThis desk has a single admin, so it cannot give four-eyes: [^\n]+\n$/);

    // On this desk a policy is in force at once, and olive's approval of sam's request never counts.
    const policy = expectOk(await desk.cli([...solo, 'policy', 'set', '--currency', 'trx.usdt', '--threshold', '0:1', '--as', SAM.name], as(SAM))).stdout;
    expect(policy).toBe('policy of trx.usdt: approvals >0: 1; daily limit none; normal withdrawals\nin force now\n');
    expectOk(await desk.cli([...solo, 'sync']));
    const requested = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli([...solo, 'withdraw', 'request', '--currency', 'trx.usdt', '--amount', '17', '--to', tronAddress(), '--as', SAM.name, '--json'], as(SAM))),
    ).withdrawal;
    const approved = expectOk(await desk.cli([...solo, 'withdraw', 'approve', requested.id, '--as', OLIVE.name], as(OLIVE))).stdout;
    expect(approved).toContain(`request ${requested.id}: awaitingApproval (approvals 0/1 counted)\n`);
    expect(approved).toContain("olive's approval does not count: olive counts as sam's party (enrolled by one admin alone)\n");
    const status = expectOk(await desk.cli([...solo, 'withdraw', 'status', requested.id])).stdout;
    expect(status).toMatch(/^approvals\s+0 of 1 counted$/m);
    expect(status).toMatch(/^verification\s+not ok$/m);
    expect(status).toContain('  problem: 0 of 1 required approvals come from parties independent of sam and of each other\n');
    expect(status).toMatch(/^ {2}\S+ \S+ {2}approved by olive: does not count \(olive counts as sam's party \(enrolled by one admin alone\)\)$/m);

    // A founded profile is removed only by one of its own admins.
    expect(expectFailure(await desk.cli(['profile', 'remove', 'solo']), 1)).toBe('treasury-desk: forbidden: removing profile solo needs one of its admins: give --as ADMIN');
    expect(expectFailure(await desk.cli(['profile', 'remove', 'solo', '--as', ADMIN.name], as(ADMIN)), 1)).toBe('treasury-desk: wrongPassphrase: the operator name or passphrase is not right');
    expectOk(await desk.cli(['profile', 'remove', 'solo', '--as', SAM.name], as(SAM)));
    expect(await desk.vault.listProfiles()).toEqual(['main']);
  });
});

describe('withdrawals', () => {
  it('refuses bad input with exit 2 before asking for a passphrase', async () => {
    const base = ['withdraw', 'request', '--amount', '10', '--to', tronAddress(), '--as', INITIATOR.name];
    expect(expectFailure(await desk.cli([...base, '--currency', 'doge']), 2)).toMatch(
      /^treasury-desk: invalidInput: --currency: this desk has no address rules for "doge", so it cannot withdraw in it: it withdraws in trx, trx\.usdt, /,
    );
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
    // A missing passphrase is a usage error, not a refusal; the request and its fingerprint were shown before it was asked.
    const id = await request('13');
    const noPassphrase = await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name]);
    expect(expectDecisionFailure(noPassphrase, 2)).toContain('TREASURY_DESK_PASSPHRASE');
    // Then everything the approver signs (withdrawals/review), before the passphrase was asked.
    expect(noPassphrase.stdout).toMatch(new RegExp(`^Approving request ${id}: 13 trx\\.usdt to T\\w+, requested by carol; fingerprint ${FINGERPRINT.source}\n[! ] Amount \\(the recipient receives\\) +13 trx\\.usdt\n`));
    expect(noPassphrase.stdout).toMatch(new RegExp(`\n[! ] Request fingerprint +${FINGERPRINT.source}\n$`));
    expect(expectFailure(await desk.cli(['withdraw', 'approve', '999999', '--as', APPROVER.name]), 1)).toBe('treasury-desk: notFound: no withdrawal request 999999 in profile main');
    expect(expectFailure(await desk.cli(['withdraw', 'submit', 'abc', '--as', APPROVER.name]), 2)).toMatch(/^treasury-desk: invalidInput: "abc" is not a withdrawal request id/);
    expectOk(await desk.cli(['withdraw', 'cancel', id, '--as', INITIATOR.name], as(INITIATOR)));
  });

  it('request prints the fingerprint; every decision shows it again before the passphrase, on a terminal before the prompt', async () => {
    const toAddress = tronAddress();
    const requested = expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '14', '--to', toAddress, '--as', INITIATOR.name], as(INITIATOR))).stdout;
    const [, id = '', fingerprint = ''] = new RegExp(`^request (\\d+): awaitingApproval, 1 approval needed\nfingerprint (${FINGERPRINT.source}) \\(approvers compare it`).exec(requested) ?? [];
    expect(fingerprint).toMatch(FINGERPRINT);
    const approving = await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], { answers: [APPROVER.passphrase] });
    expectOk(approving);
    expect(approving.prompts).toEqual(['Passphrase of bob:  [hidden]']);
    expect(approving.stdout.startsWith(`Approving request ${id}: 14 trx.usdt to ${toAddress}, requested by carol; fingerprint ${fingerprint}\n`)).toBe(true);
    // Everything the approver signs comes before the passphrase (approver-view.test.ts checks each item).
    expect(approving.stdout).toMatch(new RegExp(`\n  Request fingerprint +${fingerprint}\n`));
    expect(approving.stdout.endsWith(`request ${id}: approved (approvals 1/1 counted)\nsubmit it with "treasury-desk withdraw submit ${id} --as OPERATOR"\n`)).toBe(true);
    // With --json on a terminal the line goes to stderr (stdout stays one JSON document).
    const cancelled = await desk.cli(['withdraw', 'cancel', id, '--as', INITIATOR.name, '--json'], { answers: [INITIATOR.passphrase] });
    expect(cancelled.code).toBe(0);
    expect(cancelled.stderr).toBe(`Cancelling request ${id}: 14 trx.usdt to ${toAddress}, requested by carol; fingerprint ${fingerprint}\n`);
    expect(json<WithdrawalView>(cancelled)).toMatchObject({ id, state: 'cancelled', fingerprint });
  });

  it('shows the preflight: fee, total, balance after, approvals needed, the new-destination warning', async () => {
    const run = expectOk(await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '100', '--to', tronAddress()]));
    expect(run.stdout).toMatch(/^amount\s+100 trx\.usdt$/m);
    expect(run.stdout).toMatch(/^fee\s+[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^total debited\s+10[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^balance after\s+[0-9.]+ trx\.usdt$/m);
    expect(run.stdout).toMatch(/^approvals needed\s+1$/m);
    expect(run.stdout).toMatch(/^destination\s+new: never paid from this desk$/m);
    expect(run.stdout).toMatch(/^service address check\s+the service accepts this address$/m);
    expect(run.stdout).toMatch(/^warning: toAddress: this destination has never been paid/m);
    const over = await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '999999', '--to', tronAddress()]);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: balance: [^\n]*does not cover[^\n]*\n$/);
  });

  it('a refused request exits 1 like its preflight (a refusal), and stores nothing', async () => {
    const before = json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--json']))).rows.length;
    const refused = await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '999999', '--to', tronAddress(), '--as', INITIATOR.name], as(INITIATOR));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^treasury-desk: refused: the withdrawal cannot be requested: [^\n]*does not cover[^\n]*\n$/);
    expect(json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--json']))).rows).toHaveLength(before);
  });

  it('refuses self-approval, a wrong passphrase and a viewer with exit 1 and the contract code', async () => {
    // An admin may approve, but never a request of their own.
    const id = await request('10', tronAddress(), 'trx.usdt', ADMIN);
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'approve', id, '--as', ADMIN.name], as(ADMIN)), 1)).toBe(
      'treasury-desk: forbidden: the initiator of a request can never approve it: another approver must',
    );
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'approve', id, '--as', INITIATOR.name], as(INITIATOR)), 1)).toBe(
      'treasury-desk: forbidden: carol is an initiator and may not approve withdrawals',
    );
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], { env: { TREASURY_DESK_PASSPHRASE: 'not bob passphrase' } }), 1)).toBe(
      'treasury-desk: wrongPassphrase: the operator name or passphrase is not right',
    );
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'approve', id, '--as', VIEWER.name], as(VIEWER)), 1)).toBe(
      'treasury-desk: forbidden: dave is a viewer and may not approve withdrawals',
    );
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'submit', id, '--as', VIEWER.name], as(VIEWER)), 1)).toBe(
      'treasury-desk: forbidden: dave is a viewer and may not submit withdrawals',
    );
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'submit', id, '--as', APPROVER.name], as(APPROVER)), 1)).toMatch(
      /^treasury-desk: conflict: request \d+ cannot be submitted: the request is awaitingApproval; /,
    );
    expect(expectFailure(await desk.cli(['withdraw', 'status', '999999']), 1)).toMatch(/^treasury-desk: notFound: no withdrawal request 999999/);
    expect(expectFailure(await desk.cli(['withdraw', 'status', 'abc']), 2)).toMatch(/^treasury-desk: invalidInput: "abc" is not a withdrawal request id/);
    // Nothing was decided: the request still waits for its approval, and its statements say why it cannot be sent.
    expect(json<WithdrawalView>(await desk.cli(['withdraw', 'status', id, '--json']))).toMatchObject({
      state: 'awaitingApproval',
      approvals: [],
      verification: { ok: false, countedApprovals: 0, requiredApprovals: 1, problems: ['waiting for 1 approval from operators independent of alice'] },
    });
    const status = expectOk(await desk.cli(['withdraw', 'status', id])).stdout;
    expect(status).toMatch(new RegExp(`^fingerprint\\s+${FINGERPRINT.source}$`, 'm'));
    expect(status).toContain('verification  not ok\n');
    expect(status).toContain('  problem: waiting for 1 approval from operators independent of alice\n');
  });

  it('rejects with a reason, cancels, and lists by state', async () => {
    const rejected = await request('11');
    expect(expectFailure(await desk.cli(['withdraw', 'reject', rejected, '--as', APPROVER.name], as(APPROVER)), 2)).toMatch(/required option '--reason <text>'/);
    expect(expectOk(await desk.cli(['withdraw', 'reject', rejected, '--reason', 'unknown recipient', '--as', APPROVER.name], as(APPROVER))).stdout).toMatch(
      new RegExp(`^Rejecting request ${rejected}: 11 trx\\.usdt to T\\w+, requested by carol; fingerprint ${FINGERPRINT.source}\nrequest ${rejected}: rejected\n$`),
    );
    const cancelled = await request('12');
    expect(expectDecisionFailure(await desk.cli(['withdraw', 'cancel', cancelled, '--as', APPROVER.name], as(APPROVER)), 1)).toBe(
      'treasury-desk: forbidden: bob is an approver and may not cancel withdrawal requests',
    );
    expectOk(await desk.cli(['withdraw', 'cancel', cancelled, '--reason', 'typo in amount', '--as', INITIATOR.name], as(INITIATOR)));
    const list = json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--state', 'cancelled', '--json'])));
    expect(list.rows.map((row) => row.id)).toContain(cancelled);
    const status = expectOk(await desk.cli(['withdraw', 'status', rejected])).stdout;
    expect(status).toMatch(/^state\s+rejected$/m);
    expect(status).toMatch(/^approvals \(UTC\):\n {2}\S+ \S+ {2}rejected by bob: unknown recipient\n/m);
    expect(status).toContain('  problem: bob rejected it: unknown recipient\n');
    expect(status).toMatch(/rejected by bob: unknown recipient\n$/);
    // A reason of several lines is a block under its heading, every line marked, so none of it reads as a field.
    const twoLines = await request('13');
    expectOk(await desk.cli(['withdraw', 'reject', twoLines, '--reason', 'wrong\nto  TXYZ', '--as', APPROVER.name], as(APPROVER)));
    expect(expectOk(await desk.cli(['withdraw', 'status', twoLines])).stdout).toMatch(/^ {2}\S+ \S+ {2}rejected by bob:\n {2}\| wrong\n {2}\| to {2}TXYZ\n/m);
    const table = expectOk(await desk.cli(['withdraw', 'list'])).stdout;
    expect(table).toMatch(/^\s*id\s+state\s+currency\s+amount\s+to\s+initiator\s+approvals/);
    expect(table).toMatch(new RegExp(`^\\s*${rejected}\\s+rejected\\s+trx\\.usdt\\s+11\\s+T\\w+\\s+carol\\s+0/1\\s`, 'm'));
    expect(expectFailure(await desk.cli(['withdraw', 'list', '--state', 'lost']), 2)).toMatch(/^treasury-desk: invalidInput: --state: /);
  });

  it('flags a look-alike of a paid destination with the differing positions', async () => {
    expectOk(await desk.cli(['sync']));
    const known = `0x${'ab'.repeat(20)}`;
    const id = await request('25', known, 'eth.usdt');
    expectOk(await desk.cli(['withdraw', 'approve', id, '--as', APPROVER.name], as(APPROVER)));
    const submitted = expectOk(await desk.cli(['withdraw', 'submit', id, '--as', INITIATOR.name], as(INITIATOR))).stdout;
    expect(submitted).toMatch(new RegExp(`^Submitting request ${id}: 25 eth\\.usdt to ${known}, requested by carol; fingerprint ${FINGERPRINT.source}\nrequest ${id}: submitted`));
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
  /** Sets a policy as alice (it waits on this two-admin desk) and has frank confirm it. */
  async function setAndConfirm(args: readonly string[]): Promise<void> {
    const change = json<PolicyChangeView>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', ...args, '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(change).toMatchObject({ applied: false, proposal: { kind: 'policy', subject: 'trx.usdt', proposer: 'alice', needsConfirmation: true, state: 'open' } });
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
  }

  it('an admin proposes thresholds and a daily limit, in force once the other admin confirms; others are refused; the rest is kept', async () => {
    const set = ['policy', 'set', '--currency', 'trx.usdt', '--threshold', '1000:2', '--threshold', '0:1', '--daily-limit', '3000'];
    expect(expectFailure(await desk.cli([...set, '--as', APPROVER.name], as(APPROVER)), 1)).toBe('treasury-desk: forbidden: bob is an approver and may not change withdrawal policies');
    const proposed = expectOk(await desk.cli([...set, '--as', ADMIN.name], as(ADMIN))).stdout;
    const [, id = ''] = /^not in force yet: proposal ([0-9a-f]{12}) waits for an admin independent of alice to confirm$/m.exec(proposed) ?? [];
    expect(proposed).toBe(
      'policy of trx.usdt: approvals >1000: 2, >0: 1; daily limit 3000; normal withdrawals\n' +
        `not in force yet: proposal ${id} waits for an admin independent of alice to confirm\n` +
        `until then the policy in force stays; confirm with "treasury-desk operator confirm ${id} --as ADMIN"\n`,
    );
    // Until frank confirms, the policy in force is the one before; alice cannot confirm her own proposal.
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ dailyLimit: null });
    expect(json<RosterView>(await desk.cli(['operator', 'list', '--json'])).proposals).toEqual([
      expect.objectContaining({ kind: 'policy', subject: 'trx.usdt', summary: 'change the trx.usdt withdrawal policy: 2 approvals above 1000, 1 approval above 0; daily limit 3000; normal withdrawals' }),
    ]);
    expect((await desk.cli(['operator', 'confirm', id, '--as', ADMIN.name], as(ADMIN))).stderr).toMatch(/^treasury-desk: forbidden: alice is not independent of alice/);
    const confirmed = expectOk(await desk.cli(['operator', 'confirm', id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN))).stdout;
    expect(confirmed).toMatch(new RegExp(`^Confirming proposal ${id}: change the trx\\.usdt withdrawal policy: .*, proposed by alice\nconfirmed: change the trx\\.usdt withdrawal policy: .* is in force\n$`));
    const policies = json<PolicyView[]>(expectOk(await desk.cli(['policy', 'list', '--json'])));
    expect(policies.find((policy) => policy.currency === 'trx.usdt')).toEqual({
      currency: 'trx.usdt',
      thresholds: [
        { above: '1000', approvals: 2 },
        { above: '0', approvals: 1 },
      ],
      dailyLimit: '3000',
      useFinancialConfirmation: false,
      onlyFromBook: false,
      newDestinationWaitHours: 0,
      approvalValidHours: null,
      windows: [],
      destinationCaps: [],
      unusualAmount: null,
      provenControlAbove: null,
    });
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\.usdt\s+>1000: 2, >0: 1\s+3000\s+never\s+normal\s+no\s+no\s+none\s+none\s+none\s+off$/m);

    const big = json<{ withdrawal: WithdrawalView }>(
      await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '1500', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR)),
    );
    expect(big.withdrawal.requiredApprovals).toBe(2);
    const overLimit = await desk.cli(['withdraw', 'preflight', '--currency', 'trx.usdt', '--amount', '2900', '--to', tronAddress()]);
    expect(overLimit.code).toBe(1);
    expect(overLimit.stderr).toMatch(/^treasury-desk: the withdrawal would be refused: dailyLimit: the daily limit is 3000[^\n]*\n$/);

    // Only the financial-confirmation switch changes; thresholds and limit stay.
    await setAndConfirm(['--financial-confirmation']);
    const after = json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt');
    expect(after).toMatchObject({ dailyLimit: '3000', useFinancialConfirmation: true, thresholds: [{ above: '1000', approvals: 2 }, { above: '0', approvals: 1 }] });
    await setAndConfirm(['--no-financial-confirmation', '--daily-limit', 'none', '--threshold', '0:1']);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({
      dailyLimit: null,
      useFinancialConfirmation: false,
    });

    // Rolling windows and destination caps (issue 20): set, kept by a later change of something else, listed, cleared.
    const partner = tronAddress();
    await setAndConfirm(['--window', '24h:initiator:amount=1000:count=3', '--window', '7d:currency:count=50', '--destination-cap', `${partner}:10000:24h`]);
    const velocity = { windows: [{ hours: 24, scope: 'initiator', maxAmount: '1000', maxCount: 3 }, { hours: 168, scope: 'currency', maxCount: 50 }], destinationCaps: [{ address: partner, maxAmount: '10000', hours: 24 }] };
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject(velocity);
    await setAndConfirm(['--daily-limit', '5000']);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ dailyLimit: '5000', ...velocity });
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(new RegExp(`^trx\\.usdt\\s+.*24 h per initiator: amount 1000, count 3; 168 h per currency: count 50\\s+${partner}: 10000 per 24 h\\s+none\\s+off$`, 'm'));
    await setAndConfirm(['--window', 'none', '--destination-cap', 'none', '--daily-limit', 'none']);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ windows: [], destinationCaps: [] });

    // The unusual-amount rule (issue 21): set with its flags, kept by a later change of something else, listed.
    await setAndConfirm(['--unusual-factor', '3', '--first-payment-approval']);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ unusualAmount: { factor: '3', firstPayment: true } });
    await setAndConfirm(['--daily-limit', '6000']);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json'])).find((policy) => policy.currency === 'trx.usdt')).toMatchObject({ dailyLimit: '6000', unusualAmount: { factor: '3', firstPayment: true } });
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\.usdt\s+.*one approval more above 3 × the median paid to the address, and for a first payment\s+off$/m);
  });

  it('refuses malformed thresholds and amounts as bad input', async () => {
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--threshold', '1000', '--as', ADMIN.name]), 2)).toMatch(/--threshold must be AMOUNT:APPROVALS/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--threshold', '1000:9', '--as', ADMIN.name]), 2)).toMatch(/^treasury-desk: invalidInput: --threshold: /);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--daily-limit', 'lots', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(/daily limit "lots" is not a decimal amount/);
    const before = json<PolicyView[]>(await desk.cli(['policy', 'list', '--json']));
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--window', '24h:everyone:count=3', '--as', ADMIN.name]), 2)).toMatch(/--window: the scope is currency, initiator or destination/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--window', '1w:currency:count=3', '--as', ADMIN.name]), 2)).toMatch(/--window: the window is hours or days such as 24h or 7d/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--window', '24h:currency', '--as', ADMIN.name]), 2)).toMatch(/--window: give amount=AMOUNT, count=N or both/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--destination-cap', 'TXYZ:10000', '--as', ADMIN.name]), 2)).toMatch(/--destination-cap is ADDRESS:AMOUNT:DURATION/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--window', '1000h:currency:count=3', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(/a window is 1 to 720 hours/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--first-payment-approval', '--as', ADMIN.name]), 2)).toMatch(/--first-payment-approval is part of the unusual-amount rule: give --unusual-factor F too/);
    expect(expectFailure(await desk.cli(['policy', 'set', '--currency', 'trx', '--unusual-factor', 'lots', '--as', ADMIN.name], as(ADMIN)), 2)).toMatch(/the unusual-amount factor "lots" is not a decimal number/);
    expect(json<PolicyView[]>(await desk.cli(['policy', 'list', '--json']))).toEqual(before);
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
    expect(run.stdout).toMatch(/Press Ctrl\+C to stop\.\nstopped \(SIGTERM\): 0 received, 1 refused\nrefused callbacks: 1 refusal by check: missingHeaders 1\n/);
    // The refused callbacks kept in this process, newest first: when, from where, the status, the check and its reason.
    expect(run.stdout).toMatch(/^received\s+source\s+status\s+code\s+check\s+reason\n/m);
    expect(run.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}.*\s(::ffff:)?127\.0\.0\.1\s+400\s+missingHeaders\s+signature headers missing\s+callback: the response was refused \(missingHeaders\): SVC-APP-ID is missing/m);
    expect(run.stderr).toMatch(/^callbacks: 0 received, 1 refused; last refusal: /);
    await expect(fetch(address)).rejects.toThrow();
  });

  it('with --json, answers the refused callbacks with their codes and counts when it stops', async () => {
    let stop: (signal: string) => void = () => undefined;
    let announced: (url: string) => void = () => undefined;
    const url = new Promise<string>((resolve) => (announced = resolve));
    const running = desk.cli(['callbacks', 'listen', '--port', '0', '--json'], {
      untilStopped: () => new Promise((resolve) => (stop = resolve)),
      onStdout: (text) => {
        const match = /"url": "([^"]+)"/.exec(text);
        if (match?.[1]) announced(match[1]);
      },
    });
    const address = await url;
    expect((await fetch(address, { method: 'POST', body: 'data=forged' })).status).toBe(400);
    expect((await fetch(address, { method: 'POST', body: 'x'.repeat(200_000) }).catch(() => null))?.status ?? 413).toBe(413);
    stop('SIGTERM');
    const run = await running;
    expect(run.code).toBe(0);
    const stopped = JSON.parse(run.stdout.slice(run.stdout.lastIndexOf('\n{') + 1)) as { refused: number; refusals: CallbackRefusalsView };
    expect(stopped.refused).toBe(2);
    expect(stopped.refusals).toMatchObject({ total: 2, kept: CALLBACK_REFUSALS_KEPT, counts: [{ code: 'bodyTooLarge', count: 1 }, { code: 'missingHeaders', count: 1 }] });
    expect(stopped.refusals.refusals.map((refusal) => [refusal.code, refusal.status])).toEqual([['bodyTooLarge', 413], ['missingHeaders', 400]]);
  });
});

describe('the audit log', () => {
  it('exports every row with its statement, signature and hash, and no secret', async () => {
    const file = join(desk.dir, 'audit.jsonl');
    const run = expectOk(await desk.cli(['audit', 'export', file]));
    expect(run.stdout).toMatch(new RegExp(`^wrote \\d+ audit rows to ${file.replace(/[.]/g, '\\.')}\n$`));
    const text = readFileSync(file, 'utf8');
    const rows = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; hash: string; statement: string; signature: string });
    expect(rows[0]?.seq).toBe(1);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.hash) && row.signature !== '')).toBe(true);
    const kinds = rows.map((row) => (JSON.parse(row.statement) as { kind: string }).kind);
    for (const kind of ['found', 'enrol', 'accept', 'confirm', 'request', 'approve', 'reject', 'cancel', 'submit', 'policy']) expect(kinds).toContain(kind);
    expect(text).not.toContain(desk.sandbox.credentials.secret);
    expect(json<AuditVerification>(expectOk(await desk.cli(['audit', 'verify', '--json'])))).toMatchObject({ ok: true, legacyRows: 0, anchored: true, checkpoint: null });
  });

  it('head, checkpoint, and verify against the checkpoint; a doctored checkpoint is refused', async () => {
    const head = json<{ head: AuditHeadView }>(expectOk(await desk.cli(['audit', 'head', '--json']))).head;
    expect(head.fingerprint).toMatch(FINGERPRINT);
    expect(expectOk(await desk.cli(['audit', 'head'])).stdout).toBe(`head: row ${head.seq}, fingerprint ${head.fingerprint}\n`);
    const file = join(desk.dir, 'checkpoint.json');
    const written = json<CheckpointView>(expectOk(await desk.cli(['audit', 'checkpoint', '--out', file, '--json'])));
    expect(written).toEqual({ path: file, seq: head.seq, fingerprint: head.fingerprint });
    expect(expectFailure(await desk.cli(['audit', 'checkpoint']), 2)).toBe("treasury-desk: required option '--out <file>' not specified");

    const verified = expectOk(await desk.cli(['audit', 'verify', '--against', file])).stdout;
    expect(verified).toMatch(/^the audit chain is intact: \d+ rows verified\nhead: row \d+, fingerprint [A-Z2-7-]{19}\n/);
    expect(verified).toContain("anchored: this workstation's keychain holds the last head it saw, and the chain still contains it\n");
    expect(verified).toMatch(new RegExp(`checkpoint: matched ${file.replace(/[.]/g, '\\.')}\n$`));
    expect(json<AuditVerification>(await desk.cli(['audit', 'verify', '--against', file, '--json']))).toMatchObject({ ok: true, checkpoint: 'matched' });

    const doctored = join(desk.dir, 'doctored-checkpoint.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as { checkpoint: { headHash: string } };
    checkpoint.checkpoint.headHash = 'f'.repeat(64);
    writeFileSync(doctored, JSON.stringify(checkpoint));
    expect(expectFailure(await desk.cli(['audit', 'verify', '--against', doctored]), 1)).toMatch(/^treasury-desk: the audit chain is broken: first bad row \d+: .+ \(\d+ rows checked\)$/);
    writeFileSync(doctored, '{"not": "a checkpoint"}');
    expect(expectFailure(await desk.cli(['audit', 'verify', '--against', doctored]), 2)).toMatch(/^treasury-desk: invalidInput: .*not a Treasury Desk audit checkpoint/);
  });

  it('verify exits 1 and names the first bad row when a row was altered', async () => {
    const db = new Database(desk.dbPath);
    db.exec('DROP TRIGGER audit_log_no_update');
    db.prepare("UPDATE audit_log SET subject = 'someone-else' WHERE seq = 3").run();
    db.close();
    const line = expectFailure(await desk.cli(['audit', 'verify']), 1);
    expect(line).toMatch(/^treasury-desk: the audit chain is broken: first bad row 3: .+ \(2 rows checked\)$/);
    const asJson = await desk.cli(['audit', 'verify', '--json']);
    expect(asJson.code).toBe(1);
    expect(json<AuditVerification>(asJson)).toMatchObject({ ok: false, firstBadSeq: 3 });
  });
});
