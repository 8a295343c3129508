// Pinned trust roots (issue 18, APPROVALS.md "Pinned roots"): the desk's genesis (founding rosters, desk identity,
// enrolled workstations) as a workstation pinned it at `team init` or `team join`, its short fingerprint that people
// compare out of band, and where it is kept: this workstation's keychain (named after the chain's first row, like the
// audit anchor) with a copy in the settings that must agree with it. Invariant: once pinned, the genesis never moves
// because of anything written to a database; only the keychain holds the truth.
import { z } from 'zod';
import type { DeskSecretStore } from '../secrets';
import type { Roster } from './roster';
import { encodeCanonical, type CanonicalValue } from '../statements/canonical';
import { keyIdOf, readableFingerprint } from '../statements/keys';
import { type ReadableDB, type StoreDatabase } from '../store/database';
import { deleteSetting, getSetting, setSetting } from '../profiles';

export interface PinnedGenesis {
  readonly deskId: string;
  /** each profile founded when pinned: name, merchantId, founding id (the found subject), admins (name + keyId) */
  readonly profiles: readonly { name: string; merchantId: string | null; foundingId: string; admins: readonly { name: string; keyId: string }[] }[];
  /** the enrolled workstations: name + desk key id + public key */
  readonly workstations: readonly { name: string; keyId: string; publicKey: string }[];
  /** seq and hash of the row the genesis is taken at */
  readonly seq: number;
  readonly hash: string;
}

/** The desk-signed row `team init` writes after the genesis row: it tells joiners which row the genesis is taken at. */
export { GENESIS_ACTION } from './kinds/system';

const GENESIS_DOMAIN = 'treasury-desk/genesis/v1\n';
/** The settings copy (checked against the keychain; never trusted alone). */
export const GENESIS_SETTING = 'team.genesis';

const genesisSchema = z.strictObject({
  deskId: z.string().min(1),
  profiles: z.array(
    z.strictObject({
      name: z.string(),
      merchantId: z.string().nullable(),
      foundingId: z.string(),
      admins: z.array(z.strictObject({ name: z.string(), keyId: z.string() })),
    }),
  ),
  workstations: z.array(z.strictObject({ name: z.string(), keyId: z.string(), publicKey: z.string() })),
  seq: z.number().int().nonnegative(),
  hash: z.string(),
});

/** Short, 4 groups of 4 base32 characters (like readableFingerprint): what two people read to each other. */
export function genesisFingerprint(genesis: PinnedGenesis): string {
  return readableFingerprint(GENESIS_DOMAIN + encodeCanonical(genesis as unknown as CanonicalValue));
}

const byName = <T extends { name: string }>(a: T, b: T): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The genesis at row `seq` (hash `hash`) from what a ChainVerifier established by then: the founded rosters and the
 * workstations admins enrolled (latest key per name). Sorted, so every workstation computes the same fingerprint.
 */
export function genesisOf(
  deskId: string,
  state: { readonly rosters: ReadonlyMap<string, Roster>; readonly workstations: ReadonlyMap<string, string> },
  seq: number,
  hash: string,
): PinnedGenesis {
  const profiles: PinnedGenesis['profiles'][number][] = [];
  for (const [name, roster] of state.rosters) {
    const foundingId = roster.foundingId;
    if (foundingId === null) continue;
    const admins = roster
      .operators()
      .flatMap((operator) => (operator.history[0]?.founding === true ? [{ name: operator.name, keyId: operator.history[0].keyId }] : []))
      .sort(byName);
    profiles.push({ name, merchantId: roster.foundingMerchantId, foundingId, admins });
  }
  const workstations = [...state.workstations].map(([name, publicKey]) => ({ name, keyId: keyIdOf(publicKey), publicKey })).sort(byName);
  return { deskId, profiles: profiles.sort(byName), workstations, seq, hash };
}

/** The secret-store entry holding the genesis pinned for the chain whose first row has this hash. */
export function pinnedGenesisEntry(firstRowHash: string): string {
  return `team-genesis/${firstRowHash.slice(0, 32)}`;
}

function parseGenesis(text: string | null | undefined): PinnedGenesis | null {
  if (typeof text !== 'string') return null;
  try {
    const parsed = genesisSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Pins the genesis: the keychain first (the truth), then the settings copy. */
export async function pinGenesis(db: StoreDatabase, secrets: DeskSecretStore, firstRowHash: string, genesis: PinnedGenesis, now: number): Promise<void> {
  const text = JSON.stringify(genesis);
  await secrets.write(pinnedGenesisEntry(firstRowHash), text);
  setSetting(db, GENESIS_SETTING, text, now);
}

/** Forgets the settings copy (team leave); the keychain entry stays, so a workstation that joins again compares with it. */
export function forgetGenesisCopy(db: StoreDatabase): void {
  deleteSetting(db, GENESIS_SETTING);
}

export type PinnedRead =
  | { readonly state: 'pinned'; readonly genesis: PinnedGenesis }
  | { readonly state: 'none' }
  | { readonly state: 'problem'; readonly reason: string };

/**
 * The pinned genesis as the keychain holds it, checked against the settings copy. A copy without a keychain entry, or
 * one that differs from it, is a problem (the database was edited, or the keychain lost it): the workstation must
 * not trust the team database until a person looks.
 */
export async function readPinnedGenesis(db: ReadableDB, secrets: DeskSecretStore, firstRowHash: string): Promise<PinnedRead> {
  const copyText = getSetting(db, GENESIS_SETTING);
  const copy = parseGenesis(typeof copyText === 'string' ? copyText : null);
  let kept: PinnedGenesis | null;
  try {
    kept = parseGenesis(await secrets.read(pinnedGenesisEntry(firstRowHash)));
  } catch (error) {
    return { state: 'problem', reason: `the keychain did not answer for the pinned genesis (${error instanceof Error ? error.message : String(error)})` };
  }
  if (kept === null) {
    return copyText === undefined
      ? { state: 'none' }
      : { state: 'problem', reason: 'this workstation has a copy of a pinned genesis but its keychain holds none for this chain: the desk database was edited or moved; join again from a new data folder' };
  }
  if (copy !== null && genesisFingerprint(copy) !== genesisFingerprint(kept)) {
    return { state: 'problem', reason: `the desk database's copy of the pinned genesis (${genesisFingerprint(copy)}) is not the one pinned in the keychain (${genesisFingerprint(kept)}): the database was edited` };
  }
  return { state: 'pinned', genesis: kept };
}
