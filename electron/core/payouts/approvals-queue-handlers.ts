// The approvals queue feature (withdrawals/queue): single requests someone still has to act on, and each batch payout
// with lines waiting once (core/payouts/queue.ts).
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { approvalsQueue } from './queue';
import type { Handle } from '../kernel/handle';

export interface ApprovalsQueueFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
}

export function approvalsQueueHandlers({ context }: ApprovalsQueueFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'withdrawals/queue'> {
  return {
    'withdrawals/queue': handle('withdrawals/queue', () => approvalsQueue(context)),
  };
}
