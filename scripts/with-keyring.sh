#!/usr/bin/env bash
# Runs CMD ARGS... inside a private D-Bus session with a private, unlocked gnome-keyring Secret Service, never the
# user's real keyring: everything lives in one temporary folder that is removed at the end; exits with CMD's status.
#
#   bash scripts/with-keyring.sh npx vitest run test/integration/secrets
#
# How: a private dbus-daemon (own config; its only service directory is inside the temporary folder and names the
# private keyring alone, so nothing on that bus can be auto-activated against the real keyring) runs under
# dbus-run-session. org.freedesktop.secrets is D-Bus-activatable on it, as on a desktop: the bus starts
# gnome-keyring-daemon --foreground --unlock --components=secrets (a random throwaway password on its stdin, from a
# mode-600 file in the temporary folder) at the first call, and again at the next call after the daemon crashed, so
# a call never finds the name without an owner. XDG_DATA_HOME and XDG_RUNTIME_DIR point into the temporary folder
# for the whole session, and the daemon alone also gets HOME / XDG_CONFIG_HOME / XDG_CACHE_HOME there (CMD keeps the
# real HOME, so npm's cache still works); once org.freedesktop.secrets has an owner (at most
# TREASURY_KEYRING_WAIT_SECONDS, default 10), CMD runs with TREASURY_KEYRING_HARNESS set to the temporary folder
# (tests check it to refuse a real keyring); then exactly that daemon (its PID) is stopped.
# Works as root without a TTY or stdin (CI). Exit status: CMD's, or 2 when the harness itself cannot start.
set -uo pipefail

die() {
  echo "with-keyring: $*" >&2
  exit 2
}

if [ "$#" -eq 0 ]; then
  die "usage: bash scripts/with-keyring.sh CMD [ARGS...]  (runs CMD with a private, unlocked Secret Service)"
fi

missing=()
command -v dbus-run-session >/dev/null 2>&1 || missing+=("dbus-run-session (apt package dbus-daemon)")
command -v dbus-daemon >/dev/null 2>&1 || missing+=("dbus-daemon (apt package dbus-daemon)")
command -v dbus-send >/dev/null 2>&1 || missing+=("dbus-send (apt package dbus-bin)")
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=("gnome-keyring-daemon (apt package gnome-keyring)")
if [ "${#missing[@]}" -gt 0 ]; then
  {
    echo "with-keyring: cannot start a private Secret Service; missing:"
    printf '  - %s\n' "${missing[@]}"
    echo "Install them with: apt-get install -y dbus-daemon dbus-bin gnome-keyring"
  } >&2
  exit 2
fi

wait_seconds=${TREASURY_KEYRING_WAIT_SECONDS:-10}
case "$wait_seconds" in
  '' | *[!0-9]*) die "TREASURY_KEYRING_WAIT_SECONDS must be a whole number of seconds, got '$wait_seconds'" ;;
esac

umask 077
harness_dir=$(mktemp -d "${TMPDIR:-/tmp}/treasury-keyring.XXXXXXXX") || die "cannot create a temporary folder"
mkdir -p "$harness_dir/data" "$harness_dir/runtime" "$harness_dir/home" "$harness_dir/config" "$harness_dir/cache" "$harness_dir/bus" \
  "$harness_dir/services" ||
  die "cannot prepare $harness_dir"

# Stops the keyring daemon this run started (by the PID it recorded, and only if that PID is still a
# gnome-keyring-daemon), then removes the temporary folder. Runs on every exit path of this script.
cleanup() {
  local pid_file="$harness_dir/keyring.pid" pid
  if [ -f "$pid_file" ]; then
    pid=$(cat "$pid_file" 2>/dev/null || true)
    if [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] && grep -q '^gnome-keyring' "/proc/$pid/comm" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf -- "$harness_dir"
}
session_pid=
# On INT/TERM: stop CMD (by the PID the session recorded); the session then stops its keyring daemon and bus and
# ends; wait for that (bounded), then clean up. Only processes this run started are signalled.
on_signal() {
  local cmd_pid
  trap '' INT TERM
  cmd_pid=$(cat "$harness_dir/cmd.pid" 2>/dev/null || true)
  if [ -n "$cmd_pid" ]; then kill -TERM "$cmd_pid" 2>/dev/null || true; fi
  if [ -n "$session_pid" ]; then
    for _ in $(seq 1 100); do kill -0 "$session_pid" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$session_pid" 2>/dev/null || true
  fi
  exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

# A throwaway password for a throwaway keyring: never exported, never printed; in a mode-600 file inside the
# mode-700 temporary folder, so that each start of the daemon (the first, and one after a crash) unlocks the same
# keyring files.
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$harness_dir/keyring-password" || die "cannot write the keyring password"

# What the bus runs to start the Secret Service (D-Bus activation): the daemon with the private folders and, once it
# stops, its exit status in keyring.exit.PID for the harness to report.
cat >"$harness_dir/start-keyring.sh" <<EOF
#!/usr/bin/env bash
export HOME="$harness_dir/home" XDG_CONFIG_HOME="$harness_dir/config" XDG_CACHE_HOME="$harness_dir/cache" \\
  XDG_DATA_HOME="$harness_dir/data" XDG_RUNTIME_DIR="$harness_dir/runtime"
unset GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
gnome-keyring-daemon --foreground --unlock --components=secrets <"$harness_dir/keyring-password" >>"$harness_dir/keyring.log" 2>&1 &
daemon_pid=\$!
wait "\$daemon_pid"
echo "\$?" >"$harness_dir/keyring.exit.\$daemon_pid"
EOF
cat >"$harness_dir/services/org.freedesktop.secrets.service" <<EOF
[D-BUS Service]
Name=org.freedesktop.secrets
Exec=/usr/bin/env bash $harness_dir/start-keyring.sh
EOF

# A session bus of our own: socket inside the temporary folder; its one service directory activates only the
# private keyring above.
cat >"$harness_dir/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:dir=$harness_dir/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$harness_dir/services</servicedir>
  <!-- The limits of a desktop's session bus (/usr/share/dbus-1/session.conf), not dbus-daemon's built-in system-bus
       ones: under those, a loaded CI run (two vitest workers, CLI processes, each keychain entry's connection) hit
       max_connections_per_user=256 and the keychain stopped answering, which no user's session bus would do. -->
  <limit name="auth_timeout">240000</limit>
  <limit name="max_completed_connections">100000</limit>
  <limit name="max_incomplete_connections">10000</limit>
  <limit name="max_connections_per_user">100000</limit>
  <limit name="max_replies_per_connection">50000</limit>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF

# dbus-run-session's and dbus-daemon's own messages go to a log, shown at the end minus the harmless "Failed to set
# fd limit" that a root dbus-daemon without CAP_SYS_RESOURCE prints in containers and its two lines on each start of
# the keyring (a crash shows as the daemon's own line and the harness's restart line); CMD gets the real stderr
# back through fd 3.
show_dbus_log() {
  if [ -s "$harness_dir/dbus-daemon.log" ]; then
    grep -v -e 'Failed to set fd limit' -e "Activating service name='org.freedesktop.secrets'" \
      -e "Successfully activated service 'org.freedesktop.secrets'" "$harness_dir/dbus-daemon.log" |
      sed 's/^/with-keyring: dbus-daemon: /' >&2
  fi
  return 0
}

# Runs inside the private session: $1 = harness dir, $2 = wait seconds, the rest = CMD ARGS...
# shellcheck disable=SC2016  # expanded by the inner bash, not here
inner='
exec 2>&3 3>&-
set -uo pipefail
harness_dir=$1; wait_seconds=$2; shift 2
export XDG_DATA_HOME="$harness_dir/data" XDG_RUNTIME_DIR="$harness_dir/runtime"
unset GNOME_KEYRING_CONTROL SSH_AUTH_SOCK

bus_call() {
  dbus-send --session --print-reply --reply-timeout=$((wait_seconds * 1000)) --dest=org.freedesktop.DBus /org/freedesktop/DBus "$@"
}

# Records the PID of the process that owns org.freedesktop.secrets (none: empty) in keyring_pid and keyring.pid.
record_owner() {
  keyring_pid=$(bus_call org.freedesktop.DBus.GetConnectionUnixProcessID string:org.freedesktop.secrets 2>/dev/null | awk "/uint32/ { print \$2 }")
  echo "$keyring_pid" >"$harness_dir/keyring.pid"
}

stop_daemon() {
  record_owner
  if [ -n "$keyring_pid" ] && kill -0 "$keyring_pid" 2>/dev/null; then
    kill "$keyring_pid" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$keyring_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$keyring_pid" 2>/dev/null && kill -KILL "$keyring_pid" 2>/dev/null
  fi
  return 0
}
trap stop_daemon EXIT

# Has the bus start the daemon (D-Bus activation), which answers once the daemon owns org.freedesktop.secrets; exits 2
# with the reason when it does not start.
reply=$(bus_call org.freedesktop.DBus.StartServiceByName string:org.freedesktop.secrets uint32:0 2>&1)
if [ $? -ne 0 ] || ! record_owner || [ -z "$keyring_pid" ]; then
  echo "with-keyring: the bus could not start gnome-keyring-daemon: $reply" >&2
  [ -f "$harness_dir/keyring.log" ] && sed "s/^/with-keyring:   daemon: /" "$harness_dir/keyring.log" >&2
  exit 2
fi

# Lets tests check that they talk to this private keyring and never to a real one.
export TREASURY_KEYRING_HARNESS="$harness_dir"

# CMD runs in the background (stdin passed through) so a TERM/INT reaching this shell is forwarded to it at once.
"$@" 0<&0 &
cmd_pid=$!
echo "$cmd_pid" >"$harness_dir/cmd.pid"
trap "kill -TERM \$cmd_pid 2>/dev/null" INT TERM
# gnome-keyring-daemon 4x/50 can abort on an assertion when many clients open sessions at once (SIGTRAP/SIGABRT in
# gkd_secret_service_get_pkcs11_session; e.g. basecamp/hey-cli#352). As on a desktop, the bus starts it again at the
# next call (D-Bus activation) on the same unlocked keyring files; this loop only says so on stderr and follows the
# PID of whichever daemon owns the name, for stop_daemon and for tests.
restarts=0
while kill -0 "$cmd_pid" 2>/dev/null; do
  if [ -n "$keyring_pid" ] && ! kill -0 "$keyring_pid" 2>/dev/null; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do [ -f "$harness_dir/keyring.exit.$keyring_pid" ] && break; sleep 0.05; done
    crashed_with=$(cat "$harness_dir/keyring.exit.$keyring_pid" 2>/dev/null || echo unknown)
    restarts=$((restarts + 1))
    echo "with-keyring: gnome-keyring-daemon stopped (exit status $crashed_with); the bus starts it again on the same keyring at the next call (restart $restarts)" >&2
    keyring_pid=
  fi
  if [ -z "$keyring_pid" ]; then
    record_owner
  fi
  sleep 0.2
done
wait "$cmd_pid"
status=$?
stop_daemon
exit "$status"
'

# Started in the background (stdin passed through explicitly) so that a signal to this script is handled at once.
dbus-run-session --config-file="$harness_dir/session.conf" -- bash -c "$inner" with-keyring "$harness_dir" "$wait_seconds" "$@" \
  0<&0 3>&2 2>>"$harness_dir/dbus-daemon.log" &
session_pid=$!
wait "$session_pid"
status=$?
session_pid=
show_dbus_log
exit "$status"
