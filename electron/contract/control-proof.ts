// Proof of control by a reverse micro-deposit (issue 21 item 2): the answers of `addressbook/prove` and
// `addressbook/proof`, and the one sentence every face shows of a destination's control ("control proven on DATE by
// deposit TXID" / "control not proven"), who proved it, and a proof another workstation of a team desk reports that
// this workstation's verified deposits do not hold yet. Plain JSON: amounts are exact decimal strings.
import { escapeSingleLine } from './display-text';

/** A destination's control as approvers are told it: proven (by a verified desk-signed statement) or not. */
export interface ControlStanding {
  readonly proven: boolean;
  /** When the proving deposit was seen (epoch ms) and its txid; null when not proven. */
  readonly at: number | null;
  readonly txid: string | null;
}

/** Where a proof stands: none asked, waiting for the payee's deposit, proven, or the chain cannot prove it. */
export type ControlProofStatus = 'none' | 'waiting' | 'proven' | 'cannotProve';

/** A deposit to a proof's deposit address, and why it does or does not prove control. */
export interface ControlProofDeposit {
  readonly txid: string;
  readonly apiOrder: string;
  readonly fromAddress: string;
  readonly currency: string;
  readonly amount: string;
  readonly at: number;
  /** Null when this deposit proves it; else why not: "a deposit came from X, not from the address". */
  readonly refusal: string | null;
}

/** Which desk key signed a proof: this workstation's own, or another's (the workstation its enrolment names; null for a key a founding named). */
export interface ControlProofSigner {
  readonly own: boolean;
  readonly workstation: string | null;
}

/** A well-signed proof by another workstation's desk key whose deposit this workstation has not verified itself: not proven here. */
export interface ControlProofReport {
  /** The workstation its enrolment names; null for a desk key a founding named. */
  readonly workstation: string | null;
  readonly txid: string;
  readonly apiOrder: string;
  /** When that workstation saw the deposit (epoch ms). */
  readonly at: number;
}

export interface ControlProofView {
  readonly chain: string;
  readonly address: string;
  readonly status: ControlProofStatus;
  /** Whether this chain's deposit record can prove control, and why (or why not): one table, withdrawals/control-proof.ts. */
  readonly chainCanProve: boolean;
  readonly chainReason: string;
  /** The standing line approvers see. */
  readonly standing: ControlStanding;
  /** The open or last request: the dedicated deposit address and its derived userOrder, who asked and when. */
  readonly request: {
    readonly userOrder: string;
    readonly depositAddress: string;
    readonly currency: string;
    /** The least the payee sends (the currency's deposit_min, before the service's deposit fee). */
    readonly minimum: string;
    readonly requestedBy: string;
    readonly requestedAt: number;
  } | null;
  /** What to tell the payee, or null when nothing is waiting. */
  readonly instructions: string | null;
  /** The proving deposit, when proven. */
  readonly evidence: ControlProofDeposit | null;
  /** Whose desk key signed the proof in force here (`standing`), when proven. */
  readonly provenBy: ControlProofSigner | null;
  /** Proofs other workstations signed that this workstation's verified deposits do not corroborate yet: not proven here. */
  readonly reported: readonly ControlProofReport[];
  /** Deposits to the proof's address that did not prove it, each with its reason. */
  readonly deposits: readonly ControlProofDeposit[];
  /** Proof statements found for this address that do not verify (altered or planted rows), each with its reason. */
  readonly refused: readonly string[];
}

/** The control line, the same in the approve dialog, the queue's detail, `withdraw show`, `policy test` and the prompt. */
export function controlStandingText(standing: ControlStanding, time: (ms: number) => string): string {
  return standing.proven && standing.at !== null && standing.txid !== null ? `control proven on ${time(standing.at)} by deposit ${standing.txid}` : 'control not proven';
}

/** Who signed a proof, as every face names it: "this workstation", "workstation B", or "a desk key the founding named". */
export function controlProofSignerText(signer: ControlProofSigner): string {
  if (signer.own) return 'this workstation';
  return signer.workstation === null ? 'a desk key the founding named' : `workstation ${escapeSingleLine(signer.workstation)}`;
}

/** The line a reported, not corroborated proof shows: who reported it, the deposit, and what to do here. */
export function controlProofReportText(report: ControlProofReport, time: (ms: number) => string): string {
  return (
    `reported by ${controlProofSignerText({ own: false, workstation: report.workstation })}: deposit ${escapeSingleLine(report.txid)} seen on ${time(report.at)}; ` +
    "not yet among this workstation's verified deposits, so control is not proven here: sync deposits here"
  );
}
