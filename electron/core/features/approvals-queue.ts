// The approvals queue feature (withdrawals/queue): single requests someone still has to act on, and each batch payout
// with lines waiting once (core/payouts/queue.ts).
import type { TreasuryHandlers } from '../../contract';
import type { DeskContext } from '../context';
import { approvalsQueue } from '../payouts/queue';
import type { Handle } from './handle';

export interface ApprovalsQueueFeatureDeps {
  readonly context: DeskContext;
}

export function approvalsQueueHandlers({ context }: ApprovalsQueueFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'withdrawals/queue'> {
  return {
    'withdrawals/queue': handle('withdrawals/queue', () => approvalsQueue(context)),
  };
}
