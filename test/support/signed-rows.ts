// Test support: one signed audit row built exactly as the engine appends it (seq and prev inside the signed statement),
// without a database, for tests that replay rosters and parties from rows they make themselves.
import type { KeyObject } from 'node:crypto';
import type { ChainRow } from '../../electron/core/ledger/roster';
import { auditRowHash, CHAIN_GENESIS, encodeStatement, signStatementText, type Statement } from '../../electron/core/statements/statement';

/** The next row after `previous` (or the first), signed with `privateKey`. */
export function signedRow(previous: ChainRow | undefined, fields: Omit<Statement, 'v' | 'seq' | 'prev'>, privateKey: KeyObject): ChainRow {
  const statement: Statement = { v: 1, ...fields, seq: (previous?.seq ?? 0) + 1, prev: previous?.hash ?? CHAIN_GENESIS };
  const text = encodeStatement(statement);
  const signature = signStatementText(privateKey, text);
  return { seq: statement.seq, hash: auditRowHash(text, signature), text, signature, statement };
}
