// Test support: a chain of signed rows of one profile ("main"), built the way the engine appends them, with the
// roster steps (founding, invitation, acceptance, confirmation) as one-liners, for tests that replay rosters and
// parties from rows they make themselves.
import type { KeyObject } from 'node:crypto';
import { Roster, type ChainRow } from '../../electron/core/ledger/roster';
import { generateSigningKey, type SigningKeyPair } from '../../electron/core/statements/keys';
import { canonicalHash, type StatementBody, type StatementKind } from '../../electron/core/statements/statement';
import { signedRow } from './signed-rows';

export interface Person {
  readonly name: string;
  readonly key: SigningKeyPair;
}

export const person = (name: string): Person => ({ name, key: generateSigningKey() });
/** The desk key the founders endorse (and that signs system rows). */
export const DESK = generateSigningKey();

export class Chain {
  readonly rows: ChainRow[] = [];

  add(
    by: Person | null,
    kind: StatementKind,
    subject: string,
    body: StatementBody,
    options: { signWith?: KeyObject; keyId?: string; operator?: string | null; at?: number } = {},
  ): ChainRow {
    const row = signedRow(
      this.rows.at(-1),
      {
        kind,
        profile: 'main',
        subject,
        body,
        operator: options.operator !== undefined ? options.operator : (by?.name ?? null),
        keyId: options.keyId ?? by?.key.keyId ?? DESK.keyId,
        at: options.at ?? 1_000 + this.rows.length,
      },
      options.signWith ?? by?.key.privateKey ?? DESK.privateKey,
    );
    this.rows.push(row);
    return row;
  }

  /** Both founders (or the only one) sign the same founding. */
  found(...admins: Person[]): string {
    const body: StatementBody = {
      admins: admins.map((admin) => ({ name: admin.name, publicKey: admin.key.publicKey })),
      deskKey: { publicKey: DESK.publicKey },
      merchantId: 'M-1001',
    };
    const subject = canonicalHash(body);
    for (const admin of admins) this.add(admin, 'found', subject, body);
    return subject;
  }

  /** An admin invites; returns the proposal id (the invitation row's hash). */
  invite(by: Person, who: Person, role: string): string {
    return this.add(by, 'enrol', who.name, { role, codeHash: 'c'.repeat(64) }).hash;
  }

  accept(who: Person, proposal: string, key: SigningKeyPair = who.key): ChainRow {
    return this.add(who, 'accept', who.name, { proposal, publicKey: key.publicKey }, { signWith: key.privateKey, keyId: key.keyId });
  }

  confirm(by: Person, proposal: string, keyId?: string): ChainRow {
    return this.add(by, 'confirm', 'x', keyId === undefined ? { proposal } : { proposal, keyId });
  }

  /** Invites `who` as `role`, who accepts; a second admin confirms when given (else `by` alone enrolled them). */
  enrol(by: Person, who: Person, role: string, confirmer: Person | null = null): void {
    const proposal = this.invite(by, who, role);
    this.accept(who, proposal);
    if (confirmer !== null) this.confirm(confirmer, proposal, who.key.keyId);
  }

  roster(): Roster {
    return Roster.replay(this.rows);
  }
}
