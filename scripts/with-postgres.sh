#!/usr/bin/env bash
# Runs CMD ARGS... against a private, throwaway PostgreSQL cluster: everything lives in one temporary folder that is
# removed at the end, and only that cluster is ever stopped; exits with CMD's status.
#
#   bash scripts/with-postgres.sh npx vitest run test/integration/team
#
# How: initdb and pg_ctl run as the `postgres` user (the server refuses root; as a non-root user they run as that
# user) on a free loopback port, listening on 127.0.0.1 only, with its Unix socket inside the folder; a role and a
# database are created with random passwords (scram-sha-256) and CMD runs with
#   TREASURY_DESK_DATABASE_URL=postgres://WORKSTATION:PASSWORD@127.0.0.1:PORT/DB  (a workstation's login: member of
#                                           treasury_desk_workstation, may read and call the append functions only)
#   TREASURY_DESK_OWNER_DATABASE_URL=postgres://OWNER:PASSWORD@127.0.0.1:PORT/DB  (the database's owner: migrations,
#                                           `team init`'s owner URL, and the tests' "database administrator")
#   TREASURY_DESK_PG_CTL=<folder>/pg-ctl   (`$TREASURY_DESK_PG_CTL stop|start|restart|status`: the primary only,
#                                           for outage tests; stop is `-m fast`, start waits until it accepts)
#   TREASURY_DESK_PG_HARNESS=<folder>      (tests may check it to know they talk to a throwaway cluster)
#   TREASURY_DESK_PG_CA=<folder>/tls/ca.pem (the server speaks TLS too, its certificate naming IP 127.0.0.1 only and
#                                           signed by this throwaway CA: for sslmode=verify-full tests)
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
command -v openssl >/dev/null 2>&1 || die "openssl makes the cluster's test certificates: apt-get install -y openssl"
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
# Until the cluster exists (cleanup, below, also stops it), a refusal removes just the folder.
trap 'rm -rf -- "$cluster_dir"' EXIT
data_dir="$cluster_dir/data"
standby_dir="$cluster_dir/standby"
socket_dir="$cluster_dir/socket"
mkdir -p "$socket_dir" || die "cannot prepare $cluster_dir"
chown "$server_owner" "$cluster_dir" "$socket_dir" 2>/dev/null || die "cannot give $cluster_dir to $server_owner"
# The server must reach its folder through its parents.
(cd / && "${as_server[@]}" test -x "$cluster_dir") ||
  die "$server_owner cannot enter $cluster_dir: it and every folder above it, / included, must let $server_owner pass (ls -ld / ${TMPDIR:-/tmp}); or set TMPDIR to a folder it can reach"

# Runs a server tool as the server's user from the cluster's folder (CMD's folder may be closed to that user).
as_server_here() {
  (cd "$cluster_dir" && "${as_server[@]}" "$@")
}

pg_ctl() {
  as_server_here "$pg_bin/pg_ctl" -D "$data_dir" "$@"
}

# Stops the server whose data folder is $1, if it runs (fast, else immediate).
stop_server() {
  [ -f "$1/postmaster.pid" ] || return 0
  as_server_here "$pg_bin/pg_ctl" -D "$1" stop -m fast -w -t 30 >/dev/null 2>&1 ||
    as_server_here "$pg_bin/pg_ctl" -D "$1" stop -m immediate -w >/dev/null 2>&1 || true
}

# Stops exactly this cluster (standby, then primary) and removes the folder. Runs on every exit path of this script.
cleanup() {
  stop_server "$standby_dir"
  stop_server "$data_dir"
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

as_server_here "$pg_bin/initdb" -D "$data_dir" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
  --encoding=UTF8 --locale=C.UTF-8 >"$cluster_dir/initdb.log" 2>&1 ||
  { sed 's/^/with-postgres:   initdb: /' "$cluster_dir/initdb.log" >&2; die "initdb failed"; }

# TLS for sslmode=verify-full tests: a throwaway CA and a server certificate naming only IP 127.0.0.1 (so connecting as
# "localhost" fails host-name verification, as it should).
tls_dir="$cluster_dir/tls"
mkdir -p "$tls_dir" || die "cannot prepare $tls_dir"
{
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=treasury-desk test CA" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -keyout "$tls_dir/ca.key" -out "$tls_dir/ca.pem" &&
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" -keyout "$tls_dir/server.key" -out "$tls_dir/server.csr" &&
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$tls_dir/server.ext" &&
    openssl x509 -req -in "$tls_dir/server.csr" -CA "$tls_dir/ca.pem" -CAkey "$tls_dir/ca.key" -CAcreateserial -days 2 \
      -extfile "$tls_dir/server.ext" -out "$tls_dir/server.pem"
} >"$cluster_dir/openssl.log" 2>&1 || { sed 's/^/with-postgres:   openssl: /' "$cluster_dir/openssl.log" >&2; die "cannot make the test TLS certificates (apt-get install -y openssl)"; }
chmod 644 "$tls_dir/ca.pem"
chown "$server_owner" "$tls_dir/server.key" "$tls_dir/server.pem" && chmod 600 "$tls_dir/server.key"
chmod 711 "$tls_dir"

# Only TCP on 127.0.0.1 with a password, plus the superuser on the private socket (a folder only its owner enters).
as_server_here tee "$data_dir/pg_hba.conf" >/dev/null <<EOF
local all postgres trust
local replication postgres trust
host  all all 127.0.0.1/32 scram-sha-256
EOF

# A throwaway cluster need not survive a power cut: fsync off, unless TREASURY_PG_DURABLE=1 (benchmarks of what a
# real server does).
case "${TREASURY_PG_DURABLE:-0}" in
  1) durability=on ;;
  0) durability=off ;;
  *) die "TREASURY_PG_DURABLE must be 0 or 1, got '${TREASURY_PG_DURABLE}'" ;;
esac

port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A free loopback port: try random ones; another run may take it between the check and the start, so retry then.
started=no
for _ in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 40000))
  port_is_free "$port" || continue
  # The settings live in the cluster's own file so a restart by CMD (TREASURY_DESK_PG_CTL) keeps them.
  as_server_here tee "$data_dir/postgresql.auto.conf" >/dev/null <<EOF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$socket_dir'
ssl = on
ssl_cert_file = '$tls_dir/server.pem'
ssl_key_file = '$tls_dir/server.key'
max_connections = 400
shared_buffers = '32MB'
fsync = $durability
synchronous_commit = $durability
full_page_writes = $durability
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
  as_server_here "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$socket_dir" -p "$port" -U postgres -d postgres "$@"
}

# Two roles, as IT sets them up (README "Team database (for IT)"): the owner (owns the database, runs migrations and
# `team init`) and a workstation login, member of the group role treasury_desk_workstation that migration 0040 grants
# SELECT and EXECUTE on the append functions only.
owner_role=treasury_desk_owner
workstation_role=treasury_desk_ws
database=treasury_desk
# Throwaway passwords for a throwaway cluster: hex, so they need no escaping in SQL or in the URL; never printed.
owner_password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
workstation_password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
psql_admin >/dev/null 2>"$cluster_dir/psql.log" <<EOF || { sed 's/^/with-postgres:   psql: /' "$cluster_dir/psql.log" >&2; die "cannot create the roles and database"; }
SET password_encryption = 'scram-sha-256';
CREATE ROLE $owner_role LOGIN PASSWORD '$owner_password';
CREATE ROLE treasury_desk_workstation NOLOGIN;
CREATE ROLE $workstation_role LOGIN PASSWORD '$workstation_password' IN ROLE treasury_desk_workstation;
CREATE DATABASE $database OWNER $owner_role;
-- The tests' "database administrator" ends workstations' connections (outage tests): pg_terminate_backend.
GRANT pg_signal_backend TO $owner_role;
EOF

# Writes <folder>/NAME, the helper CMD uses to stop, start, restart, promote or report one server of this cluster
# (outage and failover tests): write_server_ctl NAME DATA_DIR LOG "WHAT IT CONTROLS".
write_server_ctl() {
  cat >"$cluster_dir/$1" <<EOF
#!/usr/bin/env bash
# Stops, starts, restarts, promotes or reports $4 only (written by scripts/with-postgres.sh).
set -euo pipefail
cd "$cluster_dir"
server=(${as_server[*]} "$pg_bin/pg_ctl" -D "$2")
case "\${1:-}" in
  stop) exec "\${server[@]}" stop -m fast -w -t 30 ;;
  start) exec "\${server[@]}" start -w -t 30 -l "$3" ;;
  restart) exec "\${server[@]}" restart -m fast -w -t 30 -l "$3" ;;
  promote) exec "\${server[@]}" promote -w -t 30 ;;
  status) exec "\${server[@]}" status ;;
  *) echo "usage: \$0 stop|start|restart|promote|status" >&2; exit 2 ;;
esac
EOF
  chmod 700 "$cluster_dir/$1"
}
write_server_ctl pg-ctl "$data_dir" "$cluster_dir/server.log" "this test cluster's primary"

# A streaming standby of this cluster (failover tests), unless TREASURY_PG_STANDBY=0: pg_basebackup -R from the primary
# into <folder>/standby, on its own free loopback port, hot standby (reads only). It is stopped with the primary.
# The backup asks for an immediate checkpoint (-c fast): the default spread one waits out checkpoint_completion_target
# of checkpoint_timeout, which kept every run of this script idle for about 93 s before CMD started.
#   TREASURY_DESK_PG_STANDBY_PORT=<port>
#   TREASURY_DESK_PG_STANDBY_CTL=<folder>/pg-ctl-standby  (`stop|start|promote|status`: the standby only)
case "${TREASURY_PG_STANDBY:-1}" in
  1)
    as_server_here "$pg_bin/pg_basebackup" -h "$socket_dir" -p "$port" -U postgres -D "$standby_dir" -R -X stream -C -S treasury_desk_standby -c fast \
      >"$cluster_dir/basebackup.log" 2>&1 || { sed 's/^/with-postgres:   pg_basebackup: /' "$cluster_dir/basebackup.log" >&2; die "cannot make the standby"; }
    standby_started=no
    for _ in 1 2 3 4 5 6 7 8; do
      standby_port=$((20000 + RANDOM % 40000))
      [ "$standby_port" != "$port" ] && port_is_free "$standby_port" || continue
      # The copied settings name the primary's port: the standby's own comes last and wins.
      printf "port = %s\nhot_standby = on\n" "$standby_port" | as_server_here tee -a "$standby_dir/postgresql.auto.conf" >/dev/null
      if as_server_here "$pg_bin/pg_ctl" -D "$standby_dir" start -w -t 30 -l "$cluster_dir/standby.log" >/dev/null 2>&1; then
        standby_started=yes
        break
      fi
    done
    if [ "$standby_started" != yes ]; then
      [ -s "$cluster_dir/standby.log" ] && sed 's/^/with-postgres:   standby: /' "$cluster_dir/standby.log" >&2
      die "the standby did not start (see its log above)"
    fi
    write_server_ctl pg-ctl-standby "$standby_dir" "$cluster_dir/standby.log" "this test cluster's standby"
    export TREASURY_DESK_PG_STANDBY_PORT="$standby_port"
    export TREASURY_DESK_PG_STANDBY_CTL="$cluster_dir/pg-ctl-standby"
    ;;
  0) ;;
  *) die "TREASURY_PG_STANDBY must be 0 or 1, got '${TREASURY_PG_STANDBY}'" ;;
esac

export TREASURY_DESK_DATABASE_URL="postgres://$workstation_role:$workstation_password@127.0.0.1:$port/$database"
export TREASURY_DESK_OWNER_DATABASE_URL="postgres://$owner_role:$owner_password@127.0.0.1:$port/$database"
export TREASURY_DESK_PG_CTL="$cluster_dir/pg-ctl"
export TREASURY_DESK_PG_HARNESS="$cluster_dir"
export TREASURY_DESK_PG_CA="$tls_dir/ca.pem"
unset owner_password workstation_password

# CMD runs in the background (stdin passed through) so a TERM/INT reaching this script is forwarded to it at once.
"$@" 0<&0 &
cmd_pid=$!
wait "$cmd_pid"
status=$?
cmd_pid=
exit "$status"
