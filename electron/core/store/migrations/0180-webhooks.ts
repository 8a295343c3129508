// Migration 0180: outbound webhooks (issue 22 item 6). The merchant's endpoints per profile (the url and the event
// kinds they want; the signing secret is never here: it lives in the desk's secret store), the events queued for each
// endpoint (one row per delivery, queued in the transaction that claims the occurrence; a redelivery is a new row
// for the same event id, each sealed so an edited row is never sent), and every attempt made (status, duration, escaped error, a bounded response snippet).
import type { Migration } from './runner';

export const SCHEMA_0180 = `
CREATE TABLE webhook_endpoints (
  id          INTEGER PRIMARY KEY,
  profile     TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  url         TEXT NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  events_json TEXT NOT NULL CHECK (json_valid(events_json) AND json_type(events_json) = 'array'),
  enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  created_by  TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  removed_at  INTEGER,
  -- HMAC by the desk's sealing key over the id, profile, url and events (webhooks/seal.ts): an edited row sends nothing.
  seal        TEXT NOT NULL DEFAULT '' CHECK (seal = '' OR length(seal) = 64)
) STRICT;

CREATE TABLE webhook_deliveries (
  id              INTEGER PRIMARY KEY,
  endpoint_id     INTEGER NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id        TEXT NOT NULL CHECK (length(event_id) BETWEEN 1 AND 100),
  event_type      TEXT NOT NULL CHECK (event_type <> ''),
  body            TEXT NOT NULL CHECK (json_valid(body)),
  -- HMAC by the desk's sealing key (webhooks/seal.ts) over the endpoint, the event id and the body: checked before sending.
  seal            TEXT NOT NULL CHECK (length(seal) = 64),
  redelivery_of   INTEGER REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  -- pending: waiting for its next attempt; delivered: a 2xx answer; failed: every attempt failed;
  -- elsewhere: another workstation of the team desk holds the claim to send it.
  state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'elsewhere')),
  attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (endpoint_id, event_id) WHERE redelivery_of IS NULL;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);

CREATE TABLE webhook_attempts (
  id          INTEGER PRIMARY KEY,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  at          INTEGER NOT NULL,
  status      INTEGER,
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
  error       TEXT,
  snippet     TEXT CHECK (snippet IS NULL OR length(snippet) <= 200)
) STRICT;

CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
`;

export const migration0180: Migration = {
  version: 180,
  name: 'webhooks',
  up(db) {
    db.exec(SCHEMA_0180);
  },
};
