// TreasuryService: the contract implemented by the engine, composed from each module's contract handlers
// (<module>/handlers.ts). Each declares the parts of the engine it uses and answers its own methods through the
// shared wrapper (kernel/handle.ts): every handler answers a Result and never throws; a locked desk answers
// `locked` to everything but session/* and the few methods listed there. No answer ever carries a key, secret or token.
import type { TreasuryHandlers } from '../contract';
import type { CallbackListener } from './callbacks/listener';
import type { Kernel } from './kernel/kernel';
import type { AuditRecorder } from './audit/recorder';
import type { ProfileSelection, ProfileSwitch } from './profiles/profiles-table';
import type { MerchantConnection } from './connection/merchant-connection';
import type { KeychainAccess } from './secrets/keychain-access';
import { addressBookHandlers } from './address-book/handlers';
import { approvalsQueueHandlers } from './payouts/approvals-queue-handlers';
import { addressesHandlers } from './addresses/handlers';
import { auditHandlers } from './desk/audit-handlers';
import { callbacksHandlers } from './callbacks/handlers';
import { connectionHandlers } from './desk/connection-handlers';
import { dashboardHandlers } from './sync/dashboard-handlers';
import { depositsHandlers } from './deposits/handlers';
import { handlerWrapper } from './kernel/handle';
import { labelsHandlers } from './labels/handlers';
import { notificationsHandlers } from './notifications/handlers';
import { operatorsHandlers } from './operators/handlers';
import { payoutsHandlers } from './payouts/handlers';
import { reconcileHandlers } from './reconcile/handlers';
import { profilesHandlers, type DemoSandboxStarter } from './desk/profile-handlers';
import { sessionHandlers } from './session/handlers';
import { settingsHandlers } from './desk/settings-handlers';
import { statementsHandlers } from './reports/handlers';
import { syncHandlers } from './sync/handlers';
import { teamHandlers } from './team/handlers';
import { withdrawalsHandlers } from './withdrawals/handlers';
import type { SessionLock } from './session/lock';
import type { SyncService } from './sync/sync';
import type { TeamMode } from './team/mode';
import type { AnchorMover } from './desk/audit-handlers';

export { startDemo, type DemoSandboxStarter } from './desk/profile-handlers';

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
