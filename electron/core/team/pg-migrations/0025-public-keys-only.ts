// PostgreSQL migration 0025: the team database holds public keys only (APPROVALS.md "Public keys only"). Earlier
// workstations wrote each operator's passphrase-sealed private key into the `operators` projection rows; this removes
// the `sealedKey` field from every such row (each operator now has a key per workstation, kept there). Runs inside the
// runner's transaction, in the `treasury_desk` schema, as the owner role.
import type { PgMigration } from './runner';

export const migration0025: PgMigration = {
  version: 25,
  name: 'public-keys-only',
  sql: `
UPDATE operators SET data = data - 'sealedKey', updated_at = now() WHERE data ? 'sealedKey';
`,
};
