// Proof of control by a reverse micro-deposit (issue 21 item 2): the desk asks the payee to send the chain's proof
// currency from a book address to a deposit address made for that one proof, and a verified deposit from that address
// is recorded as a desk-signed `addressbook/controlProven` statement naming the deposit. Invariant: "control proven" is
// derived only from such a statement whose signature verifies under a desk key in force at its row (this
// workstation's, one a founding named, or one an admin enrolled for a team workstation: the trail's own lookup), about
// a request an operator signed; no column of any table says it, so an edited or planted row proves nothing and is
// reported as refused, naming the row.
// On a team desk (APPROVALS.md "Team desks": a desk key never vouches for an order outcome the service did not sign) a
// proof signed by another workstation's desk key is only well-signed, a report: it proves control here only once this
// workstation verified the same deposit itself (its deposits table holds the proof's apiOrder with the same txid and
// userOrder, to the proof's deposit address, passing the same checks against the operator-signed request as the
// intake applies). Until then the view lists it under `reported` ("reported by workstation B; not yet among this
// workstation's verified deposits: sync deposits here"), and neither the standing nor the policy's "proven control
// above" counts it. A proof this workstation's own key signed was made from its own verified deposit, as before.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Chain, CHAIN_INFO, CHAINS, CURRENCIES, type CurrencySymbol, formatMoney, normalizeAddress, parseMoney, sameAddress, validateAddress } from '../../chains';
import type { ControlProofDeposit, ControlProofSigner, ControlProofView, ControlStanding } from '../../contract';
import { type AuditRecorder, auditRowsBySubject, auditRowsOfAction } from '../audit';
import type { MerchantConnection } from '../connection';
import { type Deposit, depositsWithUserOrderPrefixStoredAfter, getDepositByApiOrder, listDeposits } from '../deposits';
import { DeskError } from '../kernel/errors';
import type { Kernel } from '../kernel/kernel';
import { type ChainRow, parseStatement, type Roster, signatureHolds } from '../ledger';
import { getCurrency } from '../merchant';
import { actingAs, type OperatorCredentials, signAction } from '../operators';
import type { ProfileSelection } from '../profiles';
import type { ReadableDB } from '../store/database';
import { parsedRows, signer } from './verify';

type DeskParts = Kernel & AuditRecorder & ProfileSelection;

/** The operator-signed request (a deposit address made for one proof) and the desk-signed proof. */
export const PROOF_REQUEST_ACTION = 'addressbook/proveRequest';
export const CONTROL_PROVEN_ACTION = 'addressbook/controlProven';

/** Whether a chain's deposit record can prove that the payee controls an address, and in which currency. */
export type ProofCapability = { readonly proves: true; readonly currency: CurrencySymbol; readonly why: string } | { readonly proves: false; readonly why: string };

/**
 * The one table of which chains can prove control (spec "Deposit record": `fromAddress` is "sender address", nothing
 * more; PROTOCOL §8, §11). The proof is per chain: an EVM address on Ethereum proves nothing on BSC (a contract wallet
 * at the same address there may be someone else's). A deposit from an exchange's hot wallet names the exchange, so it
 * never proves the payee's address: only a transfer the payee signs from it does.
 */
export const CONTROL_PROOF_BY_CHAIN: Readonly<Record<Chain, ProofCapability>> = {
  trx: { proves: true, currency: 'trx', why: 'a TRON transfer has one sender, the account that signed it, and the deposit record names it (fromAddress)' },
  eth: {
    proves: true,
    currency: 'eth',
    why: 'an Ethereum transfer has one sender, the account that signed it (or the contract wallet that sent it), and the deposit record names it; it proves the address on Ethereum only',
  },
  bnb: {
    proves: true,
    currency: 'bnb',
    why: 'a BNB Smart Chain transfer has one sender, the account that signed it (or the contract wallet that sent it), and the deposit record names it; it proves the address on BSC only',
  },
  solana: {
    proves: true,
    currency: 'solana',
    why: 'a SOL transfer names the wallet that signed it; a token (USDT, USDC) transfer comes from a token account, not the wallet, so only SOL proves it',
  },
  ton: {
    proves: false,
    why:
      'a TON deposit cannot prove it: the record does not say in which form it names the sender (PROTOCOL §11.4 accepts bounceable, non-bounceable and raw forms of one account, ' +
      'which this desk compares as text), and USDT on TON is sent by a jetton wallet, not by the payee’s address',
  },
};

/** `chain:address` of a proof, the address in its canonical form (EVM: lower case), so every letter case is one subject. */
export function proofSubject(chain: Chain, address: string): string {
  const evm = CHAIN_INFO[chain].addressType === 'eth_bnb';
  return `${chain}:${evm ? `0x${normalizeAddress(address, chain)}` : address}`;
}

/** What every proof's userOrder starts with (the intake picks proof deposits by it). */
const PROOF_USER_ORDER_PREFIX = 'proof-';

/** The userOrder of a proof: derived from its profile, chain, address and round, so a retry asks for the same address (PROTOCOL §8: 1 to 64 of [A-Za-z0-9_-]). */
export function proofUserOrder(profile: string, chain: Chain, address: string, round: number): string {
  const hash = createHash('sha256').update(`${profile}\n${proofSubject(chain, address)}\n${round}`).digest('hex');
  return `${PROOF_USER_ORDER_PREFIX}${hash.slice(0, 40)}`;
}

const requestDetailsSchema = z.object({
  userOrder: z.string(),
  round: z.number().int().min(1),
  chain: z.enum(CHAINS),
  address: z.string(),
  depositAddress: z.string(),
  addressType: z.string(),
  currency: z.string(),
  minimum: z.string(),
});
type ProofRequest = z.infer<typeof requestDetailsSchema> & { readonly by: string; readonly at: number; readonly seq: number };

const provenDetailsSchema = z.object({
  chain: z.enum(CHAINS),
  address: z.string(),
  userOrder: z.string(),
  depositAddress: z.string(),
  txid: z.string(),
  apiOrder: z.string(),
  fromAddress: z.string(),
  currency: z.string(),
  amount: z.string(),
  fee: z.string(),
  seenAt: z.number(),
});
type ControlProven = z.infer<typeof provenDetailsSchema>;

const bodySchema = z.object({ action: z.string(), details: z.unknown() });

/** A proof statement whose signature verifies under a desk key in force at its row, and whose key it was. */
interface SignedProof {
  readonly proof: ControlProven;
  readonly signedBy: ControlProofSigner;
}

/** The desk-signed proofs of a subject: corroborated (control proven here), reported by another workstation only, and refused rows. */
interface ProofsOfSubject {
  readonly proven: readonly SignedProof[];
  readonly reported: readonly SignedProof[];
  readonly refused: readonly string[];
}

/** The requests for `subject` whose operator signature verifies under the roster, oldest first; the others are skipped. */
function signedRequests(db: ReadableDB, roster: Roster, profile: string, subject: string): ProofRequest[] {
  return parsedRows(auditRowsBySubject(db, profile, subject)).flatMap((row) => requestOf(roster, row, profile, subject));
}

function requestOf(roster: Roster, row: ChainRow, profile: string, subject: string): ProofRequest[] {
  const body = bodySchema.safeParse(row.statement.body);
  if (row.statement.kind !== 'action' || row.statement.profile !== profile || row.statement.subject !== subject || !body.success || body.data.action !== PROOF_REQUEST_ACTION) return [];
  const details = requestDetailsSchema.safeParse(body.data.details);
  const who = signer(roster, row, 'createAddress');
  if (!details.success || typeof who === 'string') return [];
  return [{ ...details.data, by: who.name, at: row.statement.at, seq: row.seq }];
}

/**
 * The desk-signed proofs of `subject` whose statement is well-formed and about this subject, and whose signature was
 * made by a desk key in force at its row (parts.trail.deskKeyBefore). Those that do not verify come back as refusals,
 * naming the row.
 */
function wellSignedProofs(parts: Kernel & AuditRecorder, profile: string, subject: string): { signed: SignedProof[]; refused: string[] } {
  const signed: SignedProof[] = [];
  const refused: string[] = [];
  for (const raw of auditRowsBySubject(parts.db, profile, subject)) {
    if (raw.action !== CONTROL_PROVEN_ACTION && !raw.statement.includes(CONTROL_PROVEN_ACTION)) continue;
    const statement = parseStatement(raw.statement);
    const body = statement === null ? null : bodySchema.safeParse(statement.body);
    const details = body?.success === true ? provenDetailsSchema.safeParse(body.data.details) : null;
    if (statement === null || body?.success !== true || body.data.action !== CONTROL_PROVEN_ACTION || details?.success !== true) {
      refused.push(`audit row ${raw.seq} claims a control proof but is not a well-formed proof statement: it was altered`);
      continue;
    }
    const key = parts.trail.deskKeyBefore(raw.seq, statement.keyId);
    if (statement.kind !== 'system' || statement.operator !== null || key === undefined) {
      refused.push(`audit row ${raw.seq} claims a control proof but is not signed by a desk key of this desk`);
      continue;
    }
    if (!signatureHolds(key.publicKey, { hash: raw.hash, text: raw.statement, signature: raw.signature })) {
      refused.push(`audit row ${raw.seq} claims a control proof but its signature does not verify: it was altered or planted`);
      continue;
    }
    if (statement.profile !== profile || statement.subject !== subject || proofSubject(details.data.chain, details.data.address) !== subject) {
      refused.push(`audit row ${raw.seq} is a control proof of another address`);
      continue;
    }
    signed.push({ proof: details.data, signedBy: { own: key.own, workstation: key.own ? null : key.workstation } });
  }
  return { signed, refused };
}

/**
 * Whether this workstation verified the deposit a proof names itself: its own deposit with the proof's apiOrder, the
 * same txid and userOrder, to the proof's deposit address, and passing the intake's checks against the operator-signed
 * request of that userOrder for this subject.
 */
function corroboratedHere(db: ReadableDB, roster: Roster, profile: string, subject: string, proof: ControlProven): boolean {
  const deposit = getDepositByApiOrder(db, profile, proof.apiOrder);
  if (deposit === undefined || deposit.txid !== proof.txid || deposit.userOrder !== proof.userOrder) return false;
  const request = signedRequests(db, roster, profile, subject).findLast((candidate) => candidate.userOrder === proof.userOrder);
  if (request === undefined || !sameAddress(request.depositAddress, proof.depositAddress, request.chain) || !sameAddress(deposit.address, request.depositAddress, request.chain)) return false;
  return depositRefusal(db, profile, request, deposit) === null;
}

/**
 * The proofs of `subject` as this workstation stands: those its own key signed, and those another desk key in force
 * signed that its own verified deposits corroborate, prove control; another key's without that are reported only.
 */
function proofsOf(parts: Kernel & AuditRecorder, roster: Roster, profile: string, subject: string): ProofsOfSubject {
  const { signed, refused } = wellSignedProofs(parts, profile, subject);
  const proven: SignedProof[] = [];
  const reported: SignedProof[] = [];
  for (const entry of signed) (entry.signedBy.own || corroboratedHere(parts.db, roster, profile, subject, entry.proof) ? proven : reported).push(entry);
  return { proven, reported, refused };
}

/** The verified proof of `chain:address` (the latest), or null; what the policy, the review and `withdraw show` ask. */
export function provenControl(parts: DeskParts, roster: Roster, profile: string, chain: Chain, address: string): ControlProven | null {
  return proofsOf(parts, roster, profile, proofSubject(chain, address)).proven.at(-1)?.proof ?? null;
}

/** The standing line's facts for a destination. */
export function controlStanding(parts: DeskParts, roster: Roster, profile: string, chain: Chain, address: string): ControlStanding {
  const proof = provenControl(parts, roster, profile, chain, address);
  return proof === null ? { proven: false, at: null, txid: null } : { proven: true, at: proof.seenAt, txid: proof.txid };
}

/** Why `deposit` to a proof's address does not prove control of `request.address`, or null when it does. */
function depositRefusal(db: ReadableDB, profile: string, request: ProofRequest, deposit: Deposit): string | null {
  const chain = request.chain;
  if (deposit.currency !== request.currency) {
    return `a deposit in ${deposit.currency} does not prove it: the proof on ${CHAIN_INFO[chain].displayName} asks for ${request.currency} (${CONTROL_PROOF_BY_CHAIN[chain].why})`;
  }
  if (!sameAddress(deposit.fromAddress, request.address, chain)) return `a deposit came from ${deposit.fromAddress}, not from the address`;
  const stored = getCurrency(db, profile, request.currency);
  const minimum = stored === undefined ? request.minimum : String(stored.record['deposit_min'] ?? request.minimum);
  // §9.6: deposit_min bounds the gross transfer; the record's amount is gross - fee.
  const gross = parseMoney(deposit.amount).plus(parseMoney(deposit.fee === '' ? '0' : deposit.fee));
  if (gross.lessThan(parseMoney(minimum))) return `a deposit of ${formatMoney(gross)} ${deposit.currency} is below the currency's deposit_min of ${minimum}`;
  return null;
}

/** The operator-signed requests of the profile, by userOrder (the intake's index). */
function requestsByUserOrder(db: ReadableDB, roster: Roster, profile: string): Map<string, ProofRequest> {
  const byUserOrder = new Map<string, ProofRequest>();
  for (const raw of auditRowsOfAction(db, PROOF_REQUEST_ACTION)) {
    if (raw.profile !== profile) continue;
    for (const row of parsedRows([raw])) for (const request of requestOf(roster, row, profile, row.statement.subject)) byUserOrder.set(request.userOrder, request);
  }
  return byUserOrder;
}

/**
 * At intake, in its transaction: each verified deposit stored after `afterId` to a proof's deposit address that proves
 * control (from the address, in the proof currency, at least deposit_min) is recorded once by the desk key.
 */
export function recordControlProofs(parts: Kernel & AuditRecorder, profile: string, afterId: number): void {
  const fresh = depositsWithUserOrderPrefixStoredAfter(parts.db, profile, afterId, PROOF_USER_ORDER_PREFIX);
  if (fresh.length === 0) return;
  const roster = parts.trail.roster(profile, { cached: true });
  const requests = requestsByUserOrder(parts.db, roster, profile);
  for (const deposit of fresh) {
    const request = requests.get(deposit.userOrder);
    if (request === undefined || !sameAddress(deposit.address, request.depositAddress, request.chain)) continue;
    if (depositRefusal(parts.db, profile, request, deposit) !== null) continue;
    const subject = proofSubject(request.chain, request.address);
    // Proven here already (by this workstation's proof, or another's that this deposit, just stored, corroborates).
    if (proofsOf(parts, roster, profile, subject).proven.some((entry) => entry.proof.userOrder === request.userOrder)) continue;
    const details: ControlProven = {
      chain: request.chain,
      address: request.address,
      userOrder: request.userOrder,
      depositAddress: request.depositAddress,
      txid: deposit.txid,
      apiOrder: deposit.apiOrder,
      fromAddress: deposit.fromAddress,
      currency: deposit.currency,
      amount: deposit.amount,
      fee: deposit.fee,
      seenAt: deposit.firstSeenAt,
    };
    parts.audit({ profile, action: CONTROL_PROVEN_ACTION, subject, details });
  }
}

function depositView(deposit: Deposit, refusal: string | null): ControlProofDeposit {
  return { txid: deposit.txid, apiOrder: deposit.apiOrder, fromAddress: deposit.fromAddress, currency: deposit.currency, amount: deposit.amount, at: deposit.firstSeenAt, refusal };
}

function instructionsFor(request: ProofRequest): string {
  const chain = request.chain;
  return (
    `ask the payee to send at least ${request.minimum} ${CURRENCIES[request.currency as CurrencySymbol]?.displayName ?? request.currency} ` +
    `FROM ${request.address} TO ${request.depositAddress}, on ${CHAIN_INFO[chain].displayName}, in one transfer they sign themselves (not from an exchange)`
  );
}

function checkChainAddress(chain: Chain, address: string): void {
  const check = validateAddress(chain, address);
  if (!check.valid) throw new DeskError('invalidInput', `${address.slice(0, 100)} is not a ${chain} address: ${check.reason}`, { address: check.reason });
}

/** Where the proof of `chain:address` stands, from the signed statements and the verified deposits. */
export function controlProofView(parts: DeskParts, chain: Chain, address: string): ControlProofView {
  checkChainAddress(chain, address);
  const profile = parts.activeProfile().name;
  const roster = parts.trail.roster(profile, { cached: true });
  const subject = proofSubject(chain, address);
  const capability = CONTROL_PROOF_BY_CHAIN[chain];
  const { proven, reported, refused } = proofsOf(parts, roster, profile, subject);
  const latest = proven.at(-1) ?? null;
  const proof = latest?.proof ?? null;
  const request = signedRequests(parts.db, roster, profile, subject).at(-1) ?? null;
  const standing: ControlStanding = proof === null ? { proven: false, at: null, txid: null } : { proven: true, at: proof.seenAt, txid: proof.txid };
  const deposits =
    request === null
      ? []
      : listDeposits(parts.db, { profile, search: request.userOrder, limit: 100 })
          .rows.filter((deposit) => deposit.userOrder === request.userOrder)
          .map((deposit) => depositView(deposit, depositRefusal(parts.db, profile, request, deposit)));
  const proving = proof === null ? null : (deposits.find((deposit) => deposit.apiOrder === proof.apiOrder) ?? { txid: proof.txid, apiOrder: proof.apiOrder, fromAddress: proof.fromAddress, currency: proof.currency, amount: proof.amount, at: proof.seenAt, refusal: null });
  const provenThisRound = proof !== null && request !== null && proof.userOrder === request.userOrder;
  const provenOrders = new Set(proven.map((entry) => entry.proof.userOrder));
  const reports = reported.filter((entry) => !provenOrders.has(entry.proof.userOrder));
  const reportedThisRound = request !== null && reports.some((entry) => entry.proof.userOrder === request.userOrder);
  const status = !capability.proves ? 'cannotProve' : proof !== null ? 'proven' : request === null ? 'none' : 'waiting';
  return {
    chain,
    address,
    status,
    chainCanProve: capability.proves,
    chainReason: capability.why,
    standing,
    request: request === null ? null : { userOrder: request.userOrder, depositAddress: request.depositAddress, currency: request.currency, minimum: request.minimum, requestedBy: request.by, requestedAt: request.at },
    instructions: request !== null && !provenThisRound && !reportedThisRound && capability.proves ? instructionsFor(request) : null,
    evidence: proving,
    provenBy: latest?.signedBy ?? null,
    reported: reports.map((entry) => ({ workstation: entry.signedBy.workstation, txid: entry.proof.txid, apiOrder: entry.proof.apiOrder, at: entry.proof.seenAt })),
    deposits: deposits.filter((deposit) => deposit.apiOrder !== proving?.apiOrder),
    refused,
  };
}

/**
 * An operator starts (or retries) a proof of `chain:address`, an address of the book (in force or waiting for its
 * approval): the deposit address comes from createAddress under a userOrder derived from the request, so a retry before
 * the proof arrives asks for the same address and signs nothing more. A chain that cannot prove it is refused with why.
 */
export async function startControlProof(parts: DeskParts & MerchantConnection, chain: Chain, address: string, as: OperatorCredentials): Promise<ControlProofView> {
  checkChainAddress(chain, address);
  const capability = CONTROL_PROOF_BY_CHAIN[chain];
  if (!capability.proves) throw new DeskError('invalidInput', `the desk cannot prove control of a ${CHAIN_INFO[chain].displayName} address: ${capability.why}`, { chain: 'cannot prove control' });
  const acting = await actingAs(parts, as, 'createAddress');
  const profile = acting.profile;
  const roster = acting.roster;
  const inBook = roster.bookEntry(chain, address) !== undefined;
  const waiting = roster.openProposals().some((proposal) => proposal.kind === 'book' && proposal.subject.startsWith(`${chain}:`) && sameAddress(proposal.subject.slice(chain.length + 1), address, chain));
  if (!inBook && !waiting) throw new DeskError('notFound', `${chain}:${address} is not in the address book: add it first (addressbook add), then prove control of it`);
  const stored = getCurrency(parts.db, profile, capability.currency);
  const minimum = stored === undefined ? undefined : stored.record['deposit_min'];
  if (typeof minimum !== 'string' || minimum === '') {
    throw new DeskError('conflict', `the desk has no currency table with the deposit minimum of ${capability.currency}: run "treasury-desk sync" first, then prove control`);
  }
  const subject = proofSubject(chain, address);
  const requests = signedRequests(parts.db, roster, profile, subject);
  const provenOrders = new Set(proofsOf(parts, roster, profile, subject).proven.map((entry) => entry.proof.userOrder));
  const open = requests.filter((request) => !provenOrders.has(request.userOrder)).at(-1);
  const round = open?.round ?? requests.reduce((highest, request) => Math.max(highest, request.round), 0) + 1;
  const userOrder = open?.userOrder ?? proofUserOrder(profile, chain, address, round);
  const created = await (await parts.merchantClient()).createAddress({ userOrder, addressType: CHAIN_INFO[chain].addressType });
  if (open !== undefined && open.depositAddress !== created.address) {
    throw new DeskError('conflict', `the service gave ${created.address} for proof ${userOrder}, but the signed request names ${open.depositAddress}: check with the platform`);
  }
  if (open === undefined) {
    const details = { userOrder, round, chain, address, depositAddress: created.address, addressType: created.addressType, currency: capability.currency, minimum };
    await signAction(acting, PROOF_REQUEST_ACTION, subject, details);
  }
  return controlProofView(parts, chain, address);
}

/**
 * The policy's "pay only addresses whose control is proven above A" (withdrawals/policy.ts provenControlAbove), or null
 * when it does not refuse: preflight, request, send, the simulator and the review ask it.
 */
export function provenControlIssue(
  parts: DeskParts,
  roster: Roster,
  facts: { readonly profile: string; readonly chain: Chain; readonly address: string; readonly amount: string; readonly currency: string; readonly policyName: string; readonly above: string | undefined },
): string | null {
  if (facts.above === undefined) return null;
  if (!parseMoney(facts.amount).greaterThan(parseMoney(facts.above))) return null;
  if (provenControl(parts, roster, facts.profile, facts.chain, facts.address) !== null) return null;
  return (
    `${facts.policyName} pays only addresses whose control is proven above ${facts.above} ${facts.currency} ("proven control above"): control of ${facts.chain}:${facts.address} is not proven; ` +
    `prove it (treasury-desk addressbook prove ${facts.chain} ${facts.address} --as OPERATOR) or pay at most ${facts.above}`
  );
}
