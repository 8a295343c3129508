// Payees (issue 21 item 1) as the signed roster holds them: a `payees` proposal lists 1..N payees, each with a stable id, a name, a note and its addresses; once applied (confirmed like `book`) the payees exist and each address is a book entry attributed to its payee. Invariant: within a profile a payee id is never reused and no two payees share a name in any letter case or look alike (UTS #39 skeletons), on replay as at proposal.
import { z } from 'zod';
import { isChain, normalizeAddress, validateAddress } from '../../chains';
import { confusableName } from './confusable-names';

/** The subject of a `payees` proposal: the batch is named by its proposal id, the payees by their ids in the body. */
export const PAYEES_SUBJECT = 'payees';

/** The most payees one signed batch holds, and the most addresses one payee holds in it. */
export const MAX_PAYEES_PER_BATCH = 1000;
export const MAX_ADDRESSES_PER_PAYEE = 50;

const payeeAddress = z.object({ chain: z.string().min(1).max(20), address: z.string().min(1).max(200) });
const payeeDraft = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a payee id is 1-64 lower-case letters, digits and dashes'),
  name: z.string().min(1).max(120),
  note: z.string().max(500),
  addresses: z.array(payeeAddress).min(1).max(MAX_ADDRESSES_PER_PAYEE),
});

/** The body of a `payees` statement (the registry checks it before the roster applies the row). */
export const payeesBody = z.object({ payees: z.array(payeeDraft).min(1).max(MAX_PAYEES_PER_BATCH) });

export type PayeeDraft = z.infer<typeof payeeDraft>;

/** A payee in force: its addresses are the book entries attributed to it (Roster.bookEntries, `payee`). */
export interface PayeeInForce {
  readonly id: string;
  readonly name: string;
  readonly note: string;
  /** The `payees` proposal that created it (its row's hash). */
  readonly batch: string;
  readonly proposer: string;
  readonly confirmedBy: string | null;
  readonly since: number;
}

/** A payee's name as compared: trimmed, NFC and lower case. */
export function payeeNameKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

/**
 * Why a new payee name cannot join `names` (the same in any letter case, or a Unicode look-alike, UTS #39), or null:
 * the one rule, asked when a payee is proposed (address-book/payee-csv.ts) and when its signed row is replayed.
 */
export function payeeNameProblem(name: string, names: readonly string[]): string | null {
  const same = names.find((other) => payeeNameKey(other) === payeeNameKey(name));
  if (same !== undefined) return `a payee is already named ${JSON.stringify(same)}`;
  const alike = confusableName(name, names);
  return alike === null ? null : `the payee name ${JSON.stringify(name)} looks like the payee ${JSON.stringify(alike)} (Unicode look-alikes): choose a name nobody can mistake for it`;
}

/** The payees of a body, or why they cannot be read. */
export function parsePayees(body: unknown): PayeeDraft[] | string {
  const parsed = payeesBody.safeParse(body);
  return parsed.success ? parsed.data.payees : 'a payees proposal lists 1 to 1000 payees, each with an id, a name, a note and 1 to 50 addresses';
}

/** The payees applied so far (or scheduled by a loosening delay), by id. */
export class PayeeRegistry {
  readonly #payees = new Map<string, PayeeInForce>();

  /** Why these payees cannot be added (an id or a name taken, an address twice or not valid on its chain, an address already booked), or null. */
  problem(drafts: readonly PayeeDraft[], booked: (chain: string, address: string) => boolean): string | null {
    const ids = new Set<string>();
    const names = [...this.#payees.values()].map((payee) => payee.name);
    const addresses = new Set<string>();
    for (const draft of drafts) {
      if (this.#payees.has(draft.id) || ids.has(draft.id)) return `payee id ${draft.id} is already used`;
      ids.add(draft.id);
      const nameProblem = payeeNameProblem(draft.name, names);
      if (nameProblem !== null) return nameProblem;
      names.push(draft.name);
      for (const { chain, address } of draft.addresses) {
        if (!isChain(chain)) return `payee ${draft.id}: ${JSON.stringify(chain.slice(0, 20))} is not a chain`;
        const check = validateAddress(chain, address);
        if (!check.valid) return `payee ${draft.id}: ${address.slice(0, 100)} is not a ${chain} address: ${check.reason}`;
        const key = `${chain}:${normalizeAddress(address, chain)}`;
        if (addresses.has(key)) return `${chain}:${address} is listed twice`;
        addresses.add(key);
        if (booked(chain, address)) return `${chain}:${address} is already in the address book (or scheduled to be)`;
      }
    }
    return null;
  }

  add(drafts: readonly PayeeDraft[], batch: { id: string; proposer: string; confirmedBy: string | null; since: number }): void {
    for (const draft of drafts) {
      this.#payees.set(draft.id, { id: draft.id, name: draft.name.trim(), note: draft.note, batch: batch.id, proposer: batch.proposer, confirmedBy: batch.confirmedBy, since: batch.since });
    }
  }

  /** Drops the payees a vetoed batch would have created. */
  veto(batch: string): void {
    for (const [id, payee] of this.#payees) if (payee.batch === batch) this.#payees.delete(id);
  }

  /** The payee with this id, applied (in force or scheduled). */
  get(id: string): PayeeInForce | undefined {
    return this.#payees.get(id);
  }

  all(): PayeeInForce[] {
    return [...this.#payees.values()];
  }
}
