// Benchmark of provable approvals at scale: a desk with 50 operators and an audit log of 100,000 signed rows (10,000
// requests, each requested and approved, and system rows between them). Reports what submission adds before the first
// byte is sent (chain linkage walk, roster replay, judging one request), a full `audit verify`, and unsealing an
// operator key, each next to this machine's limit (Ed25519 verifications/s, raw scrypt time).
import { randomBytes, scrypt, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTrail } from '../../electron/core/audit/trail';
import { DeskIdentity, fileDeskSecrets } from '../../electron/core/audit/desk-identity';
import { SEAL_KDF, sealPrivateKey, unsealPrivateKey } from '../../electron/core/operators/sealed-key';
import { generateSigningKey, type SigningKeyPair } from '../../electron/core/statements/keys';
import { intentFingerprint, intentHash, type WithdrawalIntent } from '../../electron/core/statements/intent';
import { canonicalHash, signStatementText, type StatementBody } from '../../electron/core/statements/statement';
import { closeDatabase, createProfile, createWithdrawalRequest, openDatabase, writeTransaction, type StoreDatabase } from '../../electron/core/store';
import { judgeRequest } from '../../electron/core/withdrawals/verify';
import { getWithdrawalRequestByUserOrder } from '../../electron/core/store';

const PROFILE = 'bench';
const MERCHANT = 'M-BENCH';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function timeMs(run: () => void, iterations: number): number {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

async function timeMsAsync(run: () => Promise<unknown>, iterations: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

function sign(trail: AuditTrail, pair: SigningKeyPair, name: string, kind: Parameters<AuditTrail['append']>[0]['kind'], subject: string, body: StatementBody) {
  return trail.append({ kind, profile: PROFILE, subject, body, operator: name, keyId: pair.keyId }, (text) => signStatementText(pair.privateKey, text));
}

export async function run(args: readonly string[]): Promise<void> {
  const requests = Number(args[0] ?? 10_000);
  const systemPerRequest = 8;
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-approvals-'));
  let db: StoreDatabase | undefined;
  try {
    db = openDatabase(join(dir, 'desk.sqlite'), { integrityCheck: 'none' });
    createProfile(db, { name: PROFILE, baseUrl: 'https://127.0.0.1:1', merchantId: MERCHANT });
    const secrets = fileDeskSecrets(join(dir, 'desk-secrets.json'));
    const trail = new AuditTrail(db, await DeskIdentity.load(secrets), secrets, Date.now);
    const build = process.hrtime.bigint();
    const admins = [generateSigningKey(), generateSigningKey()] as const;
    const body: StatementBody = { admins: [{ name: 'a1', publicKey: admins[0].publicKey }, { name: 'a2', publicKey: admins[1].publicKey }], deskKey: { publicKey: trail.deskPublicKey }, merchantId: MERCHANT };
    const database = db;
    writeTransaction(database, () => {
      sign(trail, admins[0], 'a1', 'found', canonicalHash(body), body);
      sign(trail, admins[1], 'a2', 'found', canonicalHash(body), body);
    });
    const operators: { name: string; pair: SigningKeyPair }[] = [];
    writeTransaction(database, () => {
      for (let i = 0; i < 48; i += 1) {
        const name = `op${i}`;
        const pair = generateSigningKey();
        const proposal = sign(trail, admins[0], 'a1', 'enrol', name, { role: i % 2 === 0 ? 'initiator' : 'approver', codeHash: '0'.repeat(64) });
        sign(trail, pair, name, 'accept', name, { proposal: proposal.hash, publicKey: pair.publicKey });
        sign(trail, admins[1], 'a2', 'confirm', name, { proposal: proposal.hash, keyId: pair.keyId });
        operators.push({ name, pair });
      }
    });
    const initiators = operators.filter((_, index) => index % 2 === 0);
    const approvers = operators.filter((_, index) => index % 2 === 1);
    let lastUserOrder = '';
    for (let start = 0; start < requests; start += 500) {
      writeTransaction(database, () => {
        for (let i = start; i < Math.min(requests, start + 500); i += 1) {
          const initiator = initiators[i % initiators.length]!;
          const approver = approvers[i % approvers.length]!;
          const intent: WithdrawalIntent = {
            v: 1, merchantId: MERCHANT, currency: 'trx.usdt', amount: `${(i % 900) + 10}.5`, toAddress: `T${randomBytes(16).toString('hex')}`,
            withdrawType: 'normal', userOrder: `td-bench-${i}`, memo: null, requiredApprovals: 1, policy: 'default', requestedAt: Date.now(),
          };
          const hash = intentHash(intent);
          const row = sign(trail, initiator.pair, initiator.name, 'request', hash, { intent: JSON.parse(JSON.stringify(intent)) as never, warnings: [] });
          createWithdrawalRequest(database, {
            profile: PROFILE, currency: intent.currency, amount: intent.amount, toAddress: intent.toAddress, withdrawType: 'normal', memo: null,
            userOrder: intent.userOrder, initiator: initiator.name, requiredApprovals: 1, intentJson: JSON.stringify(intent), intentHash: hash,
            fingerprint: intentFingerprint(intent), requestSeq: row.seq,
          });
          sign(trail, approver.pair, approver.name, 'approve', hash, { fingerprint: intentFingerprint(intent) });
          for (let k = 0; k < systemPerRequest; k += 1) trail.system({ profile: PROFILE, action: 'withdrawals/status', subject: intent.userOrder, details: { status: 'pendingTransfer', k } });
          lastUserOrder = intent.userOrder;
        }
      });
    }
    await trail.flush();
    const head = trail.head();
    const buildSeconds = Number(process.hrtime.bigint() - build) / 1e9;
    console.log(`desk: 50 operators, ${requests.toLocaleString('en')} requests, ${head?.seq.toLocaleString('en')} signed audit rows (built in ${buildSeconds.toFixed(1)} s)`);

    // The machine's limits.
    const sample = generateSigningKey();
    const message = Buffer.from('x'.repeat(400));
    const signature = Buffer.from(signStatementText(sample.privateKey, 'x'.repeat(400)), 'base64');
    const publicKey = (await import('node:crypto')).createPublicKey(sample.privateKey);
    const verifyStart = process.hrtime.bigint();
    let verified = 0;
    while (Number(process.hrtime.bigint() - verifyStart) < 1e9) {
      verify(null, message, publicKey, signature);
      verified += 1;
    }
    console.log(`limit: ${verified.toLocaleString('en')} Ed25519 verifications/s on one core`);

    const request = getWithdrawalRequestByUserOrder(database, lastUserOrder);
    if (!request) throw new Error('the last request is missing');
    const linkageMs = timeMs(() => trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' }), 5);
    const rosterMs = timeMs(() => trail.roster(PROFILE), 20);
    const roster = trail.roster(PROFILE);
    const walk = trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' });
    const judgeMs = timeMs(() => judgeRequest(roster, request, walk.collected, MERCHANT), 50);
    const verdict = judgeRequest(roster, request, walk.collected, MERCHANT);
    if (!verdict.verification.ok || walk.problem) throw new Error(`the bench desk does not verify: ${walk.problem?.reason ?? verdict.verification.problems.join('; ')}`);
    const rows = head?.seq ?? 0;
    console.log('\nbefore the first byte of a submission (median):');
    console.log(`  chain linkage walk, ${rows.toLocaleString('en')} rows: ${linkageMs.toFixed(0)} ms (${((rows / linkageMs) * 1000).toFixed(0)} rows/s)`);
    console.log(`  roster replay (${roster.operators().length} operators, ${trail.rosterRows(PROFILE).length} signed rows): ${rosterMs.toFixed(1)} ms`);
    console.log(`  judging the request from its statements: ${judgeMs.toFixed(2)} ms`);
    const verifyMs = await timeMsAsync(() => trail.verify(), 1);
    const rowsPerSecond = (rows / verifyMs) * 1000;
    console.log(`\naudit verify (every signature), ${rows.toLocaleString('en')} rows: ${(verifyMs / 1000).toFixed(1)} s, ${rowsPerSecond.toFixed(0)} rows/s = ${(rowsPerSecond / verified).toFixed(2)} of the Ed25519 limit`);

    const pair = generateSigningKey();
    const binding = { profile: PROFILE, operator: 'bench', keyId: pair.keyId };
    const seal = await sealPrivateKey(pair.privateKey, 'bench passphrase 1', binding);
    const unsealMs = await timeMsAsync(() => unsealPrivateKey(seal, 'bench passphrase 1', binding), 5);
    const scryptMs = await timeMsAsync(
      () => new Promise((resolve, reject) => scrypt('bench passphrase 1', randomBytes(16), 32, { N: SEAL_KDF.N, r: SEAL_KDF.r, p: SEAL_KDF.p, maxmem: 512 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)))),
      5,
    );
    console.log(`\nunsealing an operator key: ${unsealMs.toFixed(0)} ms; raw scrypt N=2^17 r=8: ${scryptMs.toFixed(0)} ms (ratio ${(unsealMs / scryptMs).toFixed(2)})`);
  } finally {
    if (db) closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
