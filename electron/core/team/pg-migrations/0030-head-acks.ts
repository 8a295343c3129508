// PostgreSQL migration 0030: witnessed sends. Witness requests (a fresh nonce from the workstation about to send) and
// signed head acknowledgements (each workstation's verified head, bound to a nonce). Both tables are append-only:
// a new row per request and per ack, read newest per workstation; the workstation role appends them only through
// 0040's definer functions (request_witness, append_head_ack);
// nothing in them is trusted (every ack is checked against the desk key the verified chain enrolled). Runs inside the
// runner's transaction, in the `treasury_desk` schema.
import type { PgMigration } from './runner';

export const migration0030: PgMigration = {
  version: 30,
  name: 'head-acks',
  sql: `
CREATE TABLE witness_requests (
  id            bigserial PRIMARY KEY,
  nonce         text NOT NULL UNIQUE CHECK (nonce ~ '^[0-9a-f]{32}$'),
  workstation   text NOT NULL CHECK (length(workstation) BETWEEN 1 AND 200),
  requested_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX witness_requests_by_time ON witness_requests (requested_at);

CREATE TABLE head_acks (
  id           bigserial PRIMARY KEY,
  desk_id      text NOT NULL CHECK (length(desk_id) BETWEEN 1 AND 200),
  workstation  text NOT NULL CHECK (length(workstation) BETWEEN 1 AND 200),
  seq          bigint NOT NULL CHECK (seq >= 0),
  hash         text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  nonce        text CHECK (nonce ~ '^[0-9a-f]{32}$'),
  at           bigint NOT NULL,
  key_id       text NOT NULL CHECK (length(key_id) BETWEEN 1 AND 400),
  signature    text NOT NULL CHECK (length(signature) BETWEEN 1 AND 400),
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX head_acks_by_nonce ON head_acks (nonce, workstation, id);
CREATE INDEX head_acks_by_workstation ON head_acks (workstation, id);
`,
};
