// What every module may take from the kernel (ARCHITECTURE.md): the desk's database, its clock and its event stream.
// A module asks for these by type, with the parts of other modules it declares (the audit recorder, the profile
// selection), instead of the whole DeskContext.
import type { ContractEvent } from '../../contract';
import type { StoreDatabase } from '../store/database';

export interface Kernel {
  readonly db: StoreDatabase;
  /** Milliseconds since the epoch (tests inject a clock). */
  readonly now: () => number;
  /** Tells the faces what changed (contract events); a listener's failure never reaches the emitter. */
  emit(event: ContractEvent): void;
  onEvent(listener: (event: ContractEvent) => void): () => void;
}
