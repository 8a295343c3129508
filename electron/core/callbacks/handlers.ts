// The callback listener's feature: its state, start and stop, its recent refusals (callbacks/*). The listener itself is
// core/callbacks/listener.ts.
import type { TreasuryHandlers } from '../../contract';
import type { CallbackListener } from './listener';
import type { Handle } from '../kernel/handle';

export interface CallbacksFeatureDeps {
  readonly callbacks: CallbackListener;
}

export function callbacksHandlers({ callbacks }: CallbacksFeatureDeps, handle: Handle): Pick<TreasuryHandlers, 'callbacks/state' | 'callbacks/start' | 'callbacks/stop' | 'callbacks/refusals'> {
  return {
    'callbacks/state': handle('callbacks/state', () => callbacks.state()),
    'callbacks/start': handle('callbacks/start', (request) => callbacks.start(request)),
    'callbacks/stop': handle('callbacks/stop', () => callbacks.stop()),
    'callbacks/refusals': handle('callbacks/refusals', () => callbacks.refusals()),
  };
}
