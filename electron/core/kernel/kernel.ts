// What every module may take from the kernel (ARCHITECTURE.md): the desk's database, its clock and its event stream.
// A module asks for these by type, with the parts of other modules it declares (the audit recorder, the profile
// selection, the merchant session), each built by its own module; the engine composes them (engine.ts deskParts).
import type { ContractEvent } from '../../contract';
import { appLog } from '../log';
import type { StoreDatabase } from '../store/database';

export interface Kernel {
  readonly db: StoreDatabase;
  /** Milliseconds since the epoch (tests inject a clock). */
  readonly now: () => number;
  /** Tells the faces what changed (contract events); a listener's failure never reaches the emitter. */
  emit(event: ContractEvent): void;
  onEvent(listener: (event: ContractEvent) => void): () => void;
}

/** The kernel of one engine: `db` and `clock` as given, and an event stream whose listeners cannot fail an emitter. */
export function createKernel(db: StoreDatabase, clock: () => number): Kernel {
  const listeners = new Set<(event: ContractEvent) => void>();
  return {
    db,
    now: clock,
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          // a face's listener failing must not break the engine
          appLog.error('engine: an event listener failed', { event: event.type, error });
        }
      }
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
