// Protocol benchmark: the machine's RSA private-op limit (openssl speed) against the project's decrypt path, the cost
// of re-parsing PEM per call (ARCHITECTURE rule 3), and a realistic 100-record getDeposits page inline vs the pool.
import { execFile } from 'node:child_process';
import { constants, privateDecrypt, type KeyObject } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import { promisify } from 'node:util';
import { decryptBlock, decryptBytes, encryptBytes, encryptJson } from '../../electron/protocol/cipher';
import { createCryptoPool, INLINE_MAX_BLOCKS } from '../../electron/protocol/crypto-pool';
import { inlineDecryptor, type PayloadDecryptor } from '../../electron/protocol/decryptor';
import { generateRsaKeyPair, modulusBytes, parsePrivateKey, parsePublicKey } from '../../electron/protocol/keys';
import { OAEP_HASH } from '../../electron/protocol/profile';

const OPENSSL = '/usr/bin/openssl';
const SECONDS = 3;
const PAGE_RECORDS = 100;
const PAGE_RUNS = 20;
const SMALL_RUNS = 200;
const POOL_THREADS = 2;

const TARGET_OPENSSL_RATIO = 0.95;
const TARGET_POOL_SPEEDUP = 1.8;

interface Row {
  readonly measure: string;
  readonly value: string;
  readonly target?: string;
  readonly pass?: boolean;
}

function printTable(title: string, rows: readonly Row[]): void {
  const cells = rows.map((row) => [row.measure, row.value, row.target ?? '', row.pass === undefined ? '' : row.pass ? 'PASS' : 'MISS']);
  const header = ['measure', 'value', 'target', ''];
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (cell: readonly string[]): string =>
    cell.map((text, column) => (column === 1 ? text.padStart(widths[column]!) : text.padEnd(widths[column]!))).join('  ').trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const cell of cells) console.log(line(cell));
}

const format = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Throughput {
  /** Operations per wall-clock second. */
  readonly wall: number;
  /** Operations per second of user CPU time: how `openssl speed` counts (without -elapsed), so robust to a busy machine. */
  readonly cpu: number;
}

/** Runs `operation` repeatedly for about `seconds` on this thread. */
function throughput(operation: () => void, seconds: number): Throughput {
  for (let i = 0; i < 20; i += 1) operation();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  let count = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 25; i += 1) operation();
    count += 25;
    now = performance.now();
  }
  const userSeconds = process.cpuUsage(cpuStart).user / 1e6;
  return { wall: count / ((now - start) / 1000), cpu: count / userSeconds };
}

/** `openssl speed -seconds 3 rsa2048`, parsed: the private-key (sign) operations per second. */
async function opensslSignsPerSecond(): Promise<{ signsPerSecond: number; version: string }> {
  const { stdout: version } = await promisify(execFile)(OPENSSL, ['version']);
  const { stdout } = await promisify(execFile)(OPENSSL, ['speed', '-seconds', String(SECONDS), 'rsa2048'], { timeout: 120_000 });
  return { signsPerSecond: parseOpensslSpeed(stdout), version: version.trim().split(/\s+/).slice(0, 2).join(' ') };
}

/**
 * `openssl speed -elapsed [-multi N] rsa2048`: private-key operations per wall-clock second with N processes at once.
 * Its ratio for 2 and 1 is how these cores scale on pure RSA work (two vCPUs may share a physical core), the ceiling
 * of the pool's speed-up measured the same way.
 */
async function opensslWallSignsPerSecond(processes: number): Promise<number> {
  const multi = processes > 1 ? ['-multi', String(processes)] : [];
  const { stdout } = await promisify(execFile)(OPENSSL, ['speed', '-elapsed', ...multi, '-seconds', String(SECONDS), 'rsa2048'], { timeout: 120_000 });
  return parseOpensslSpeed(stdout);
}

/** Reads the sign/s column of the `rsa 2048 bits` row (OpenSSL 3.0 to 3.5 layouts: columns are matched by header). */
export function parseOpensslSpeed(output: string): number {
  const lines = output.split('\n');
  const header = lines.find((line) => /\bsign\/s\b/.test(line));
  const row = lines.find((line) => /^\s*rsa\s*2048\s+bits\s/.test(line));
  if (!header || !row) throw new Error(`unexpected "openssl speed" output:\n${output}`);
  const columns = header.trim().split(/\s+/);
  const values = row.replace(/^\s*rsa\s*2048\s+bits\s+/, '').trim().split(/\s+/);
  const index = columns.indexOf('sign/s');
  const value = Number(values[index]);
  if (columns.length !== values.length || index < 0 || !Number.isFinite(value) || value <= 0) {
    throw new Error(`cannot read sign/s from "openssl speed" output:\n${header}\n${row}`);
  }
  return value;
}

/** Deterministic pseudo-random source (mulberry32), so every run builds the same page. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = '0123456789abcdef';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

interface ChainShape {
  readonly currency: string;
  readonly addressType: string;
  readonly decimals: number;
  readonly share: number;
  readonly address: (pick: (alphabet: string, length: number) => string) => string;
  readonly txid: (pick: (alphabet: string, length: number) => string) => string;
}

/** Currencies in a plausible merchant mix, with each chain's real address and transaction-hash shapes. */
const CHAINS: readonly ChainShape[] = [
  { currency: 'trx.usdt', addressType: 'trx', decimals: 6, share: 0.55, address: (p) => `T${p(BASE58, 33)}`, txid: (p) => p(HEX, 64) },
  { currency: 'trx', addressType: 'trx', decimals: 6, share: 0.1, address: (p) => `T${p(BASE58, 33)}`, txid: (p) => p(HEX, 64) },
  { currency: 'eth.usdt', addressType: 'eth_bnb', decimals: 6, share: 0.1, address: (p) => `0x${p(HEX, 40)}`, txid: (p) => `0x${p(HEX, 64)}` },
  { currency: 'bnb.usdt', addressType: 'eth_bnb', decimals: 18, share: 0.1, address: (p) => `0x${p(HEX, 40)}`, txid: (p) => `0x${p(HEX, 64)}` },
  { currency: 'solana.usdt', addressType: 'solana', decimals: 6, share: 0.1, address: (p) => p(BASE58, 44), txid: (p) => p(BASE58, 88) },
  { currency: 'ton.usdt', addressType: 'ton', decimals: 6, share: 0.05, address: (p) => `UQ${p(BASE64URL, 46)}`, txid: (p) => p(HEX, 64) },
];

/** A page of deposit records as getDeposits returns it (spec "Deposit record"; §9 amounts as decimal strings). */
export function depositPage(count: number, seed = 20261122): Array<Record<string, string>> {
  const random = seeded(seed);
  const pick = (alphabet: string, length: number): string =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const decimal = (whole: number, decimals: number): string => {
    const fraction = pick('0123456789', decimals).replace(/0+$/, '');
    return fraction ? `${whole}.${fraction}` : String(whole);
  };
  return Array.from({ length: count }, (_, index) => {
    let roll = random();
    const chain = CHAINS.find((candidate) => (roll -= candidate.share) < 0) ?? CHAINS[0]!;
    const whole = Math.floor(random() ** 3 * 20_000) + 1;
    return {
      businessType: 'deposit',
      txid: chain.txid(pick),
      address: chain.address(pick),
      addressType: chain.addressType,
      fromAddress: chain.address(pick),
      amount: decimal(whole, chain.decimals),
      currency: chain.currency,
      fee: decimal(Math.floor(whole / 200), Math.min(chain.decimals, 6)),
      apiOrder: `DP2026${pick('0123456789', 18)}`,
      userOrder: `cust_${String(100_000 + index)}_${chain.addressType}`,
    };
  });
}

/** Busy and total core time of the whole machine so far, in ms (os.cpus(): Linux, macOS and Windows). */
function machineTimes(): { busy: number; all: number } {
  return cpus().reduce(
    (sum, { times }) => {
      const busy = times.user + times.nice + times.sys + times.irq;
      return { busy: sum.busy + busy, all: sum.all + busy + times.idle };
    },
    { busy: 0, all: 0 },
  );
}

/** Share of all cores' time spent idle over the next `ms` milliseconds (other work on the machine skews wall clocks). */
async function idleShare(ms: number): Promise<number> {
  const before = machineTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineTimes();
  return after.all > before.all ? 1 - (after.busy - before.busy) / (after.all - before.all) : 1;
}

/**
 * Runs `operation` while accounting for the machine: returns its wall time and the core time that OTHER processes
 * used meanwhile (machine busy time minus this process's CPU time, workers included).
 */
async function withOthersShare(operation: () => Promise<unknown>): Promise<{ wallMs: number; othersMs: number }> {
  const machine = machineTimes();
  const own = process.cpuUsage();
  const start = performance.now();
  await operation();
  const wallMs = performance.now() - start;
  const ownUsage = process.cpuUsage(own);
  const busyMs = machineTimes().busy - machine.busy;
  return { wallMs, othersMs: Math.max(0, busyMs - (ownUsage.user + ownUsage.system) / 1000) };
}

async function timeDecrypt(decryptor: PayloadDecryptor, base64: string): Promise<number> {
  const start = performance.now();
  await decryptor.decrypt(base64);
  return performance.now() - start;
}

export async function run(args: readonly string[]): Promise<void> {
  if (args.length > 0) throw new Error(`the protocol benchmark takes no arguments (got: ${args.join(' ')})`);
  const pair = generateRsaKeyPair(2048);
  const privateKey: KeyObject = parsePrivateKey(pair.privateKeyPem);
  const publicKey = parsePublicKey(pair.publicKeyPem);
  const block = Buffer.from(encryptBytes(Buffer.from('{"token":"bench"}'), publicKey), 'base64');
  if (block.length !== modulusBytes(privateKey)) throw new Error('expected a one-block ciphertext');

  console.log(`protocol benchmark: RSA-2048, OAEP SHA-1; node ${process.version} (OpenSSL ${process.versions.openssl}); ${availableParallelism()} cores`);
  const idle = await idleShare(1000);
  console.log(`cores idle during the second before start: ${format(idle * 100)} %`);
  if (idle < 0.9) console.log('note: other work competes for the cores: wall-clock figures (the pool speed-up) will be low');
  console.log(`running openssl speed for ${SECONDS} s per operation ...`);
  const openssl = await opensslSignsPerSecond();

  console.log(`private-key decrypt, reused KeyObject, ${SECONDS} s ...`);
  const keyObject = throughput(() => decryptBlock(block, privateKey), SECONDS);
  console.log(`private-key decrypt, PEM string per call, ${SECONDS} s ...`);
  const pemOptions = { key: pair.privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: OAEP_HASH };
  const pem = throughput(() => privateDecrypt(pemOptions, block), SECONDS);

  const keyRatio = keyObject.cpu / openssl.signsPerSecond;
  printTable('RSA-2048 private-key operations, one thread (per second of user CPU time, as openssl speed counts)', [
    { measure: `openssl speed rsa2048 sign/s (${openssl.version})`, value: format(openssl.signsPerSecond, 1) },
    { measure: '  = one private operation', value: `${format(1000 / openssl.signsPerSecond, 3)} ms` },
    { measure: 'decryptBlock, reused KeyObject, ops/s', value: format(keyObject.cpu, 1) },
    { measure: '  ratio to openssl', value: format(keyRatio, 2), target: `>= ${TARGET_OPENSSL_RATIO}`, pass: keyRatio >= TARGET_OPENSSL_RATIO },
    { measure: '  (per wall-clock second)', value: format(keyObject.wall, 1) },
    { measure: 'privateDecrypt, PEM string per call, ops/s', value: format(pem.cpu, 1) },
    { measure: '  ratio to openssl (rule 3: parse keys once)', value: format(pem.cpu / openssl.signsPerSecond, 2) },
    { measure: '  (per wall-clock second)', value: format(pem.wall, 1) },
  ]);

  // A realistic getDeposits page: `data` is the whole array as JSON, encrypted per §2.
  const page = depositPage(PAGE_RECORDS);
  const json = JSON.stringify(page);
  const ciphertext = encryptJson(page, publicKey);
  const blocks = Buffer.from(ciphertext, 'base64').length / modulusBytes(privateKey);
  if (!decryptBytes(ciphertext, privateKey).equals(Buffer.from(json, 'utf8'))) throw new Error('the page did not round-trip');

  const inline = inlineDecryptor(privateKey);
  const pool = createCryptoPool({ privateKey, threads: POOL_THREADS });
  try {
    console.log(`\ndecrypting the ${PAGE_RECORDS}-record page ${PAGE_RUNS} times inline and on ${POOL_THREADS} threads ...`);
    const pooled = await pool.decrypt(ciphertext);
    if (!pooled.equals(Buffer.from(json, 'utf8'))) throw new Error('the pool decrypted the page wrongly');
    await timeDecrypt(inline, ciphertext);
    const inlineMs: number[] = [];
    const poolMs: number[] = [];
    let othersMs = 0;
    for (let i = 0; i < PAGE_RUNS; i += 1) {
      inlineMs.push(await timeDecrypt(inline, ciphertext));
      const pooledRun = await withOthersShare(() => pool.decrypt(ciphertext));
      poolMs.push(pooledRun.wallMs);
      othersMs += pooledRun.othersMs;
    }
    const othersShare = othersMs / (poolMs.reduce((sum, ms) => sum + ms, 0) * availableParallelism());
    const speedup = median(inlineMs) / median(poolMs);
    console.log(`running openssl speed -elapsed on 1 and on ${POOL_THREADS} processes for ${SECONDS} s each ...`);
    const coreScaling = (await opensslWallSignsPerSecond(POOL_THREADS)) / (await opensslWallSignsPerSecond(1));
    printTable(`getDeposits page of ${PAGE_RECORDS} records (median of ${PAGE_RUNS} runs)`, [
      { measure: 'plaintext JSON', value: `${format(Buffer.byteLength(json))} B` },
      { measure: 'ciphertext (base64 `data`)', value: `${format(ciphertext.length)} B` },
      { measure: 'OAEP blocks', value: format(blocks) },
      { measure: 'decrypt inline, one thread', value: `${format(median(inlineMs), 1)} ms` },
      { measure: `decrypt on the pool, ${POOL_THREADS} threads`, value: `${format(median(poolMs), 1)} ms` },
      { measure: '  speed-up', value: `${format(speedup, 2)}x`, target: `>= ${TARGET_POOL_SPEEDUP}x`, pass: speedup >= TARGET_POOL_SPEEDUP },
      { measure: '  deposits per second on the pool', value: format((PAGE_RECORDS * 1000) / median(poolMs)) },
      { measure: 'fastest run inline / on the pool', value: `${format(Math.min(...inlineMs), 1)} / ${format(Math.min(...poolMs), 1)} ms` },
      { measure: '  speed-up of the fastest runs (less noise)', value: `${format(Math.min(...inlineMs) / Math.min(...poolMs), 2)}x` },
      { measure: 'cores used by other processes during the pool runs', value: `${format(othersShare * 100)} %` },
      { measure: `openssl on ${POOL_THREADS} processes / on 1, wall clock (the cores' own scaling)`, value: `${format(coreScaling, 2)}x` },
      { measure: '  pool speed-up / that scaling', value: format(speedup / coreScaling, 2) },
    ]);
  } finally {
    await pool.close();
  }

  // Small payloads: where the round trip to a worker stops paying off (INLINE_MAX_BLOCKS).
  const eager = createCryptoPool({ privateKey, threads: POOL_THREADS, inlineMaxBlocks: 0 });
  try {
    console.log(`\ntiming 1-6 block payloads ${SMALL_RUNS} times inline and on ${POOL_THREADS} threads ...`);
    const rows: Row[] = [];
    for (let count = 1; count <= 6; count += 1) {
      const payload = encryptBytes(Buffer.alloc(count * (modulusBytes(privateKey) - 42) - 10, 0x41), publicKey);
      const inlineMs: number[] = [];
      const poolMs: number[] = [];
      for (let i = 0; i < 10; i += 1) await timeDecrypt(eager, payload);
      for (let i = 0; i < SMALL_RUNS; i += 1) {
        inlineMs.push(await timeDecrypt(inline, payload));
        poolMs.push(await timeDecrypt(eager, payload));
      }
      rows.push({
        measure: `${count} block${count > 1 ? 's' : ''}: inline / pool median, ms${count <= INLINE_MAX_BLOCKS ? '  (inline by default)' : ''}`,
        value: `${format(median(inlineMs), 2)} / ${format(median(poolMs), 2)}`,
      });
    }
    printTable(`Small payloads (INLINE_MAX_BLOCKS = ${INLINE_MAX_BLOCKS}; inline blocks the calling thread for its whole time)`, rows);
  } finally {
    await eager.close();
  }
}
