// Test support for the attacks on a team desk: rows a database user with no operator or workstation key can append,
// each linked after the shared head and hashed like the engine's, signed by a key they made (the store checks no
// signature; the workstations' verification must refuse them).
import type { KeyObject } from 'node:crypto';
import { auditRowHash, encodeStatement, signStatementText, STATEMENT_DOMAIN, type Statement, type StatementBody } from '../../../electron/core/statements/statement';
import { actionOf } from '../../../electron/core/audit/audit-table';
import type { ChainHead, SharedChainRow } from '../../../electron/core/team/shared-store';
import { databaseUrl, openTestStore } from './desk-support';

/** A key the attacker made, or a workstation identity of theirs (which signs without handing out its private key). */
export type ForgingKey = { readonly keyId: string; readonly privateKey: KeyObject } | { readonly keyId: string; sign(message: string): string };

/** What a forged row says, and the key it is signed with. */
export interface ForgedStatement {
  readonly kind: Statement['kind'];
  readonly profile?: string;
  readonly subject: string;
  readonly body: StatementBody;
  /** The operator it claims to be from; null for a desk-signed row. */
  readonly operator: string | null;
  readonly signer: ForgingKey;
}

/** One forged row linked after `previous` (null: the first row of the chain). */
export function forgedRow(previous: ChainHead | null, forged: ForgedStatement): SharedChainRow {
  const profile = forged.profile ?? 'main';
  const statement: Statement = {
    v: 1, kind: forged.kind, profile, subject: forged.subject, body: forged.body, operator: forged.operator, keyId: forged.signer.keyId,
    at: Date.now(), seq: (previous?.seq ?? 0) + 1, prev: previous?.hash ?? '0'.repeat(64),
  };
  const text = encodeStatement(statement);
  const signature = 'privateKey' in forged.signer ? signStatementText(forged.signer.privateKey, text) : forged.signer.sign(STATEMENT_DOMAIN + text);
  return {
    seq: statement.seq, at: statement.at, profile, kind: forged.kind, action: actionOf(forged.kind, forged.body), operator: forged.operator,
    subject: forged.subject, keyId: forged.signer.keyId, statement: text, signature, prevHash: statement.prev, hash: auditRowHash(text, signature),
  };
}

/**
 * Appends `statements` as consecutive rows at the shared head, as the workstation role can. The workstations may append
 * meanwhile (queued desk events): the rows are built again on the new head, at most 20 times. Answers the rows appended.
 */
export async function appendForged(statements: readonly ForgedStatement[]): Promise<SharedChainRow[]> {
  const store = await openTestStore(databaseUrl());
  try {
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const head = await store.head();
      const rows: SharedChainRow[] = [];
      for (const forged of statements) rows.push(forgedRow(rows.at(-1) ?? head, forged));
      if ((await store.append(rows, [], head)).appended) return rows;
    }
    throw new Error('the forged rows could not be appended after 20 attempts at a moving head');
  } finally {
    await store.close();
  }
}

/** appendForged for one row; answers its seq. */
export async function appendForgedRow(forged: ForgedStatement): Promise<number> {
  const [row] = await appendForged([forged]);
  if (row === undefined) throw new Error('no forged row was appended');
  return row.seq;
}
