// A team database that was unreachable when the engine started: a shared store that opens the real one on first use
// and again after each failed attempt, so a team desk that starts offline still runs in team mode (reviews from the
// local copy, decisions refused with the reason) instead of silently acting alone, and connects when it can.
import { redactDatabaseUrl, SharedStoreError, type ConnectionState, type SharedDeskStore, type WitnessSignal } from './shared-store';

/** How often a subscription retries opening the team database while it is unreachable. */
const RETRY_MS = 2_000;

export class ReopeningStore implements SharedDeskStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly #open: () => Promise<SharedDeskStore>;
  readonly #clock: () => number;
  #opening: Promise<SharedDeskStore> | null = null;
  #closed = false;

  constructor(url: string, open: () => Promise<SharedDeskStore>, clock: () => number) {
    this.location = redactDatabaseUrl(url);
    this.#open = open;
    this.#clock = clock;
  }

  /** The opened store; a failure is an 'unreachable' refusal (with its reason) and the next call tries again. */
  #store(): Promise<SharedDeskStore> {
    if (this.#closed) return Promise.reject(new SharedStoreError('unreachable', `the connection to ${this.location} is closed`));
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = null;
      if (error instanceof SharedStoreError && error.kind === 'unreachable') throw error;
      throw new SharedStoreError('unreachable', error instanceof Error ? error.message : String(error), { cause: error });
    });
    return this.#opening;
  }

  identity: SharedDeskStore['identity'] = async () => (await this.#store()).identity();
  initialise: SharedDeskStore['initialise'] = async (...args) => (await this.#store()).initialise(...args);
  head: SharedDeskStore['head'] = async () => (await this.#store()).head();
  rowsAfter: SharedDeskStore['rowsAfter'] = async (...args) => (await this.#store()).rowsAfter(...args);
  append: SharedDeskStore['append'] = async (...args) => (await this.#store()).append(...args);
  projection: SharedDeskStore['projection'] = async (...args) => (await this.#store()).projection(...args);
  claimSubmission: SharedDeskStore['claimSubmission'] = async (...args) => (await this.#store()).claimSubmission(...args);
  updateClaim: SharedDeskStore['updateClaim'] = async (...args) => (await this.#store()).updateClaim(...args);
  getClaim: SharedDeskStore['getClaim'] = async (...args) => (await this.#store()).getClaim(...args);
  requestWitness: SharedDeskStore['requestWitness'] = async (...args) => (await this.#store()).requestWitness(...args);
  witnessRequests: SharedDeskStore['witnessRequests'] = async (...args) => (await this.#store()).witnessRequests(...args);
  appendHeadAck: SharedDeskStore['appendHeadAck'] = async (...args) => (await this.#store()).appendHeadAck(...args);
  headAcks: SharedDeskStore['headAcks'] = async (...args) => (await this.#store()).headAcks(...args);

  /** Reports the outage, retries every RETRY_MS until the database opens, then listens on it (and says so). */
  async subscribe(
    onAppended: (seq: number) => void,
    onConnectionChange: (state: ConnectionState) => void,
    onWitness?: (signal: WitnessSignal) => void,
  ): Promise<() => Promise<void>> {
    let stop: (() => Promise<void>) | null = null;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const attempt = async (): Promise<void> => {
      try {
        const store = await this.#store();
        if (stopped) return;
        stop = await store.subscribe(onAppended, onConnectionChange, onWitness);
        onConnectionChange({ connected: true, reason: null, since: this.#clock() });
      } catch (error) {
        if (stopped) return;
        onConnectionChange({ connected: false, reason: error instanceof Error ? error.message : String(error), since: this.#clock() });
        timer = setTimeout(() => void attempt(), RETRY_MS);
        timer.unref();
      }
    };
    await attempt();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await stop?.();
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#opening;
    this.#opening = null;
    if (opening) await (await opening.catch(() => null))?.close();
  }
}
