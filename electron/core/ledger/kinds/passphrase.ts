// The rule of a re-sealed passphrase (`passphrase`): the operator's own statement with their current key, which a
// disabled operator may still sign (it changes nothing they may decide); its body is empty.
import { z } from 'zod';
import { defineKind } from '../kind';

export const passphraseRule = defineKind({
  signer: 'enrolledOperator',
  body: z.object({}),
  check: (row) => (row.statement.subject.toLowerCase() === (row.statement.operator ?? '').toLowerCase() ? null : `${row.statement.operator ?? ''} re-sealed the key of ${row.statement.subject}: an operator re-seals only their own`),
});
