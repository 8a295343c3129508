// What the pinned trust roots (trust-roots.ts) require of the rows after the pin, at every workstation, on replay and
// locally (called from ChainVerifier and the founding path; the lead moves the calls into ledger/registry.ts): a
// `found` row stands only with a profile addition in force that names exactly its merchant ID and founders' keys, and
// desk keys are trusted only from the genesis or an admin's verified `team/workstation` enrolment. Invariant: after
// the pin, no row adds a trust root by itself.
import type { ProfileAddition, Roster } from './roster';
import type { Statement } from '../statements/statement';
import type { DeskKeyInForce } from './registry';
import type { PinnedGenesis } from './trust-roots';

const lower = (name: string): string => name.toLowerCase();

/** The founding admins a `found` body names (name + public key), or null when malformed (the roster refuses it then). */
function foundAdmins(statement: Statement): { name: string; publicKey: string }[] | null {
  const admins = statement.body['admins'];
  if (!Array.isArray(admins)) return null;
  const out: { name: string; publicKey: string }[] = [];
  for (const admin of admins) {
    if (admin === null || typeof admin !== 'object' || Array.isArray(admin)) return null;
    const { name, publicKey } = admin as Record<string, unknown>;
    if (typeof name !== 'string' || typeof publicKey !== 'string') return null;
    out.push({ name, publicKey });
  }
  return out;
}

function sameFounders(addition: ProfileAddition, admins: readonly { name: string; publicKey: string }[]): boolean {
  const key = (admin: { name: string; publicKey: string }): string => `${lower(admin.name)}\n${admin.publicKey}`;
  const wanted = new Set(addition.admins.map(key));
  return admins.length === wanted.size && admins.every((admin) => wanted.has(key(admin)));
}

/**
 * A `found` row after the pin: the id of the profile addition in force (in any roster anchored in the pinned roots,
 * not yet used by another founding) that names this profile, its merchant ID and exactly its founders' keys; or why
 * the row may not stand.
 */
export function foundingAfterPin(
  statement: Statement,
  rosters: ReadonlyMap<string, Roster>,
  used: ReadonlySet<string>,
  genesis: PinnedGenesis,
): { readonly addition: string } | { readonly refusal: string } {
  const profile = statement.profile ?? '';
  const admins = foundAdmins(statement);
  const merchantId = statement.body['merchantId'];
  for (const roster of rosters.values()) {
    for (const addition of roster.profileAdditions()) {
      if (used.has(addition.id) || addition.profile !== profile) continue;
      if (addition.merchantId === merchantId && admins !== null && sameFounders(addition, admins)) return { addition: addition.id };
    }
  }
  const pinned = genesis.profiles.some((entry) => entry.name === profile);
  return {
    refusal:
      `profile ${profile} is ${pinned ? 'founded again' : 'founded'} after the desk's pinned genesis (row ${genesis.seq}) without a profile addition in force ` +
      'naming its merchant ID and founders: a profile is added with "profile propose-add", signed by an admin of a pinned profile and confirmed by a second independent admin',
  };
}

/** The desk keys trusted after the pin: this workstation's own and the genesis workstations' (keyId → public key). */
export function pinnedDeskKeys(genesis: PinnedGenesis, own: { keyId: string; publicKey: string }): Map<string, DeskKeyInForce> {
  return new Map<string, DeskKeyInForce>([
    ...genesis.workstations.map((workstation): [string, DeskKeyInForce] => [workstation.keyId, { publicKey: workstation.publicKey, workstation: workstation.name, own: workstation.keyId === own.keyId }]),
    [own.keyId, { publicKey: own.publicKey, workstation: genesis.workstations.find((workstation) => workstation.keyId === own.keyId)?.name ?? null, own: true }],
  ]);
}
