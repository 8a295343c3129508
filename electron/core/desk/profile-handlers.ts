// The profiles feature: the merchant profiles on this desk and demo mode (profiles/*, demo/start).
import { DEMO_OPERATORS, type ProfileSummary, type TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import { getProfile, type ProfileSelection, type ProfileSwitch } from '../profiles';
import type { MerchantConnection } from '../connection';
import type { KeychainAccess } from '../secrets';
import { DeskError } from '../kernel/errors';
import { appLog } from '../log';
import {
  acceptInvitation,
  confirmProposal,
  foundDesk,
  inviteOperator,
  proposeProfileAddition,
  proposeProfileRemoval,
} from '../operators';
import {
  addProfile,
  DEMO_PROFILE_NAME,
  generateProfileKey,
  importProfileFile,
  listProfileSummaries,
  removeProfile,
  selectProfile,
} from './profiles';
import type { SessionLock } from '../session';
import type { SyncService } from '../sync';
import type { Handle } from '../kernel/handle';
import { demoDeskFurnished, furnishDemoDesk } from './demo-desk';

/** Starts the embedded sandbox for demo mode; provided by the face (main, CLI, harness), never imported by core. */
export type DemoSandboxStarter = () => Promise<{
  readonly credentials: { baseUrl: string; merchantId: string; secret: string; platformPublicKey: string; merchantPrivateKey: string };
  close(): Promise<void>;
}>;

export interface ProfilesFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess;
  readonly session: SessionLock;
  readonly sync: SyncService;
  readonly startDemoSandbox?: DemoSandboxStarter | undefined;
  /** Called with the demo sandbox so the engine can stop it at close. */
  readonly adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => void;
  /** The engine's contract handlers: the demo desk furnishes itself through them, as a person would (demo-desk.ts). */
  readonly handlers: () => TreasuryHandlers;
}

/**
 * Demo mode: starts the embedded sandbox, stores its credentials as the `demo` profile (marked demo everywhere),
 * selects it, gives an empty desk the demo operators, syncs the demo history, and on the demo desk's first day has its
 * operators create addresses and send withdrawals (demo-desk.ts), then syncs what that changed.
 */
export async function startDemo(deps: ProfilesFeatureDeps): Promise<ProfileSummary> {
  const { context, sync, session } = deps;
  if (!deps.startDemoSandbox) throw new DeskError('invalidInput', 'demo mode is not available in this build');
  // A real profile named "demo" (from before the name was kept for the demo) is never replaced with the sandbox's credentials.
  const existing = getProfile(context.db, DEMO_PROFILE_NAME);
  if (existing && !existing.demo) {
    throw new DeskError(
      'conflict',
      `a real profile is named "${DEMO_PROFILE_NAME}", the name demo mode uses: it was left as it is; import its credentials again under another name and remove it, then start the demo`,
    );
  }
  const sandbox = await deps.startDemoSandbox();
  deps.adoptDemoSandbox(sandbox);
  const summary = await addProfile(context, DEMO_PROFILE_NAME, sandbox.credentials, { demo: true, replace: true });
  await selectProfile(context, DEMO_PROFILE_NAME);
  if (!context.trail.roster(DEMO_PROFILE_NAME).founded) await seedDemoRoster(context);
  // The demo works offline from what it has; a failed first sync is recorded in the sync state and the log.
  await sync.run({ full: true }).catch((error: unknown) => appLog.warn('demo: the first sync failed', { error }));
  if (!demoDeskFurnished(context)) {
    // A refusal leaves the demo usable as it is; the mark is missing, so the next start tries again.
    await furnishDemoDesk(context, deps.handlers())
      .then(() => sync.run())
      .catch((error: unknown) => appLog.warn('demo: the demo desk could not create its first addresses and withdrawals', { error }));
  }
  session.changed();
  return summary;
}

/**
 * The demo desk's roster, made the way a real team would: two founding admins, and an approver invited by one and
 * confirmed by the other, so the approver is independent of both and four-eyes works in the demo. Demo operators
 * exist only in the demo profile (operators belong to a profile), so they can never act on a real merchant.
 */
async function seedDemoRoster(context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess): Promise<void> {
  const [admin, secondAdmin, approver] = DEMO_OPERATORS;
  await foundDesk(context, [
    { operator: admin.name, passphrase: admin.passphrase },
    { operator: secondAdmin.name, passphrase: secondAdmin.passphrase },
  ]);
  const invitation = await inviteOperator(context, approver.name, approver.role, { operator: admin.name, passphrase: admin.passphrase });
  await acceptInvitation(context, { name: approver.name, code: invitation.code, passphrase: approver.passphrase });
  await confirmProposal(context, invitation.proposal, { operator: secondAdmin.name, passphrase: secondAdmin.passphrase });
  context.audit({ profile: DEMO_PROFILE_NAME, action: 'demo/operators', details: { operators: DEMO_OPERATORS.map((operator) => operator.name) } });
}

export function profilesHandlers(
  deps: ProfilesFeatureDeps,
  handle: Handle,
): Pick<
  TreasuryHandlers,
  'profiles/list' | 'profiles/add' | 'profiles/importFile' | 'profiles/generateKey' | 'profiles/select' | 'profiles/remove' | 'profiles/proposeAdd' | 'profiles/proposeRemove' | 'demo/start'
> {
  const { context, session } = deps;
  return {
    'profiles/list': handle('profiles/list', () => listProfileSummaries(context)),
    'profiles/add': handle('profiles/add', (request) => addProfile(context, request.name, request.credentials)),
    'profiles/importFile': handle('profiles/importFile', async (request) => (await importProfileFile(context, request.name, request.path)).summary),
    'profiles/generateKey': handle('profiles/generateKey', (request) => generateProfileKey(context, request.name)),
    'profiles/select': handle('profiles/select', async (request) => {
      const summary = await selectProfile(context, request.name);
      session.changed();
      return summary;
    }),
    'profiles/remove': handle('profiles/remove', (request) => removeProfile(context, request.name, request.as)),
    'profiles/proposeAdd': handle('profiles/proposeAdd', (request) =>
      proposeProfileAddition(context, { name: request.name, merchantId: request.merchantId, founders: request.founders }, request.as),
    ),
    'profiles/proposeRemove': handle('profiles/proposeRemove', (request) => proposeProfileRemoval(context, request.name, request.as)),
    'demo/start': handle('demo/start', () => startDemo(deps)),
  };
}
