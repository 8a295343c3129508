// `audit/pack`: the offline auditor pack of a period (docs/auditor-pack.md): one JSON document holding the period
// statement as the statement export computes it, every audit row from the first through the head (a verifier cannot
// check the linkage or replay the roster from a middle segment), the desk keys and the operators in force, a signed
// checkpoint of the head and the head's fingerprint. tools/verify-auditor-pack.mjs checks it with plain Node.
import type { AuditorPack, AuditorPackDeskKey, PeriodStatement } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import { iterateAudit, type AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';

export const AUDITOR_PACK_FORMAT = 'treasury-desk/auditor-pack';
export const AUDITOR_PACK_VERSION = 1;

/** The pack of `statement`'s period, from the chain as it stands now. */
export function buildAuditorPack(context: Kernel & AuditRecorder & ProfileSelection, statement: PeriodStatement): AuditorPack {
  const { trail } = context;
  const checkpoint = trail.checkpoint();
  const head = trail.head();
  if (checkpoint === null || head === null) throw new DeskError('conflict', 'the audit log is empty: there is nothing to pack yet');
  const deskKeys = new Map<string, AuditorPackDeskKey>([[trail.deskKeyId, { keyId: trail.deskKeyId, publicKey: trail.deskPublicKey, namedBy: null }]]);
  const chain: AuditorPack['chain'][number][] = [];
  for (const row of iterateAudit(context.db)) {
    if (row.seq > head.seq) break;
    chain.push({ seq: row.seq, statement: row.statement, signature: row.signature, hash: row.hash });
  }
  for (const named of trail.namedDeskKeys()) if (!deskKeys.has(named.keyId) && named.namedBy <= head.seq) deskKeys.set(named.keyId, named);
  const roster = trail.roster(statement.profile);
  const operators = roster.active().map(({ name, snapshot }) => ({ name, role: snapshot.role, keyId: snapshot.keyId, publicKey: snapshot.publicKey, party: [...snapshot.party] }));
  return {
    format: AUDITOR_PACK_FORMAT,
    version: AUDITOR_PACK_VERSION,
    deskId: trail.deskId,
    profile: statement.profile,
    generatedAt: context.now(),
    statement,
    chain,
    deskKeys: [...deskKeys.values()],
    operators,
    checkpoint,
    auditHead: head,
  };
}
