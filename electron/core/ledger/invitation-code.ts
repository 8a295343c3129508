// Invitations bound to their code (APPROVALS.md "Team desks"): an `enrol` or `rekey` proposal commits to the public
// half of an Ed25519 key derived from the one-time code (HKDF-SHA256 over the code, a domain string and the invited
// operator's name), and the `accept` carries that key's signature over the proposal id and the accepted public key.
// Invariant: only someone who holds the code can accept; the check is a pure function of the proposal and the
// accept row, so it holds the same at every workstation, on the local path and on replay.
import { createPrivateKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { CanonicalValue } from '../statements/canonical';
import { importPublicKey, publicKeyOfPrivate, signBytes, verifyBytes, type SigningKeyPair, keyIdOf } from '../statements/keys';

/** Salt of the code key's HKDF (a new version of the scheme gets a new string). */
const CODE_KEY_SALT = 'treasury-desk/invitation-code/v1';
/** What the code key signs: this prefix, the proposal id and the accepted public key, one per line. */
const CODE_PROOF_DOMAIN = 'treasury-desk/invitation-accept/v1\n';
/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The code as it was handed out, whatever its dashes and letter case when typed back. */
export function normalizeInvitationCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z2-7]/g, '');
}

/** The key pair the code stands for, for this invited operator (the same at every workstation, from the code alone). */
export function invitationCodeKey(code: string, operator: string): SigningKeyPair {
  const seed = Buffer.from(hkdfSync('sha256', Buffer.from(normalizeInvitationCode(code), 'utf8'), Buffer.from(CODE_KEY_SALT, 'utf8'), Buffer.from(operator.toLowerCase(), 'utf8'), 32));
  const privateKey: KeyObject = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  seed.fill(0);
  const publicKey = publicKeyOfPrivate(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

function proofMessage(proposalId: string, publicKey: string): string {
  return `${CODE_PROOF_DOMAIN}${proposalId}\n${publicKey}`;
}

/** The code key's signature an `accept` carries (`codeProof`). */
export function signInvitationProof(codeKey: SigningKeyPair, proposalId: string, publicKey: string): string {
  return signBytes(codeKey.privateKey, proofMessage(proposalId, publicKey));
}

/** The public key an invitation commits to, or null for an invitation made before codes were bound (a legacy one). */
export function invitationCodeCommitment(proposalBody: Readonly<Record<string, CanonicalValue>>): string | null {
  const codeKey = proposalBody['codeKey'];
  return typeof codeKey === 'string' ? codeKey : null;
}

/**
 * Why an `accept` does not prove the invitation's code, or null when it does. A legacy invitation (no `codeKey`) has
 * nothing to check here: team replay refuses accepting it (legacyInvitationProblem), a single workstation checks the
 * code's hash locally as before.
 */
export function acceptCodeProblem(proposal: { readonly id: string; readonly body: Readonly<Record<string, CanonicalValue>> }, acceptBody: Readonly<Record<string, CanonicalValue>>): string | null {
  if (!('codeKey' in proposal.body)) return null;
  const committed = invitationCodeCommitment(proposal.body);
  const key = committed === null ? null : importPublicKey(committed);
  if (key === null) return 'the invitation commits to no usable code key';
  const proof = acceptBody['codeProof'];
  const publicKey = acceptBody['publicKey'];
  if (typeof proof !== 'string' || typeof publicKey !== 'string') return 'the acceptance carries no proof of the invitation code';
  if (!verifyBytes(key, proofMessage(proposal.id, publicKey), proof)) return 'the acceptance does not prove the invitation code (signed without the code)';
  return null;
}

/** Why accepting this invitation is refused on a team desk: it was made before invitations were bound to their code. */
export function legacyInvitationProblem(proposal: { readonly body: Readonly<Record<string, CanonicalValue>>; readonly subject: string } | undefined): string | null {
  if (proposal === undefined || 'codeKey' in proposal.body) return null;
  return `the invitation for ${proposal.subject} was made before invitations were bound to their code: on a team desk it cannot be accepted; an admin invites ${proposal.subject} again`;
}
