// PostgreSQL migration 0040: least privilege. The owner role (the one running migrations and `team init`) keeps the
// tables; the workstations' group role may only read them and call SECURITY DEFINER functions that append (a chain
// row on the condition of the head, with its projection rows), take or update a submission claim, or append a witness
// request or a signed head acknowledgement (0030's tables). Invariant: the
// workstation role holds no INSERT, UPDATE, DELETE, TRUNCATE, TRIGGER or ownership on any table of the schema.
import type { PgMigration } from './runner';

/** The group role every workstation's login role is a member of (IT creates it, NOLOGIN; see the README). */
export const WORKSTATION_ROLE = 'treasury_desk_workstation';

/** pg_advisory_xact_lock key serialising appends: "tdappend" in ASCII, as a decimal int8 (the store used it before). */
export const APPEND_LOCK_KEY = BigInt('0x7464617070656e64').toString();

/**
 * The functions the workstation role may EXECUTE, with their argument types (GRANT names a function by them). A later
 * migration that adds a write for the workstations (e.g. head acknowledgements) adds its definer function to this
 * pattern: CREATE it SECURITY DEFINER with `SET search_path`, REVOKE from PUBLIC, GRANT EXECUTE to WORKSTATION_ROLE.
 */
export const WORKSTATION_FUNCTIONS: readonly string[] = [
  'append_chain(bigint, text, bigint[], bigint[], text[], text[], text[], text[], text[], text[], text[], text[], text[], text[], jsonb)',
  'claim_submission(text, text, bigint)',
  'update_claim(text, text, text, boolean, text, bigint)',
  'request_witness(text, text)',
  'append_head_ack(text, text, bigint, text, text, bigint, text, text)',
];

const PROJECTIONS = ['withdrawal_requests', 'approvals', 'order_statuses', 'operators', 'workstations', 'payout_batches', 'address_book', 'labels'];

// Every definer function fixes its search_path (pg_catalog first, then the schema) so a caller's objects cannot stand
// in for the ones it names; the tables are named with the schema anyway.
const DEFINER = `SECURITY DEFINER SET search_path = pg_catalog, treasury_desk`;

export const migration0040: PgMigration = {
  version: 40,
  name: 'roles',
  sql: `
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '${WORKSTATION_ROLE}') THEN
    RAISE EXCEPTION 'the role ${WORKSTATION_ROLE} does not exist: IT creates it first (CREATE ROLE ${WORKSTATION_ROLE} NOLOGIN) and grants it to each workstation''s login role, as the README''s "Team database (for IT)" says'
      USING ERRCODE = 'undefined_object';
  END IF;
END $$;

-- Appends rows that extend the head the caller expects (NULLs: an empty chain), with their projection rows, and
-- notifies the new head's seq. Answers whether it appended and the head it found or made. The projection rows are
-- upserted here only, together with chain rows, into the eight projection tables and no other.
CREATE FUNCTION append_chain(
  p_expected_seq bigint, p_expected_hash text,
  p_seq bigint[], p_at bigint[], p_profile text[], p_kind text[], p_action text[], p_operator text[], p_subject text[],
  p_key_id text[], p_statement text[], p_signature text[], p_prev_hash text[], p_hash text[],
  p_projections jsonb
) RETURNS TABLE (appended boolean, head_seq bigint, head_hash text) LANGUAGE plpgsql ${DEFINER} AS $$
DECLARE
  current_seq bigint;
  current_hash text;
  write jsonb;
  target text;
BEGIN
  PERFORM pg_advisory_xact_lock(${APPEND_LOCK_KEY}::bigint);
  SELECT l.seq, l.hash INTO current_seq, current_hash FROM treasury_desk.audit_log l ORDER BY l.seq DESC LIMIT 1;
  IF current_seq IS DISTINCT FROM p_expected_seq OR current_hash IS DISTINCT FROM p_expected_hash THEN
    RETURN QUERY SELECT false, current_seq, current_hash;
    RETURN;
  END IF;
  IF coalesce(array_length(p_seq, 1), 0) = 0 THEN
    RAISE EXCEPTION 'append_chain: an append needs at least one chain row' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO treasury_desk.audit_log (seq, at, profile, kind, action, operator, subject, key_id, statement, signature, prev_hash, hash)
    SELECT * FROM unnest(p_seq, p_at, p_profile, p_kind, p_action, p_operator, p_subject, p_key_id, p_statement, p_signature, p_prev_hash, p_hash);
  IF jsonb_typeof(coalesce(p_projections, '[]'::jsonb)) <> 'array' THEN
    RAISE EXCEPTION 'append_chain: projections must be a JSON array' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  FOR write IN SELECT value FROM jsonb_array_elements(coalesce(p_projections, '[]'::jsonb)) LOOP
    target := write->>'table';
    IF target IS NULL OR NOT (target = ANY (ARRAY[${PROJECTIONS.map((name) => `'${name}'`).join(', ')}])) THEN
      RAISE EXCEPTION 'append_chain: no projection table named %', left(coalesce(target, '(none)'), 40) USING ERRCODE = 'invalid_parameter_value';
    END IF;
    EXECUTE format('INSERT INTO treasury_desk.%I (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = excluded.data, updated_at = now()', target)
      USING write->>'key', write->'row';
  END LOOP;
  PERFORM pg_notify('treasury_desk', p_seq[array_upper(p_seq, 1)]::text);
  RETURN QUERY SELECT true, p_seq[array_upper(p_seq, 1)], p_hash[array_upper(p_hash, 1)];
END $$;

-- Takes the submission claim on a userOrder: a new claim, the holder's own renewed, or an expired one taken over (its
-- row comes back as 'previous'); a live lease of another workstation or a done claim comes back as 'held'. The same
-- rule as shared-store-rules.ts decideClaim (the SQLite store's), here so the database enforces it.
CREATE FUNCTION claim_submission(p_user_order text, p_workstation text, p_lease_ms bigint)
RETURNS TABLE (outcome text, c_user_order text, c_workstation text, c_lease_until_ms float8, c_state text, c_result text)
LANGUAGE plpgsql ${DEFINER} AS $$
DECLARE
  existing treasury_desk.submission_claims%ROWTYPE;
  taken treasury_desk.submission_claims%ROWTYPE;
BEGIN
  IF p_lease_ms IS NULL OR p_lease_ms < 1 THEN
    RAISE EXCEPTION 'claim_submission: the lease must be at least 1 ms' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  INSERT INTO treasury_desk.submission_claims AS s (user_order, workstation, lease_until, state)
    VALUES (p_user_order, p_workstation, now() + p_lease_ms * interval '1 millisecond', 'claimed')
    ON CONFLICT (user_order) DO NOTHING RETURNING s.* INTO taken;
  IF FOUND THEN
    RETURN QUERY SELECT 'claimed', taken.user_order, taken.workstation, floor(extract(epoch FROM taken.lease_until) * 1000)::float8, taken.state, taken.result;
    RETURN;
  END IF;
  SELECT s.* INTO existing FROM treasury_desk.submission_claims s WHERE s.user_order = p_user_order FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the claim for % vanished while being taken; try again', p_user_order USING ERRCODE = 'serialization_failure';
  END IF;
  IF existing.state = 'done' OR (existing.workstation <> p_workstation AND existing.lease_until >= now()) THEN
    RETURN QUERY SELECT 'held', existing.user_order, existing.workstation, floor(extract(epoch FROM existing.lease_until) * 1000)::float8, existing.state, existing.result;
    RETURN;
  END IF;
  IF existing.workstation = p_workstation THEN
    UPDATE treasury_desk.submission_claims s SET lease_until = now() + p_lease_ms * interval '1 millisecond', updated_at = now()
      WHERE s.user_order = p_user_order RETURNING s.* INTO taken;
  ELSE
    UPDATE treasury_desk.submission_claims s SET workstation = p_workstation, lease_until = now() + p_lease_ms * interval '1 millisecond',
        state = 'claimed', result = NULL, claimed_at = now(), updated_at = now()
      WHERE s.user_order = p_user_order RETURNING s.* INTO taken;
    RETURN QUERY SELECT 'previous', existing.user_order, existing.workstation, floor(extract(epoch FROM existing.lease_until) * 1000)::float8, existing.state, existing.result;
  END IF;
  RETURN QUERY SELECT 'claimed', taken.user_order, taken.workstation, floor(extract(epoch FROM taken.lease_until) * 1000)::float8, taken.state, taken.result;
END $$;

-- Moves the holder's own claim on (sent, unknown, done), optionally setting its result and renewing its lease; a done
-- claim stays as it is. Answers whether a claim changed.
CREATE FUNCTION update_claim(p_user_order text, p_workstation text, p_state text, p_set_result boolean, p_result text, p_lease_ms bigint)
RETURNS boolean LANGUAGE plpgsql ${DEFINER} AS $$
DECLARE
  changed integer;
BEGIN
  UPDATE treasury_desk.submission_claims s
    SET state = p_state,
        result = CASE WHEN p_set_result THEN p_result ELSE s.result END,
        lease_until = CASE WHEN p_lease_ms IS NULL THEN s.lease_until ELSE now() + p_lease_ms * interval '1 millisecond' END,
        updated_at = now()
    WHERE s.user_order = p_user_order AND s.workstation = p_workstation AND s.state <> 'done';
  GET DIAGNOSTICS changed = ROW_COUNT;
  RETURN changed = 1;
END $$;

-- Appends a witness request (0030) and tells the other workstations on the witness channel (postgres-store.ts
-- WITNESS_CHANNEL); answers the new row. Notifications from a definer function reach every listener as any other.
CREATE FUNCTION request_witness(p_nonce text, p_workstation text)
RETURNS TABLE (id bigint, nonce text, workstation text) LANGUAGE plpgsql ${DEFINER} AS $$
DECLARE
  made treasury_desk.witness_requests%ROWTYPE;
BEGIN
  INSERT INTO treasury_desk.witness_requests AS w (nonce, workstation) VALUES (p_nonce, p_workstation) RETURNING w.* INTO made;
  PERFORM pg_notify('treasury_desk_witness', 'request');
  RETURN QUERY SELECT made.id, made.nonce, made.workstation;
END $$;

-- Appends a signed head acknowledgement (0030; checked by the reader against the enrolled desk key, never trusted
-- here) and notifies the witness channel with the nonce it answers ('ack:' alone for an ack bound to none).
CREATE FUNCTION append_head_ack(p_desk_id text, p_workstation text, p_seq bigint, p_hash text, p_nonce text, p_at bigint, p_key_id text, p_signature text)
RETURNS void LANGUAGE plpgsql ${DEFINER} AS $$
BEGIN
  INSERT INTO treasury_desk.head_acks (desk_id, workstation, seq, hash, nonce, at, key_id, signature)
    VALUES (p_desk_id, p_workstation, p_seq, p_hash, p_nonce, p_at, p_key_id, p_signature);
  PERFORM pg_notify('treasury_desk_witness', 'ack:' || coalesce(p_nonce, ''));
END $$;

-- Grants: nothing to PUBLIC; the workstations read every table (those of earlier migrations, 0030's witness requests
-- and head acknowledgements included, and those later migrations create) and execute the functions above only.
REVOKE ALL ON SCHEMA treasury_desk FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA treasury_desk FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA treasury_desk FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA treasury_desk FROM PUBLIC;
GRANT USAGE ON SCHEMA treasury_desk TO ${WORKSTATION_ROLE};
GRANT SELECT ON ALL TABLES IN SCHEMA treasury_desk TO ${WORKSTATION_ROLE};
ALTER DEFAULT PRIVILEGES IN SCHEMA treasury_desk GRANT SELECT ON TABLES TO ${WORKSTATION_ROLE};
${WORKSTATION_FUNCTIONS.map((signature) => `GRANT EXECUTE ON FUNCTION ${signature} TO ${WORKSTATION_ROLE};`).join('\n')}
`,
};
