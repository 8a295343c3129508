// Who signed a row, checked the one way for every kind (registry.ts): an operator against the roster as it stood just
// before the row (enrolled, this key or a device key of theirs, the signature, active unless the kind allows a disabled operator), or a desk key
// the chain holds in force. The reasons keep the words `audit verify` has always used for these refusals.
import { importPublicKey } from '../statements/keys';
import { signatureHolds } from '../statements/verified-signatures';
import type { ChainRow } from './roster';
import { snapshotKey } from './operator-keys';
import type { ChainStanding, SignerRule } from './kind';

/** Why the row is not signed as its kind's operator rule wants, or null. */
export function operatorSignerProblem(row: ChainRow, standing: ChainStanding, rule: Exclude<SignerRule, 'desk'>): string | null {
  const s = row.statement;
  const operator = s.operator;
  if (operator === null) return `row ${row.seq} (${s.kind}) is signed by desk key ${s.keyId}: only an operator signs ${s.kind} statements, a desk key never vouches for one`;
  // The roster's own rule checks who signs its kinds (a founder, an invitee with their new key).
  if (rule === 'roster') return null;
  const snapshot = standing.roster().at(operator, row.seq);
  if (!snapshot) return `row ${row.seq} is signed as ${operator}, who was not enrolled then: signed by no enrolled key`;
  // Their enrolled key or one of their device keys in force (operator-keys.ts snapshotKey).
  const signingKey = snapshotKey(snapshot, s.keyId);
  if (signingKey === null) return `row ${row.seq} is signed with key ${s.keyId}, not ${operator}'s key ${snapshot.keyId}`;
  if (!signatureHolds(signingKey, row)) return `row ${row.seq}'s signature does not verify with ${operator}'s key: it was altered`;
  if (rule === 'activeOperator' && snapshot.status !== 'active') return `row ${row.seq} is signed by ${operator} after they were disabled`;
  return null;
}

/** Why the row is not signed by a desk key in force, or null. */
export function deskSignerProblem(row: ChainRow, standing: ChainStanding): string | null {
  const s = row.statement;
  if (s.operator !== null) return `row ${row.seq} (${s.kind}) is signed as ${s.operator}: desk events are signed by a workstation's desk key`;
  const known = standing.deskKey(s.keyId);
  if (known === undefined || importPublicKey(known.publicKey) === null) {
    return standing.afterPin
      ? `row ${row.seq} is signed by desk key ${s.keyId}, which is neither in the desk's pinned genesis nor enrolled by an admin's team/workstation statement since`
      : `row ${row.seq} is signed by key ${s.keyId}, which is neither this desk's key nor one its founders named (nor a team workstation an admin enrolled)`;
  }
  if (!signatureHolds(known.publicKey, row)) return `row ${row.seq}'s signature does not verify: it was altered`;
  return null;
}
