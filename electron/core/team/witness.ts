// Witnessed sends (APPROVALS.md "Witnessed sends", docs/team.md): before a team workstation sends an order to the
// service it asks every other enrolled, active workstation for a fresh signed head (an ack bound to a random nonce),
// and sends only when each answered and none holds a row its own verified chain lacks or a different row at a seq both
// have (fork detection, as Certificate Transparency gossips signed tree heads). This file also answers other
// workstations' requests: catch up, then sign the verified head. Invariant: whom to ask and which key an ack must
// verify against come from the verified local chain (`team/workstation` statements), never from a table.
import { randomBytes } from 'node:crypto';
import type { Kernel } from '../kernel/kernel';
import {
  auditHead,
  type AuditRecorder,
  type AuditRow,
  auditRowsOfAction,
  getAuditRow,
  WORKSTATION_ENROLMENT,
} from '../audit';
import { DeskError } from '../kernel/errors';
import { appLog } from '../log';
import {
  type HeadAck,
  headAckVerifies,
  parseStatement,
  readableFingerprint,
  type SignedHeadAck,
  WORKSTATION_RETIREMENT,
} from '../ledger';
import { recordTeamRefusal } from './team-table';
import type { SharedDeskStore, WitnessSignal } from './shared-store';

/** How long a send waits for every witness's signed head before it is refused (and stays resumable). */
export const WITNESS_WAIT_MS = 5_000;
/** How often the sender reads the acks while it waits, besides being told of each (a lost notification costs this). */
const WITNESS_POLL_MS = 250;
/** Requests older than this are not answered (their sender has long stopped waiting). */
const ANSWER_WINDOW_MS = 60_000;

/**
 * The audited action by which an admin retires a workstation from the desk (`team leave`): it is no longer asked to
 * witness a send. A later `team/workstation` enrolment of the same name makes it a witness again.
 */
export { WORKSTATION_RETIREMENT };

/** What the witness needs from the replicator that owns it. */
export interface WitnessHost {
  readonly context: Kernel & AuditRecorder;
  readonly store: SharedDeskStore;
  /** This workstation's name (its own requests are not answered by it, and it is never its own witness). */
  readonly workstation: string;
  /** Catches up with the team database (verifying every row); resolves to the rows applied. */
  pull(): Promise<number>;
  /** Why this workstation stopped trusting the team database, or null. */
  halted(): string | null;
  /** Refuses while halted or offline, saying why. */
  requireUsable(): void;
  /** Calls the team database, turning an outage into the offline state and refusal. */
  call<T>(what: () => Promise<T>): Promise<T>;
}

export interface EnrolledWorkstation {
  readonly name: string;
  readonly publicKey: string;
  /** The seq of the enrolment in force. */
  readonly seq: number;
}

/**
 * The workstations the verified local chain enrolled and did not retire, by name: the last `team/workstation`
 * enrolment of a name gives its desk key; an admin's later `team/workstationLeft` retires it. Every local row was
 * verified before it was stored (the enrolment's admin signature by the ChainVerifier).
 */
export function activeWorkstations(context: Kernel & AuditRecorder): Map<string, EnrolledWorkstation> {
  const events: { seq: number; row: AuditRow; enrol: boolean }[] = [
    ...auditRowsOfAction(context.db, WORKSTATION_ENROLMENT).map((row) => ({ seq: row.seq, row, enrol: true })),
    ...auditRowsOfAction(context.db, WORKSTATION_RETIREMENT).map((row) => ({ seq: row.seq, row, enrol: false })),
  ].sort((left, right) => left.seq - right.seq);
  const active = new Map<string, EnrolledWorkstation>();
  for (const { row, enrol } of events) {
    const statement = parseStatement(row.statement);
    if (statement === null || statement.operator === null || statement.kind !== 'action') continue;
    const details = statement.body['details'] as Record<string, unknown> | null | undefined;
    const name = details?.['workstation'];
    if (typeof name !== 'string') continue;
    if (enrol) {
      const publicKey = details?.['publicKey'];
      if (typeof publicKey === 'string') active.set(name, { name, publicKey, seq: row.seq });
      continue;
    }
    // A retirement counts only when an admin signed it (the roster as it stood at that row).
    const snapshot = context.trail.roster(statement.profile ?? '', { cached: true }).at(statement.operator, row.seq);
    if (snapshot?.role === 'admin' && snapshot.status === 'active') active.delete(name);
  }
  return active;
}

function fingerprintOf(hash: string): string {
  return readableFingerprint(Buffer.from(hash, 'hex'));
}

export class TeamWitness {
  readonly #host: WitnessHost;
  #lastRequestId = 0;
  #answering: Promise<void> | null = null;
  #answerAgain = false;
  /** The senders waiting for acks, by nonce: woken when an ack for it is posted. */
  readonly #waiting = new Map<string, () => void>();

  constructor(host: WitnessHost) {
    this.#host = host;
  }

  /** A signal from the team database's witness channel. */
  onSignal(signal: WitnessSignal): void {
    switch (signal.kind) {
      case 'request':
        this.answerPending();
        return;
      case 'ack':
        this.#waiting.get(signal.nonce)?.();
        return;
      default: {
        const unknown: never = signal;
        return unknown;
      }
    }
  }

  // ---- answering ----------------------------------------------------------------------------------------------
  /** Answers every open request of another workstation (one run at a time; a signal during a run runs it again). */
  answerPending(): void {
    if (this.#answering !== null) {
      this.#answerAgain = true;
      return;
    }
    this.#answering = (async () => {
      do {
        this.#answerAgain = false;
        await this.#answerOnce().catch((error: unknown) => appLog.warn('team: a witness request was not answered', { error }));
      } while (this.#answerAgain);
    })().finally(() => {
      this.#answering = null;
    });
  }

  /** Waits for the answers under way (tests, engine close). */
  async settled(): Promise<void> {
    await this.#answering;
  }

  async #answerOnce(): Promise<void> {
    const { store, workstation } = this.#host;
    for (;;) {
      const requests = await this.#host.call(() => store.witnessRequests(this.#lastRequestId, ANSWER_WINDOW_MS));
      if (requests.length === 0) return;
      const last = requests[requests.length - 1];
      if (last !== undefined) this.#lastRequestId = last.id;
      const others = requests.filter((request) => request.workstation !== workstation);
      if (others.length === 0) continue;
      // Catch up and verify first; a workstation that stopped trusting the database still signs what it verified.
      await this.#host.pull().catch(() => 0);
      for (const request of others) await this.#host.call(() => store.appendHeadAck(this.signedHead(request.nonce)));
    }
  }

  /** This workstation's verified head (its local chain: every row in it was verified), signed, bound to `nonce`. */
  signedHead(nonce: string | null): SignedHeadAck {
    const { context, workstation } = this.#host;
    const head = auditHead(context.db);
    const ack: HeadAck = { deskId: context.trail.deskId, workstation, seq: head?.seq ?? 0, hash: head?.hash ?? '0'.repeat(64), nonce, at: context.now() };
    return { ...ack, keyId: context.trail.deskKeyId, signature: context.trail.signHeadAck(ack) };
  }

  // ---- asking -------------------------------------------------------------------------------------------------
  /**
   * Obtains a fresh signed head from every other enrolled, active workstation and checks each against this
   * workstation's verified chain (catching up when a witness is ahead). Refuses, naming the workstation, when one does
   * not answer within WITNESS_WAIT_MS ('conflict': nothing was sent yet; the signed submission waits in 'submitting'
   * and the next sync or submit sends it once they answer) or holds a row this
   * chain lacks or a different row at a seq both have ('unverified': the team database withheld or replaced rows).
   */
  async witness(): Promise<void> {
    const { context, store, workstation } = this.#host;
    this.#host.requireUsable();
    await this.#host.pull();
    this.#host.requireUsable();
    const ownKey = context.trail.deskPublicKey;
    const witnesses = [...activeWorkstations(context).values()].filter((each) => each.name !== workstation && each.publicKey !== ownKey);
    if (witnesses.length === 0) return;
    const nonce = randomBytes(16).toString('hex');
    const answered = new Map<string, SignedHeadAck>();
    const ignored = new Map<string, string>();
    let wake: (() => void) | null = null;
    this.#waiting.set(nonce, () => wake?.());
    try {
      await this.#host.call(() => store.requestWitness(nonce, workstation));
      const deadline = performance.now() + WITNESS_WAIT_MS;
      for (;;) {
        const acks = await this.#host.call(() => store.headAcks(nonce));
        for (const ack of acks) this.#consider(ack, nonce, witnesses, answered, ignored);
        if (witnesses.every((each) => answered.has(each.name))) break;
        const left = deadline - performance.now();
        if (left <= 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, WITNESS_POLL_MS));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      this.#waiting.delete(nonce);
    }
    const missing = witnesses.filter((each) => !answered.has(each.name));
    if (missing.length > 0) {
      const names = missing.map((each) => `${each.name}${ignored.has(each.name) ? ` (${ignored.get(each.name) ?? ''})` : ''}`).join(', ');
      throw new DeskError(
        'conflict',
        `nothing was sent: workstation${missing.length === 1 ? '' : 's'} ${names} did not confirm ${missing.length === 1 ? 'its' : 'their'} verified audit head within ${WITNESS_WAIT_MS / 1000} s ` +
          '(every enrolled workstation witnesses a send, so a row held back from this workstation cannot lead to a payment). ' +
          "The submission is signed and waits in 'submitting': it is sent, once, when they confirm (the next sync resumes it, or submit again). " +
          'Start Treasury Desk on that workstation, or have an admin run `team leave` there if it left the desk for good',
      );
    }
    await this.#compare(witnesses.flatMap((each) => answered.get(each.name) ?? []));
  }

  /** Keeps a witness's ack when it is bound to this nonce and verifies against that workstation's enrolled desk key. */
  #consider(ack: SignedHeadAck, nonce: string, witnesses: readonly EnrolledWorkstation[], answered: Map<string, SignedHeadAck>, ignored: Map<string, string>): void {
    const enrolled = witnesses.find((each) => each.name === ack.workstation);
    if (enrolled === undefined || answered.has(enrolled.name)) return;
    if (ack.nonce !== nonce || ack.deskId !== this.#host.context.trail.deskId || !headAckVerifies(ack, enrolled.publicKey)) {
      ignored.set(enrolled.name, 'an answer in its name did not verify against its enrolled desk key and was ignored');
      return;
    }
    answered.set(enrolled.name, ack);
  }

  /**
   * Each witness's head must be a row of this workstation's verified chain (after one catch-up when a witness is
   * ahead); every witness holding a row this chain lacks is named, in enrolment order.
   */
  async #compare(acks: readonly SignedHeadAck[]): Promise<void> {
    const { context } = this.#host;
    if (acks.some((ack) => ack.seq > (auditHead(context.db)?.seq ?? 0))) {
      await this.#host.pull();
      const halted = this.#host.halted();
      if (halted !== null) throw new DeskError('unverified', `nothing was sent: this workstation stopped trusting the team database: ${halted}`);
    }
    const ownSeq = auditHead(context.db)?.seq ?? 0;
    const forks: { ack: SignedHeadAck; what: string }[] = [];
    for (const ack of acks) {
      const held = `workstation ${ack.workstation} has verified audit row ${ack.seq} (${fingerprintOf(ack.hash)}), a row this workstation's chain lacks`;
      if (ack.seq > ownSeq) {
        forks.push({ ack, what: `${held} (it ends at row ${ownSeq} and the team database has nothing after it): the team database withheld or deleted rows` });
        continue;
      }
      if (ack.seq === 0) continue;
      const own = getAuditRow(context.db, ack.seq);
      if (own?.hash !== ack.hash) {
        forks.push({
          ack,
          what: `${held}: its row ${ack.seq} is ${own === undefined ? 'missing' : `another one (${fingerprintOf(own.hash)})`}, so the team database showed the workstations different histories (a row was deleted or replaced)`,
        });
      }
    }
    if (forks.length === 0) return;
    const names = forks.map(({ ack }) => ack.workstation).join(' and ');
    const message =
      `nothing was sent: ${forks.map(({ what }) => what).join('; ')}. The request stays as it is; do not send it from elsewhere. ` +
      `Run \`team verify\` on workstation ${names} and here, and have IT restore the team database's missing rows (or report the tampering)`;
    for (const { ack } of forks) {
      recordTeamRefusal(context.db, { at: context.now(), source: 'witness', rowName: `audit row ${ack.seq} at workstation ${ack.workstation}`, reason: message });
    }
    context.emit({ type: 'team/changed' });
    throw new DeskError('unverified', message);
  }
}
