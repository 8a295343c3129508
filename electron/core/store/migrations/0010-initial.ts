// Migration 0010: the initial schema. Profiles (never a secret), currencies, balances, deposit addresses, deposits,
// withdrawal requests with their status history, operators, approvals, address book, policies, sync state, settings.
// Money columns are TEXT holding decimal strings (a CHECK refuses anything else); times are INTEGER epoch milliseconds.
import type { Migration } from './runner';

/**
 * A CHECK that keeps a column a plain decimal string: digits, at most one '.', digits on both sides of it (§9.1).
 * Money columns are declared ANY so a STRICT table keeps a bound number as a number (TEXT would silently coerce
 * 12.5 to '12.5'), which typeof() then refuses: a JavaScript number never becomes an amount (house rule 1).
 */
function decimalText(column: string): string {
  return (
    `typeof(${column}) = 'text' AND ${column} <> '' AND ${column} NOT GLOB '*[^0-9.]*' ` +
    `AND ${column} NOT GLOB '*.*.*' AND ${column} NOT GLOB '.*' AND ${column} NOT GLOB '*.'`
  );
}

const boolean = (column: string): string => `CHECK (${column} IN (0, 1))`;

export const SCHEMA_0010 = `
CREATE TABLE profiles (
  name          TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
  base_url      TEXT NOT NULL CHECK (base_url <> ''),
  merchant_id   TEXT NOT NULL CHECK (merchant_id <> ''),
  callback_host TEXT,
  callback_port INTEGER CHECK (callback_port IS NULL OR callback_port BETWEEN 0 AND 65535),
  demo          INTEGER NOT NULL DEFAULT 0 ${boolean('demo')},
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE currencies (
  profile     TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  symbol      TEXT NOT NULL,
  record_json TEXT NOT NULL CHECK (json_valid(record_json)),
  fetched_at  INTEGER NOT NULL,
  PRIMARY KEY (profile, symbol)
) STRICT, WITHOUT ROWID;

CREATE TABLE balance_snapshots (
  id               INTEGER PRIMARY KEY,
  profile          TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  currency         TEXT NOT NULL,
  available        ANY NOT NULL CHECK (${decimalText('available')}),
  frozen           ANY NOT NULL CHECK (${decimalText('frozen')}),
  observed_at      INTEGER NOT NULL,
  last_observed_at INTEGER NOT NULL
) STRICT;
CREATE INDEX balance_snapshots_by_currency ON balance_snapshots (profile, currency, observed_at, id);

CREATE TABLE deposit_addresses (
  id           INTEGER PRIMARY KEY,
  profile      TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  address      TEXT NOT NULL,
  address_type TEXT NOT NULL,
  user_order   TEXT NOT NULL,
  label        TEXT,
  created_at   INTEGER NOT NULL,
  raw_json     TEXT NOT NULL CHECK (json_valid(raw_json)),
  UNIQUE (profile, user_order)
) STRICT;
CREATE INDEX deposit_addresses_by_address ON deposit_addresses (profile, address);
CREATE INDEX deposit_addresses_by_created ON deposit_addresses (profile, created_at, id);

CREATE TABLE deposits (
  id            INTEGER PRIMARY KEY,
  profile       TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  api_order     TEXT NOT NULL,
  user_order    TEXT NOT NULL,
  business_type TEXT NOT NULL,
  txid          TEXT NOT NULL,
  address       TEXT NOT NULL,
  address_type  TEXT NOT NULL,
  from_address  TEXT NOT NULL,
  currency      TEXT NOT NULL,
  amount        ANY NOT NULL CHECK (${decimalText('amount')}),
  fee           ANY NOT NULL CHECK (${decimalText('fee')}),
  raw_json      TEXT NOT NULL CHECK (json_valid(raw_json)),
  source        TEXT NOT NULL CHECK (source IN ('callback', 'query')),
  first_seen_at INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  UNIQUE (profile, api_order)
) STRICT;
-- Keyset pages, newest first: (first_seen_at, id) walked backwards within a profile, optionally one currency.
CREATE INDEX deposits_by_seen ON deposits (profile, first_seen_at, id);
CREATE INDEX deposits_by_currency_seen ON deposits (profile, currency, first_seen_at, id);
CREATE INDEX deposits_by_txid ON deposits (profile, txid COLLATE NOCASE);
CREATE INDEX deposits_by_user_order ON deposits (profile, user_order);

CREATE TABLE operators (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  name            TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 64),
  role            TEXT NOT NULL CHECK (role IN ('viewer', 'initiator', 'approver', 'admin')),
  passphrase_hash TEXT NOT NULL CHECK (passphrase_hash <> ''),
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  disabled        INTEGER NOT NULL DEFAULT 0 ${boolean('disabled')}
) STRICT;

CREATE TABLE withdrawal_requests (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  profile         TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE,
  currency        TEXT NOT NULL,
  amount          ANY NOT NULL CHECK (${decimalText('amount')}),
  to_address      TEXT NOT NULL CHECK (to_address <> ''),
  withdraw_type   TEXT NOT NULL CHECK (withdraw_type <> ''),
  memo            TEXT CHECK (memo IS NULL OR length(memo) <= 255),
  user_order      TEXT NOT NULL UNIQUE
                  CHECK (length(user_order) BETWEEN 1 AND 64 AND user_order NOT GLOB '*[^A-Za-z0-9_-]*'),
  initiator_id    INTEGER NOT NULL REFERENCES operators(id),
  state           TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  api_order       TEXT,
  order_status    TEXT,
  order_status_at INTEGER,
  fee             ANY CHECK (fee IS NULL OR (${decimalText('fee')})),
  txid            TEXT,
  raw_json        TEXT CHECK (raw_json IS NULL OR json_valid(raw_json))
) STRICT;
CREATE INDEX withdrawal_requests_by_created ON withdrawal_requests (profile, created_at, id);
CREATE INDEX withdrawal_requests_by_state ON withdrawal_requests (profile, state, created_at, id);

-- Every status observed for a request, once per (request, status) (PROTOCOL §10.5), with when and how.
CREATE TABLE withdrawal_status_history (
  id          INTEGER PRIMARY KEY,
  request_id  INTEGER NOT NULL REFERENCES withdrawal_requests(id),
  status      TEXT NOT NULL CHECK (status <> ''),
  observed_at INTEGER NOT NULL,
  source      TEXT NOT NULL CHECK (source IN ('create', 'query', 'callback')),
  raw_json    TEXT NOT NULL CHECK (json_valid(raw_json)),
  UNIQUE (request_id, status)
) STRICT;

CREATE TABLE approvals (
  id          INTEGER PRIMARY KEY,
  request_id  INTEGER NOT NULL REFERENCES withdrawal_requests(id),
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  decision    TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
  reason      TEXT,
  at          INTEGER NOT NULL,
  UNIQUE (request_id, operator_id)
) STRICT;
CREATE INDEX approvals_by_operator ON approvals (operator_id);

CREATE TABLE address_book (
  id            INTEGER PRIMARY KEY,
  profile       TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  chain         TEXT NOT NULL,
  address       TEXT NOT NULL CHECK (address <> ''),
  label         TEXT,
  created_at    INTEGER NOT NULL,
  first_used_at INTEGER,
  last_used_at  INTEGER,
  use_count     INTEGER NOT NULL DEFAULT 0 CHECK (use_count >= 0),
  UNIQUE (profile, chain, address)
) STRICT;
CREATE INDEX address_book_by_last_use ON address_book (profile, last_used_at);

CREATE TABLE policies (
  profile                    TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  currency                   TEXT NOT NULL,
  approval_thresholds_json   TEXT NOT NULL CHECK (json_valid(approval_thresholds_json) AND json_type(approval_thresholds_json) = 'array'),
  daily_limit                ANY CHECK (daily_limit IS NULL OR (${decimalText('daily_limit')})),
  use_financial_confirmation INTEGER NOT NULL DEFAULT 0 ${boolean('use_financial_confirmation')},
  updated_at                 INTEGER NOT NULL,
  PRIMARY KEY (profile, currency)
) STRICT, WITHOUT ROWID;

CREATE TABLE sync_state (
  profile            TEXT NOT NULL REFERENCES profiles(name) ON UPDATE CASCADE ON DELETE CASCADE,
  resource           TEXT NOT NULL,
  last_attempt_at    INTEGER,
  last_success_at    INTEGER,
  last_error_kind    TEXT,
  last_error_message TEXT,
  progress_json      TEXT CHECK (progress_json IS NULL OR json_valid(progress_json)),
  PRIMARY KEY (profile, resource)
) STRICT, WITHOUT ROWID;

CREATE TABLE settings (
  key        TEXT PRIMARY KEY CHECK (key <> ''),
  value_json TEXT NOT NULL CHECK (json_valid(value_json)),
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

export const migration0010: Migration = {
  version: 10,
  name: 'initial',
  up(db) {
    db.exec(SCHEMA_0010);
  },
};
