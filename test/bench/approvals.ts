// Benchmark of provable approvals at scale: a desk with 50 operators and an audit log of 100,000 signed rows (10,000
// requests, each requested and approved, and system rows between them). Reports what submission adds before the first
// byte is sent (chain linkage walk, roster replay, judging one request), a full `audit verify`, and unsealing an
// operator key, each next to this machine's limit (Ed25519 verifications/s, raw scrypt time).
import { randomBytes, scrypt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { SEAL_KDF, sealPrivateKey, unsealPrivateKey } from '../../electron/core/operators/sealed-key';
import { generateSigningKey } from '../../electron/core/statements/keys';
import { closeDatabase } from '../../electron/core/store/database';
import { getWithdrawalRequestByUserOrder } from '../../electron/core/withdrawals/withdrawals-table';
import { judgeRequest } from '../../electron/core/withdrawals/verify';
import { runVelocity } from './approvals-velocity';
import { buildBenchDesk, ed25519Limit, MERCHANT, PROFILE } from './bench-desk';

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

/** `approvals [REQUESTS]` then the windows at 100,000 intents; `approvals --velocity [INTENTS]`: the windows only. */
export async function run(args: readonly string[]): Promise<void> {
  const velocityIntents = (text: string | undefined): number => {
    const count = Number(text ?? 100_000);
    if (!Number.isInteger(count) || count < 1) throw new Error(`--velocity takes a whole number of intents, e.g. --velocity 20000; got ${text}`);
    return count;
  };
  // The 5 ms p95 is a target (reported), not a gate.
  if (args[0] === '--velocity') {
    await runVelocity(velocityIntents(args[1]));
    return;
  }
  await runAudit(Number(args[0] ?? 10_000));
  await runVelocity(100_000);
}

async function runAudit(requests: number): Promise<void> {
  const { dir, db, trail, lastUserOrder } = await buildBenchDesk(requests);
  const database = db;
  try {
    const head = trail.head();
    const verified = ed25519Limit();
    console.log(`limit: ${verified.toLocaleString('en')} Ed25519 verifications/s on one core`);

    const request = getWithdrawalRequestByUserOrder(database, lastUserOrder);
    if (!request) throw new Error('the last request is missing');
    const linkageMs = timeMs(() => trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' }), 5);
    const rosterMs = timeMs(() => trail.roster(PROFILE), 20);
    const roster = trail.roster(PROFILE);
    const walk = trail.linkage({ profile: PROFILE, subject: request.intentHash ?? '' });
    const judgeMs = timeMs(() => judgeRequest(roster, request, walk.collected, MERCHANT, Date.now()), 50);
    const verdict = judgeRequest(roster, request, walk.collected, MERCHANT, Date.now());
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
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}
