// PostgreSQL migration 0020: projection tables for IT's queries on batch payouts, the address book and labels
// (written with the statements that change them, checked by every workstation like the others). Runs inside the
// runner's transaction, in the `treasury_desk` schema.
import { projectionTable, type PgMigration } from './runner';

export const migration0020: PgMigration = {
  version: 20,
  name: 'desk-state-projections',
  sql: `
${projectionTable('payout_batches')}
CREATE INDEX payout_batches_by_state ON payout_batches ((data->>'state'), key);
${projectionTable('address_book')}
CREATE INDEX address_book_by_state ON address_book ((data->>'state'), key);
${projectionTable('labels')}
`,
};
