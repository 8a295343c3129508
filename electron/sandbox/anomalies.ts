// Platform anomalies a test (or a person trying the desk's reconciliation) can ask the sandbox for through the admin API
// (`/sandbox/anomalies`): what a real platform sometimes does that a merchant's reconciliation must catch. A deposit is
// credited but its callback is never sent (the platform lost it: the callback log shows it failed, with no attempt);
// a credited deposit is left out of getDeposits; a withdrawal is charged a fee other than the published currency table's.
// The ledger stays whole either way (the invariant holds: the fee charged is the order's fee). Anomalies live in memory
// only: a restarted sandbox has none, but what they did to the ledger stays.
import { z } from 'zod';
import { AMOUNT_PATTERN } from '../protocol/profile';

const merchantId = z.string().min(1).max(64);
const times = z.number().int().min(1).max(1_000_000);

export const anomalyInputSchema = z.discriminatedUnion('kind', [
  /** The next deposit callback(s) of a merchant (or of anyone) are never sent. */
  z.strictObject({ kind: z.literal('dropDepositCallback'), merchantId: merchantId.optional(), times: times.optional() }),
  /** getDeposits leaves this deposit out (the deposit stays credited). */
  z.strictObject({ kind: z.literal('unlistDeposit'), apiOrder: z.string().min(1).max(64) }),
  /** The next order(s) in `currency` are charged `fee` instead of the currency table's fee. */
  z.strictObject({
    kind: z.literal('withdrawFee'),
    merchantId: merchantId.optional(),
    currency: z.string().min(1).max(32),
    fee: z.string().regex(AMOUNT_PATTERN, 'must be a decimal string such as "2.5"'),
    times: times.optional(),
  }),
]);

export type AnomalyInput = z.output<typeof anomalyInputSchema>;

export type Anomaly = AnomalyInput & {
  readonly id: number;
  /** Hits left before it is spent (dropDepositCallback, withdrawFee); null: until cleared. */
  readonly remaining: number | null;
  readonly hits: number;
};

export class AnomalyPlan {
  #anomalies: Anomaly[] = [];
  #nextId = 1;

  add(input: AnomalyInput): Anomaly {
    const anomaly: Anomaly = { ...input, id: this.#nextId++, remaining: 'times' in input && input.times !== undefined ? input.times : null, hits: 0 };
    this.#anomalies.push(anomaly);
    return anomaly;
  }

  list(): readonly Anomaly[] {
    return this.#anomalies;
  }

  /** Removes one anomaly (true when it existed), or all of them. */
  clear(id?: number): boolean {
    const before = this.#anomalies.length;
    this.#anomalies = id === undefined ? [] : this.#anomalies.filter((anomaly) => anomaly.id !== id);
    return this.#anomalies.length < before;
  }

  /** Whether this deposit callback of `merchant` is to be lost (counts the hit). */
  dropsDepositCallback(merchant: string): boolean {
    return this.#take((anomaly) => anomaly.kind === 'dropDepositCallback' && (anomaly.merchantId === undefined || anomaly.merchantId === merchant)) !== undefined;
  }

  /** The apiOrders getDeposits leaves out. */
  unlistedDeposits(): readonly string[] {
    return this.#anomalies.flatMap((anomaly) => (anomaly.kind === 'unlistDeposit' ? [anomaly.apiOrder] : []));
  }

  /** The fee to charge an order of `merchant` in `currency` instead of the table's, if any (counts the hit). */
  withdrawFee(merchant: string, currency: string): string | undefined {
    const anomaly = this.#take(
      (candidate) => candidate.kind === 'withdrawFee' && candidate.currency === currency && (candidate.merchantId === undefined || candidate.merchantId === merchant),
    );
    return anomaly?.kind === 'withdrawFee' ? anomaly.fee : undefined;
  }

  #take(matches: (anomaly: Anomaly) => boolean): Anomaly | undefined {
    const index = this.#anomalies.findIndex((anomaly) => matches(anomaly) && (anomaly.remaining === null || anomaly.remaining > 0));
    const anomaly = this.#anomalies[index];
    if (anomaly === undefined) return undefined;
    this.#anomalies[index] = { ...anomaly, hits: anomaly.hits + 1, remaining: anomaly.remaining === null ? null : anomaly.remaining - 1 };
    return anomaly;
  }
}
