// Faults a test (or a person trying the desk) can ask the sandbox to inject through the admin API (`/sandbox/faults`):
// a business endpoint of one merchant or all answers, from a given getDeposits page on, either with an HTTP error as a
// gateway in front of a real platform would (no envelope, no signature), or with the platform's own signed failure
// envelope carrying a chosen message. A fault applies only to requests that passed the whole §4.5 pipeline (they are
// authenticated and their nonce is spent), it may be limited to a number of hits, and faults live in memory only: a
// restarted sandbox has none.
import { z } from 'zod';

export const FAULT_ENDPOINTS = ['createAddress', 'createWithdrawOrder', 'merchantInfo', 'getDeposits', 'checkWithdrawOrder', 'selfcheck'] as const;
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number];

export const faultInputSchema = z.strictObject({
  endpoint: z.enum(FAULT_ENDPOINTS),
  /** Only this merchant's requests; all merchants when omitted. */
  merchantId: z.string().min(1).max(64).optional(),
  /** getDeposits only: requests for this page and later ones (the page asked for, default 1). */
  fromPage: z.number().int().min(1).optional(),
  answer: z.union([
    z.strictObject({ httpStatus: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]) }),
    z.strictObject({ message: z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/, 'a failure message is one word such as "systemBusy"') }),
  ]),
  /** How many matching requests fail before the fault is spent; until cleared when omitted. */
  times: z.number().int().min(1).max(1_000_000).optional(),
}).refine((input) => input.fromPage === undefined || input.endpoint === 'getDeposits', { message: 'fromPage applies to getDeposits only', path: ['fromPage'] });

export type FaultInput = z.output<typeof faultInputSchema>;
export type FaultAnswer = FaultInput['answer'];

export interface Fault {
  readonly id: number;
  readonly endpoint: FaultEndpoint;
  readonly merchantId: string | null;
  readonly fromPage: number | null;
  readonly answer: FaultAnswer;
  /** Hits left before the fault is spent; null: until cleared. */
  readonly remaining: number | null;
  /** Requests it has failed so far. */
  readonly hits: number;
}

export class FaultPlan {
  #faults: Fault[] = [];
  #nextId = 1;

  add(input: FaultInput): Fault {
    const fault: Fault = {
      id: this.#nextId++,
      endpoint: input.endpoint,
      merchantId: input.merchantId ?? null,
      fromPage: input.fromPage ?? null,
      answer: input.answer,
      remaining: input.times ?? null,
      hits: 0,
    };
    this.#faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.#faults;
  }

  /** Removes one fault (true when it existed), or all of them. */
  clear(id?: number): boolean {
    const before = this.#faults.length;
    this.#faults = id === undefined ? [] : this.#faults.filter((fault) => fault.id !== id);
    return this.#faults.length < before;
  }

  /** The answer to give instead of the endpoint's, counting the hit; undefined when no fault matches. */
  take(endpoint: FaultEndpoint, merchantId: string, payload: unknown): FaultAnswer | undefined {
    const page = endpoint === 'getDeposits' ? requestedPage(payload) : 1;
    const index = this.#faults.findIndex(
      (fault) =>
        fault.endpoint === endpoint &&
        (fault.merchantId === null || fault.merchantId === merchantId) &&
        (fault.fromPage === null || page >= fault.fromPage) &&
        (fault.remaining === null || fault.remaining > 0),
    );
    const fault = this.#faults[index];
    if (fault === undefined) return undefined;
    this.#faults[index] = { ...fault, hits: fault.hits + 1, remaining: fault.remaining === null ? null : fault.remaining - 1 };
    return fault.answer;
  }
}

/** The getDeposits page a payload asks for (default 1, as the endpoint reads it). */
function requestedPage(payload: unknown): number {
  if (typeof payload !== 'object' || payload === null) return 1;
  const page = (payload as { page?: unknown }).page;
  return typeof page === 'number' && Number.isSafeInteger(page) && page >= 1 ? page : 1;
}
