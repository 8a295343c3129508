// TreasuryService: the contract implemented by the engine, composed from each module's contract handlers
// (<module>/handlers.ts). Each declares the parts of the engine it uses and answers its own methods through the
// shared wrapper (kernel/handle.ts): every handler answers a Result and never throws; a locked desk answers
// `locked` to everything but session/* and the few methods listed there. No answer ever carries a key, secret or token.
import type { TreasuryHandlers } from '../contract';
import { type CallbackListener, callbacksHandlers } from './callbacks';
import type { Kernel } from './kernel/kernel';
import type { AuditRecorder } from './audit';
import type { ProfileSelection, ProfileSwitch } from './profiles';
import type { MerchantConnection } from './connection';
import type { KeychainAccess } from './secrets';
import { addressBookHandlers, payeesHandlers } from './address-book';
import { approvalsQueueHandlers, payoutsHandlers } from './payouts';
import { addressesHandlers } from './addresses';
import {
  type AnchorMover,
  auditHandlers,
  connectionHandlers,
  type DemoSandboxStarter,
  profilesHandlers,
  settingsHandlers,
} from './desk';
import { dashboardHandlers, syncHandlers, type SyncService } from './sync';
import { depositsHandlers } from './deposits';
import { handlerWrapper } from './kernel/handle';
import { labelsHandlers } from './labels';
import { notificationsHandlers } from './notifications';
import { type WebhookSeal, type WebhookSecrets, type WebhookSender, webhooksHandlers } from './webhooks';
import { operatorsHandlers } from './operators';
import { reconcileHandlers } from './reconcile';
import { sessionHandlers, type SessionLock } from './session';
import { statementsHandlers } from './reports';
import { teamHandlers, type TeamMode } from './team';
import { withdrawalsHandlers } from './withdrawals';

export { startDemo, type DemoSandboxStarter } from './desk';

/** The engine's parts the features draw on; each feature takes only the ones its deps interface names. */
export interface ServiceParts {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection & ProfileSwitch & KeychainAccess;
  readonly sync: SyncService;
  readonly session: SessionLock;
  readonly callbacks: CallbackListener;
  readonly startDemoSandbox?: DemoSandboxStarter | undefined;
  /** Called with the demo sandbox so the engine can stop it at close. */
  readonly adoptDemoSandbox: (sandbox: { close(): Promise<void> }) => void;
  /** The handlers createHandlers composed from these parts (built once): the demo desk acts through them. */
  readonly handlers: () => TreasuryHandlers;
  /** The application's version, for diagnostics. */
  readonly appVersion: string;
  /** Team mode (a team desk on PostgreSQL). */
  readonly team: TeamMode;
  /** Outbound webhooks: the endpoints' signing secrets (main-process memory and the secret store) and the sender. */
  readonly webhooks: { readonly secrets: WebhookSecrets; readonly seal: WebhookSeal; readonly sender: WebhookSender };
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
    ...webhooksHandlers({ context: parts.context, ...parts.webhooks }, handle),
    ...withdrawalsHandlers(parts, handle),
    ...payoutsHandlers(parts, handle),
    ...auditHandlers(parts, handle),
    ...settingsHandlers(parts, handle),
    ...connectionHandlers(parts, handle),
    ...dashboardHandlers(parts, handle),
    ...labelsHandlers(parts, handle),
    ...addressBookHandlers(parts, handle),
    ...payeesHandlers(parts, handle),
    ...statementsHandlers(parts, handle),
    ...teamHandlers(parts, handle),
    ...approvalsQueueHandlers(parts, handle),
  };
}
