// Merchant profiles: the four credentials in the OS keychain (never SQLite), the non-secret facts in the store.
// Import from a credentials.json or typed values; a generated key waits in the keychain until the platform
// issues the other three values; removing a profile removes its keychain entries.
import type { GeneratedMerchantKey, ProfileSummary } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import {
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  type Profile,
  type ProfileSelection,
  type ProfileSwitch,
  setSetting,
  SETTING_KEYS,
  updateProfile,
} from '../profiles';
import type { MerchantConnection } from '../connection';
import {
  generateMerchantKeyPair,
  type KeychainAccess,
  type MerchantCredentialsText,
  readCredentialsFile,
} from '../secrets';
import { DeskError } from '../kernel/errors';
import { actingAs, deleteOperatorRecords, type OperatorCredentials, requireRemovalInForce } from '../operators';
import { PROFILE_REMOVED } from '../ledger';
import { deleteNotificationPreferences } from '../notifications';
import { DEFAULT_CALLBACK_HOST, DEFAULT_CALLBACK_PORT } from '../callbacks';

/** The parts of the desk this file's functions use (each its module's interface, built by that module; the engine passes them together: engine.ts deskParts). */
type DeskParts = Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess;

export interface ProfileCredentialsInput {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: string;
  /** Omitted: use the key generated on this desk for the profile. */
  readonly merchantPrivateKey?: string | undefined;
}

export async function profileSummary(context: DeskParts, profile: Profile): Promise<ProfileSummary> {
  const active = context.activeProfileName() === profile.name;
  let credentialSource: ProfileSummary['credentialSource'] = 'missing';
  let fingerprints: { platform: string | null; merchant: string | null } = { platform: null, merchant: null };
  try {
    const keys = context.usesCredentialsFile && active ? await context.keys() : await context.vault.load(profile.name);
    credentialSource = context.usesCredentialsFile && active ? 'file' : 'keychain';
    const described = keys.describe();
    fingerprints = { platform: described.platformPublicKeyFingerprint, merchant: described.merchantPublicKeyFingerprint };
  } catch {
    // missing or unreadable credentials are shown as 'missing'; the details come from the operation that needs them
  }
  return {
    name: profile.name,
    baseUrl: profile.baseUrl,
    merchantId: profile.merchantId,
    isDemo: profile.demo,
    active,
    credentialSource,
    platformKeyFingerprint: fingerprints.platform,
    merchantKeyFingerprint: fingerprints.merchant,
    callbackListener: {
      host: profile.callbackHost ?? DEFAULT_CALLBACK_HOST,
      port: profile.callbackPort ?? DEFAULT_CALLBACK_PORT,
      enabled: profile.callbackPort !== null,
    },
    founded: context.trail.roster(profile.name).founded,
  };
}

export async function listProfileSummaries(context: DeskParts): Promise<ProfileSummary[]> {
  return Promise.all(listProfiles(context.db).map((profile) => profileSummary(context, profile)));
}

function refuseInFileMode(context: DeskParts): void {
  if (context.usesCredentialsFile) {
    throw new DeskError('invalidInput', 'this run uses --credentials FILE: profiles in the keychain are managed without it');
  }
}

/** Stores the credentials in the keychain, then the profile row; either both or neither. */
/** The name of demo mode's profile: kept for it, so a real merchant's profile can never be taken for (or replaced by) the demo. */
export const DEMO_PROFILE_NAME = 'demo';

/** Why a real profile may not have this name (any case of "demo"), or null. */
function reservedNameProblem(name: string): string | null {
  return name.trim().toLowerCase() === DEMO_PROFILE_NAME
    ? `the profile name "${name}" is kept for demo mode (its sandbox's profile): choose another name for a real merchant`
    : null;
}

export async function addProfile(
  context: DeskParts,
  name: string,
  input: ProfileCredentialsInput,
  options: { readonly demo?: boolean; readonly replace?: boolean } = {},
): Promise<ProfileSummary> {
  refuseInFileMode(context);
  const reserved = options.demo === true ? null : reservedNameProblem(name);
  if (reserved) throw new DeskError('invalidInput', reserved, { name: reserved });
  let merchantPrivateKey = input.merchantPrivateKey;
  let usedPendingKey = false;
  if (merchantPrivateKey === undefined) {
    const pending = await context.vault.loadPendingPrivateKey(name);
    if (pending === null) {
      throw new DeskError('invalidInput', `no merchant private key was given and none was generated for profile ${name}`, {
        merchantPrivateKey: 'give the key, or generate one for this profile first',
      });
    }
    merchantPrivateKey = pending;
    usedPendingKey = true;
  }
  const text: MerchantCredentialsText = { merchantId: input.merchantId, secret: input.secret, platformPublicKey: input.platformPublicKey, merchantPrivateKey };
  const described = await context.vault.save(name, text, { replace: options.replace === true });
  try {
    const existing = getProfile(context.db, name);
    if (existing) updateProfile(context.db, name, { baseUrl: input.baseUrl, merchantId: input.merchantId, demo: options.demo === true }, context.now());
    else createProfile(context.db, { name, baseUrl: input.baseUrl, merchantId: input.merchantId, demo: options.demo === true }, context.now());
  } catch (error) {
    if (!options.replace) await context.vault.remove(name);
    throw error;
  }
  if (usedPendingKey) await context.vault.removePendingPrivateKey(name);
  if (context.activeProfileName() === undefined || context.activeProfileName() === name) {
    setSetting(context.db, SETTING_KEYS.activeProfile, name, context.now());
    await context.selectProfile(name);
  }
  context.audit({
    profile: name,
    action: 'profiles/add',
    subject: name,
    details: {
      baseUrl: input.baseUrl,
      merchantId: described.merchantId,
      platformKey: described.platformPublicKeyFingerprint,
      merchantKey: described.merchantPublicKeyFingerprint,
    },
  });
  const profile = getProfile(context.db, name);
  if (!profile) throw new DeskError('internal', `profile ${name} was not stored`);
  return profileSummary(context, profile);
}

export async function importProfileFile(context: DeskParts, name: string, path: string): Promise<{ summary: ProfileSummary; warnings: readonly string[] }> {
  const contents = await readCredentialsFile(path);
  const summary = await addProfile(context, name, { baseUrl: contents.baseUrl, ...contents.credentials });
  return { summary, warnings: contents.warnings };
}

export async function generateProfileKey(context: DeskParts, name: string): Promise<GeneratedMerchantKey> {
  refuseInFileMode(context);
  const reserved = reservedNameProblem(name);
  if (reserved) throw new DeskError('invalidInput', reserved, { name: reserved });
  if (await context.vault.has(name)) throw new DeskError('conflict', `profile ${name} already has credentials; remove it first to start over`);
  const pair = generateMerchantKeyPair();
  await context.vault.savePendingPrivateKey(name, pair.privateKeyPem);
  context.audit({ action: 'profiles/generateKey', subject: name, details: { fingerprint: pair.describe().publicKeyFingerprint } });
  return { publicKeyPem: pair.publicKeyPem, fingerprint: pair.describe().publicKeyFingerprint };
}

export async function selectProfile(context: DeskParts, name: string): Promise<ProfileSummary> {
  refuseInFileMode(context);
  const profile = getProfile(context.db, name);
  if (!profile) throw new DeskError('notFound', `no profile named ${name}`);
  setSetting(context.db, SETTING_KEYS.activeProfile, name, context.now());
  await context.selectProfile(name);
  return profileSummary(context, profile);
}

/**
 * Removes a profile: its keychain entries, its operators and their sealed keys (its roster ends with a desk-signed
 * row, so a profile imported again under the name starts unfounded), and its row when no history refers to it.
 * A founded profile needs one of its own admins.
 */
export async function removeProfile(context: DeskParts, name: string, acting: OperatorCredentials | undefined): Promise<{ removed: string }> {
  refuseInFileMode(context);
  if (!getProfile(context.db, name)) throw new DeskError('notFound', `no profile named ${name}`);
  requireRemovalInForce(context, name);
  let operator: string | null = null;
  if (context.trail.roster(name).founded) {
    if (!acting) throw new DeskError('forbidden', `removing profile ${name} needs one of its admins: give --as ADMIN`);
    operator = (await actingAs(context, acting, 'manageProfiles', name)).name;
  }
  const removed = await context.vault.remove(name);
  await context.vault.removePendingPrivateKey(name);
  let historyKept = false;
  context.trail.transaction(() => {
    deleteOperatorRecords(context.db, name);
    // Preferences belong to the operators: a profile imported again under this name starts with new ones.
    deleteNotificationPreferences(context.db, name);
    try {
      deleteProfile(context.db, name);
    } catch {
      historyKept = true; // requests of this profile stay for the audit trail
    }
    context.audit({ profile: name, action: PROFILE_REMOVED, subject: name, details: { by: operator, keychainEntries: removed.removed, historyKept } });
  });
  if (context.activeProfileName() === name) await context.dropClients();
  context.emit({ type: 'operators/changed' });
  return { removed: name };
}
