#!/usr/bin/env bash
# Runs CMD ARGS... against a private, throwaway PostgreSQL cluster: everything lives in one temporary folder that is
# removed at the end, and only that cluster is ever stopped; exits with CMD's status.
#
#   bash scripts/with-postgres.sh npx vitest run test/integration/team
#
# How: initdb and pg_ctl run as the `postgres` user (the server refuses root; as a non-root user they run as that
# user) on a free loopback port, listening on 127.0.0.1 only, with its Unix socket inside the folder; a role and a
# database are created with a random password (scram-sha-256) and CMD runs with
#   TREASURY_DESK_DATABASE_URL=postgres://ROLE:PASSWORD@127.0.0.1:PORT/DB
#   TREASURY_DESK_PG_CTL=<folder>/pg-ctl   (`$TREASURY_DESK_PG_CTL stop|start|restart|status`: this cluster only,
#                                           for outage tests; stop is `-m fast`, start waits until it accepts)
#   TREASURY_DESK_PG_HARNESS=<folder>      (tests may check it to know they talk to a throwaway cluster)
# Then exactly that cluster is stopped (pg_ctl stop -m fast) and the folder removed, on every exit path (failure,
# INT, TERM). Binaries: TREASURY_PG_BIN, else /usr/lib/postgresql/15/bin, else the newest /usr/lib/postgresql/*/bin.
# Works nested inside with-node.sh and with-keyring.sh, as root without a TTY (CI). Exit status: CMD's, or 2 when
# the cluster itself cannot start.
set -uo pipefail

die() {
  echo "with-postgres: $*" >&2
  exit 2
}

if [ "$#" -eq 0 ]; then
  die "usage: bash scripts/with-postgres.sh CMD [ARGS...]  (runs CMD with TREASURY_DESK_DATABASE_URL of a private cluster)"
fi

pg_bin=${TREASURY_PG_BIN:-}
if [ -z "$pg_bin" ]; then
  if [ -x /usr/lib/postgresql/15/bin/initdb ]; then
    pg_bin=/usr/lib/postgresql/15/bin
  else
    pg_bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)
  fi
fi
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ] || [ ! -x "$pg_bin/pg_ctl" ] || [ ! -x "$pg_bin/psql" ]; then
  die "cannot find PostgreSQL's initdb, pg_ctl and psql (looked in ${pg_bin:-/usr/lib/postgresql/*/bin}). Install them with: apt-get install -y postgresql (or set TREASURY_PG_BIN to the folder holding them)"
fi

# The server refuses to run as root: as root, run its tools as `postgres`; otherwise as ourselves.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || die "running as root needs the 'postgres' user (apt-get install -y postgresql creates it)"
  command -v runuser >/dev/null 2>&1 || die "running as root needs runuser (apt package util-linux)"
  as_server=(runuser -u postgres --)
  server_owner=postgres
else
  as_server=()
  server_owner=$(id -un)
fi

umask 077
cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/treasury-pg.XXXXXXXX") || die "cannot create a temporary folder"
data_dir="$cluster_dir/data"
socket_dir="$cluster_dir/socket"
mkdir -p "$socket_dir" || die "cannot prepare $cluster_dir"
chown "$server_owner" "$cluster_dir" "$socket_dir" 2>/dev/null || die "cannot give $cluster_dir to $server_owner"
# The server must reach its folder through its parents.
"${as_server[@]}" test -x "$cluster_dir" || die "$server_owner cannot enter $cluster_dir: set TMPDIR to a folder it can reach (e.g. /tmp)"

pg_ctl() {
  "${as_server[@]}" "$pg_bin/pg_ctl" -D "$data_dir" "$@"
}

# Stops exactly this cluster (if it runs) and removes the folder. Runs on every exit path of this script.
cleanup() {
  if [ -f "$data_dir/postmaster.pid" ]; then
    pg_ctl stop -m fast -w -t 30 >/dev/null 2>&1 || pg_ctl stop -m immediate -w >/dev/null 2>&1 || true
  fi
  rm -rf -- "$cluster_dir"
}
cmd_pid=
on_signal() {
  trap '' INT TERM
  if [ -n "$cmd_pid" ]; then kill -TERM "$cmd_pid" 2>/dev/null || true; wait "$cmd_pid" 2>/dev/null; fi
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

show_server_log() {
  [ -s "$cluster_dir/server.log" ] && sed 's/^/with-postgres:   server: /' "$cluster_dir/server.log" >&2
  return 0
}

"${as_server[@]}" "$pg_bin/initdb" -D "$data_dir" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
  --encoding=UTF8 --locale=C.UTF-8 >"$cluster_dir/initdb.log" 2>&1 ||
  { sed 's/^/with-postgres:   initdb: /' "$cluster_dir/initdb.log" >&2; die "initdb failed"; }

# Only TCP on 127.0.0.1 with a password, plus the superuser on the private socket (a folder only its owner enters).
"${as_server[@]}" tee "$data_dir/pg_hba.conf" >/dev/null <<EOF
local all postgres trust
host  all all 127.0.0.1/32 scram-sha-256
EOF

port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A free loopback port: try random ones; another run may take it between the check and the start, so retry then.
started=no
for _ in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 40000))
  port_is_free "$port" || continue
  # The settings live in the cluster's own file so a restart by CMD (TREASURY_DESK_PG_CTL) keeps them.
  "${as_server[@]}" tee "$data_dir/postgresql.auto.conf" >/dev/null <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$socket_dir'
max_connections = 200
shared_buffers = '32MB'
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  if pg_ctl start -w -t 30 -l "$cluster_dir/server.log" >/dev/null 2>&1; then
    started=yes
    break
  fi
done
if [ "$started" != yes ]; then
  show_server_log
  die "the PostgreSQL server did not start (see its log above)"
fi

psql_admin() {
  "${as_server[@]}" "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$socket_dir" -p "$port" -U postgres -d postgres "$@"
}

role=treasury_desk
database=treasury_desk
# A throwaway password for a throwaway cluster: hex, so it needs no escaping in SQL or in the URL; never printed.
password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
psql_admin >/dev/null 2>"$cluster_dir/psql.log" <<EOF || { sed 's/^/with-postgres:   psql: /' "$cluster_dir/psql.log" >&2; die "cannot create the role and database"; }
SET password_encryption = 'scram-sha-256';
CREATE ROLE $role LOGIN PASSWORD '$password';
CREATE DATABASE $database OWNER $role;
EOF

# The helper CMD uses to stop and start this cluster (outage tests).
cat >"$cluster_dir/pg-ctl" <<EOF
#!/usr/bin/env bash
# Stops, starts or reports this test cluster only (written by scripts/with-postgres.sh).
set -euo pipefail
case "\${1:-}" in
  stop) exec ${as_server[*]} "$pg_bin/pg_ctl" -D "$data_dir" stop -m fast -w -t 30 ;;
  start) exec ${as_server[*]} "$pg_bin/pg_ctl" -D "$data_dir" start -w -t 30 -l "$cluster_dir/server.log" ;;
  restart) exec ${as_server[*]} "$pg_bin/pg_ctl" -D "$data_dir" restart -m fast -w -t 30 -l "$cluster_dir/server.log" ;;
  status) exec ${as_server[*]} "$pg_bin/pg_ctl" -D "$data_dir" status ;;
  *) echo "usage: \$0 stop|start|restart|status" >&2; exit 2 ;;
esac
EOF
chmod 700 "$cluster_dir/pg-ctl"

export TREASURY_DESK_DATABASE_URL="postgres://$role:$password@127.0.0.1:$port/$database"
export TREASURY_DESK_PG_CTL="$cluster_dir/pg-ctl"
export TREASURY_DESK_PG_HARNESS="$cluster_dir"
unset password

# CMD runs in the background (stdin passed through) so a TERM/INT reaching this script is forwarded to it at once.
"$@" 0<&0 &
cmd_pid=$!
wait "$cmd_pid"
status=$?
cmd_pid=
exit "$status"
