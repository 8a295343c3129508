// PostgreSQL migration 0010: the team desk's schema. The signed chain (append-only: triggers refuse UPDATE, DELETE,
// TRUNCATE and an INSERT that does not extend it; an owner can disable triggers, so the workstations' verification
// is the real control), the projection tables (key + JSON row, indexed for the approvals queue), submission claims
// and the desk's identity. Runs inside the runner's transaction, in the `treasury_desk` schema.
import { projectionTable, type PgMigration } from './runner';

const GENESIS = '0'.repeat(64);
const HEX64 = "~ '^[0-9a-f]{64}$'";

export const migration0010: PgMigration = {
  version: 10,
  name: 'initial',
  sql: `
CREATE TABLE desk_identity (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  desk_id     text NOT NULL CHECK (length(desk_id) BETWEEN 1 AND 200),
  created_at  bigint NOT NULL
);

CREATE TABLE audit_log (
  seq         bigint PRIMARY KEY CHECK (seq >= 1),
  at          bigint NOT NULL,
  profile     text,
  kind        text NOT NULL CHECK (kind <> ''),
  action      text NOT NULL CHECK (action <> ''),
  operator    text,
  subject     text NOT NULL,
  key_id      text NOT NULL CHECK (key_id <> ''),
  statement   text NOT NULL CHECK (statement <> ''),
  signature   text NOT NULL CHECK (signature <> ''),
  prev_hash   text NOT NULL CHECK (prev_hash ${HEX64}),
  hash        text NOT NULL UNIQUE CHECK (hash ${HEX64})
);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: rows cannot be changed or deleted' USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();

CREATE FUNCTION audit_log_extends_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  SELECT seq, hash INTO last_seq, last_hash FROM treasury_desk.audit_log ORDER BY seq DESC LIMIT 1;
  IF NEW.seq IS DISTINCT FROM COALESCE(last_seq, 0) + 1 OR NEW.prev_hash IS DISTINCT FROM COALESCE(last_hash, '${GENESIS}') THEN
    RAISE EXCEPTION 'audit_log: a new row must extend the chain (seq = last seq + 1, prev_hash = last hash)'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER audit_log_extends_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_extends_chain();
${projectionTable('withdrawal_requests')}
CREATE INDEX withdrawal_requests_by_state ON withdrawal_requests ((data->>'state'), key);
CREATE INDEX withdrawal_requests_by_profile ON withdrawal_requests ((data->>'profile'), key);
${projectionTable('approvals')}
CREATE INDEX approvals_by_user_order ON approvals ((data->>'userOrder'), key);
${projectionTable('order_statuses')}
CREATE INDEX order_statuses_by_user_order ON order_statuses ((data->>'userOrder'), key);
${projectionTable('operators')}
${projectionTable('workstations')}

CREATE TABLE submission_claims (
  user_order   text PRIMARY KEY CHECK (length(user_order) BETWEEN 1 AND 200),
  workstation  text NOT NULL CHECK (length(workstation) BETWEEN 1 AND 200),
  lease_until  timestamptz NOT NULL,
  state        text NOT NULL CHECK (state IN ('claimed', 'sent', 'unknown', 'done')),
  result       text,
  claimed_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
`,
};
