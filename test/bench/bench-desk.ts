// Benchmark support: a desk with 50 operators and a long signed audit log (each request requested and approved, and
// system rows between them), built the way the engine appends rows, and this machine's Ed25519 verification limit.
// Used by the approvals bench (what submission verifies) and the team bench (the registry over a shared chain).
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTrail, toSignable } from '../../electron/core/audit/trail';
import { DeskIdentity, fileDeskSecrets } from '../../electron/core/audit/desk-identity';
import { generateSigningKey, type SigningKeyPair } from '../../electron/core/statements/keys';
import { intentFingerprint, intentHash, type WithdrawalIntent } from '../../electron/core/statements/intent';
import { canonicalHash, signStatementText, type StatementBody } from '../../electron/core/statements/statement';
import { openDatabase, writeTransaction, type StoreDatabase } from '../../electron/core/store/database';
import { createProfile } from '../../electron/core/profiles/profiles-table';
import { createWithdrawalRequest } from '../../electron/core/withdrawals/withdrawals-table';
import type { WithdrawalPolicy } from '../../electron/core/withdrawals/policy';

export const PROFILE = 'bench';
export const MERCHANT = 'M-BENCH';

function sign(trail: AuditTrail, pair: SigningKeyPair, name: string, kind: Parameters<AuditTrail['append']>[0]['kind'], subject: string, body: StatementBody) {
  return trail.append({ kind, profile: PROFILE, subject, body, operator: name, keyId: pair.keyId }, (text) => signStatementText(pair.privateKey, text));
}

export interface BenchDesk {
  readonly dir: string;
  readonly db: StoreDatabase;
  readonly trail: AuditTrail;
  /** The userOrder of the last request made while building. */
  readonly lastUserOrder: string;
  /** Signs one more request (and its approval) in its own transaction, as the engine appends them. */
  readonly appendRequest: () => void;
}

/**
 * A desk in a new temporary folder (the caller removes `dir`): 50 operators, `requests` requests, `systemPerRequest`
 * system rows each. With `policy`, the founders then put 5 approval groups of 10 operators and that trx.usdt policy in
 * force (proposed by one, confirmed by the other) before the requests.
 */
export async function buildBenchDesk(requests: number, systemPerRequest = 8, policy?: (groups: readonly string[]) => WithdrawalPolicy): Promise<BenchDesk> {
  const dir = mkdtempSync(join(tmpdir(), 'td-bench-desk-'));
  const db = openDatabase(join(dir, 'desk.sqlite'), { integrityCheck: 'none' });
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
  if (policy) {
    writeTransaction(database, () => {
      // Groups 0-3: six approvers each (every approver in one) and four initiators; group 4: ten other initiators.
      const approverNames = operators.filter((_, index) => index % 2 === 1).map((operator) => operator.name);
      const initiatorNames = operators.filter((_, index) => index % 2 === 0).map((operator) => operator.name);
      const groups = [0, 1, 2, 3, 4].map((k) => `group-${k}`);
      const membersOf = (k: number): string[] =>
        k < 4 ? [...approverNames.filter((_, index) => index % 4 === k), ...initiatorNames.slice(k * 2, k * 2 + 4)] : initiatorNames.slice(14, 24);
      const fourEyes = (kind: 'group' | 'policy', subject: string, statementBody: StatementBody): void => {
        const proposal = sign(trail, admins[0], 'a1', kind, subject, statementBody);
        sign(trail, admins[1], 'a2', 'confirm', subject, { proposal: proposal.hash });
      };
      groups.forEach((group, k) => fourEyes('group', group, { members: membersOf(k) }));
      fourEyes('policy', 'trx.usdt', { policy: toSignable(policy(groups)) as never });
    });
  }
  const initiators = operators.filter((_, index) => index % 2 === 0);
  const approvers = operators.filter((_, index) => index % 2 === 1);
  let made = 0;
  let lastUserOrder = '';
  /** One request signed by the next initiator and approved by the next approver, with its system rows. */
  const appendRequest = (): void => {
    const i = made;
    made += 1;
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
  };
  for (let start = 0; start < requests; start += 500) {
    writeTransaction(database, () => {
      for (let i = start; i < Math.min(requests, start + 500); i += 1) appendRequest();
    });
  }
  await trail.flush();
  const head = trail.head();
  const buildSeconds = Number(process.hrtime.bigint() - build) / 1e9;
  console.log(`desk: 50 operators, ${requests.toLocaleString('en')} requests, ${head?.seq.toLocaleString('en')} signed audit rows (built in ${buildSeconds.toFixed(1)} s)`);
  return { dir, db, trail, lastUserOrder, appendRequest: () => writeTransaction(database, appendRequest) };
}

/** Ed25519 verifications per second on one core here (a 400-byte message, a reused key): the limit a verifier is held to. */
export function ed25519Limit(): number {
  const sample = generateSigningKey();
  const message = Buffer.from('x'.repeat(400));
  const signature = Buffer.from(signStatementText(sample.privateKey, 'x'.repeat(400)), 'base64');
  const publicKey = createPublicKey(sample.privateKey);
  const verifyStart = process.hrtime.bigint();
  let verified = 0;
  while (Number(process.hrtime.bigint() - verifyStart) < 1e9) {
    verify(null, message, publicKey, signature);
    verified += 1;
  }
  return verified;
}
