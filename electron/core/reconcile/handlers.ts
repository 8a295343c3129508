// The reconciliation feature: the desk's verified records against the service's own answers (reconcile/run). The
// comparison itself is core/reconcile/.
import type { TreasuryHandlers } from '../../contract';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { checkCurrencyFilter } from '../deposits';
import { runReconciliation } from './run';
import type { Handle } from '../kernel/handle';

export interface ReconcileFeatureDeps {
  readonly context: Kernel & ProfileSelection;
}

export function reconcileHandlers({ context }: ReconcileFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'reconcile/run'> {
  return {
    'reconcile/run': handle('reconcile/run', (request) => {
      checkCurrencyFilter(context.db, context.activeProfile().name, request.currency);
      return runReconciliation(context, request);
    }),
  };
}
