// TreasuryService: the contract implemented by the engine, composed from one feature module per area
// (features/*.ts). Each module declares the parts of the engine it uses and answers its own methods through the
// shared wrapper (features/handle.ts): every handler answers a Result and never throws; a locked desk answers
// `locked` to everything but session/* and the few methods listed there. No answer ever carries a key, secret or token.
import type { TreasuryHandlers } from '../contract';
import type { CallbackListener } from './callbacks/listener';
import type { Kernel } from './kernel/kernel';
import type { AuditRecorder } from './audit/recorder';
import type { ProfileSelection, ProfileSwitch } from './store/profiles';
import type { MerchantConnection } from './connection/merchant-connection';
import type { KeychainAccess } from './secrets/keychain-access';
import { addressBookHandlers } from './features/address-book';
import { approvalsQueueHandlers } from './features/approvals-queue';
import { addressesHandlers } from './features/addresses';
import { auditHandlers } from './features/audit';
import { callbacksHandlers } from './features/callbacks';
import { connectionHandlers } from './features/connection';
import { dashboardHandlers } from './features/dashboard';
import { depositsHandlers } from './features/deposits';
import { handlerWrapper } from './features/handle';
import { labelsHandlers } from './features/labels';
import { notificationsHandlers } from './features/notifications';
import { operatorsHandlers } from './features/operators';
import { payoutsHandlers } from './features/payouts';
import { reconcileHandlers } from './features/reconcile';
import { profilesHandlers, type DemoSandboxStarter } from './features/profiles';
import { sessionHandlers } from './features/session';
import { settingsHandlers } from './features/settings';
import { statementsHandlers } from './features/statements';
import { syncHandlers } from './features/sync';
import { teamHandlers } from './features/team';
import { withdrawalsHandlers } from './features/withdrawals';
import type { SessionLock } from './session';
import type { SyncService } from './sync/sync';
import type { TeamMode } from './team/mode';
import type { AnchorMover } from './features/audit';

export { startDemo, type DemoSandboxStarter } from './features/profiles';

/** The engine's parts the features draw on; each feature takes only the ones its deps interface names. */
export interface ServiceParts {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess;
  readonly sync: SyncService;
  readonly session: SessionLock;
  readonly callbacks: CallbackListener;
  readonly startDemoSandbox?: DemoSandboxStarter | undefined;
  /** Called with the demo sandbox so the engine can stop it at close. */
  readonly adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => void;
  /** The application's version, for diagnostics. */
  readonly appVersion: string;
  /** Team mode (a team desk on PostgreSQL). */
  readonly team: TeamMode;
  /** Moves the desk key and audit anchor between the keychain and the file (audit/anchor-store.ts moveDeskSecrets). */
  readonly moveAnchor: AnchorMover;
}

export function createHandlers(parts: ServiceParts): TreasuryHandlers {
  const handle = handlerWrapper(parts.session);
  return {
    ...sessionHandlers(parts, handle),
    ...profilesHandlers(parts, handle),
    ...syncHandlers(parts, handle),
    ...callbacksHandlers(parts, handle),
    ...depositsHandlers(parts, handle),
    ...reconcileHandlers(parts, handle),
    ...addressesHandlers(parts, handle),
    ...operatorsHandlers(parts, handle),
    ...notificationsHandlers(parts, handle),
    ...withdrawalsHandlers(parts, handle),
    ...payoutsHandlers(parts, handle),
    ...auditHandlers(parts, handle),
    ...settingsHandlers(parts, handle),
    ...connectionHandlers(parts, handle),
    ...dashboardHandlers(parts, handle),
    ...labelsHandlers(parts, handle),
    ...addressBookHandlers(parts, handle),
    ...statementsHandlers(parts, handle),
    ...teamHandlers(parts, handle),
    ...approvalsQueueHandlers(parts, handle),
  };
}
