# The helpers the recording scripts share (sourced by record.sh,
# record-profanity.sh and record-rawdebug.sh): installing packages, stopping
# processes, the clean-up on exit, waiting for a port, and a packet capture on
# lo. Each script defines log() and die(), keeps PIDS (the processes to stop on
# exit) and SCRATCH, and may define cleanup_first (what to stop before them).

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

install_missing() {            # install_missing PACKAGE...: apt-get, no service started
    local missing=() p made_policy=0
    for p in "$@"; do installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -gt 0 ] || return 0
    log "installing: ${missing[*]}"
    apt-get update -qq
    # Keep the packages' maintainer scripts from starting the system services.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        made_policy=1
    fi
    echo 'wireshark-common wireshark-common/install-setuid boolean false' | debconf-set-selections
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    if [ $made_policy = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
    # If a service was started all the same (systemd), stop it: only our own run.
    for svc in prosody ejabberd; do
        if command -v systemctl >/dev/null && systemctl is-active --quiet "$svc" 2>/dev/null; then
            systemctl stop "$svc" || true
        fi
    done
}

stop_pid() {                   # stop_pid PID: TERM, then KILL after 10 s
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
}

make_scratch() {               # make_scratch NAME: $SCRATCH, /tmp/stanzaq-NAME.*, which the prosody user reaches; everything started (PIDS) stopped and it removed on exit
    SCRATCH="$(mktemp -d "/tmp/stanzaq-$1.XXXXXX")"
    chmod 755 "$SCRATCH"
    PIDS=()
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    log "scratch directory: $SCRATCH"
}

cleanup() {                    # trap cleanup EXIT
    local rc=$? pid
    set +e
    if declare -F cleanup_first >/dev/null; then cleanup_first; fi
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    wait 2>/dev/null
    if [ "${KEEP_SCRATCH:-0}" = 1 ] || [ $rc != 0 ]; then
        log "scratch directory kept: $SCRATCH"
    else
        rm -rf "$SCRATCH"
    fi
    exit $rc
}

# Whether something listens on 127.0.0.1:PORT (read from /proc, so that the
# check itself opens no connection the capture would see).
listening() {
    local hex
    hex=$(printf '%04X' "$1")
    awk -v p=":$hex" 'NR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }' \
        /proc/net/tcp
}
wait_listening() {             # wait_listening PORT WHAT
    local i
    for i in $(seq 1 150); do listening "$1" && return 0; sleep 0.2; done
    die "$2 is not listening on 127.0.0.1:$1"
}
port_free() { ! listening "$1" || die "port $1 is already in use"; }

start_capture() {              # start_capture PORT FILE [FILTER]: tcpdump on lo, that port only (or FILTER)
    local port=$1 file=$2 filter=${3:-tcp port $1} i
    tcpdump -i lo --immediate-mode -U -s 0 -Z root -w "$file" "$filter" 2>"$file.stderr" &
    PIDS+=($!)
    CAPTURE_PID=$!
    for i in $(seq 1 100); do grep -q 'listening on' "$file.stderr" && return 0; sleep 0.1; done
    die "tcpdump did not start: $(cat "$file.stderr")"
}
stop_capture() {              # stop_capture FILE
    local got seen
    sleep 2                    # the last segments reach tcpdump
    kill -INT "$CAPTURE_PID" 2>/dev/null || true
    wait "$CAPTURE_PID" 2>/dev/null || true
    got=$(awk '/packets captured/ {print $1}' "$1.stderr")
    seen=$(awk '/packets received by filter/ {print $1}' "$1.stderr")
    log "$(basename "$1"): $got packets captured, $seen received by filter"
    # On lo the filter sees each packet twice (sent and received); libpcap
    # keeps one. Fewer means tcpdump was stopped before it read them all.
    [ -n "$got" ] && [ $((got * 2)) = "$seen" ] || die "the capture $1 lost packets: $(cat "$1.stderr")"
}

prosody_config() {             # prosody_config DIR PORT S2S_PORT HTTP_PORT MODULE...: a Prosody of its own
    local dir=$1 port=$2 s2s=$3 http=$4 modules
    shift 4
    modules=$(printf '"%s"; ' "$@")
    mkdir -p "$dir/data"
    cat > "$dir/prosody.cfg.lua" <<CONFIG
-- Written by $(basename "$0"): a Prosody of its own, on 127.0.0.1 only.
pidfile = "$dir/prosody.pid"
data_path = "$dir/data"
plugin_paths = { "$dir/modules" }
daemonize = false
log = { debug = "$dir/prosody.log" }
interfaces = { "127.0.0.1" }
local_interfaces = { "127.0.0.1" }
c2s_ports = { $port }
c2s_interfaces = { "127.0.0.1" }
s2s_ports = { $s2s }
s2s_interfaces = { "127.0.0.1" }
http_ports = { $http }
http_interfaces = { "127.0.0.1" }
https_ports = { }
c2s_direct_tls_ports = { }
c2s_require_encryption = false
s2s_require_encryption = false
allow_unencrypted_plain_auth = true
authentication = "internal_plain"
storage = "internal"
archive_expires_after = "never"
default_archive_policy = true
modules_enabled = {
    "roster"; "saslauth"; "disco"; "ping"; "mam"; $modules
}
modules_disabled = { "s2s"; "s2s_auth_certs"; "offline"; }

VirtualHost "$DOMAIN"

Component "conference.$DOMAIN" "muc"
    restrict_room_creation = false
CONFIG
}

# Prosody runs as its own user (its packaged files are its).
AS_PROSODY=(setpriv --reuid=prosody --regid=prosody --init-groups --)

prosody_accounts() {           # prosody_accounts DIR USER...: DIR (prosody_config) made the prosody user's, with these accounts on $DOMAIN, password $PASSWORD
    local dir=$1 user
    shift
    chown -R prosody:prosody "$dir"
    for user in "$@"; do
        "${AS_PROSODY[@]}" prosodyctl --config "$dir/prosody.cfg.lua" register "$user" "$DOMAIN" "$PASSWORD" >/dev/null 2>&1
    done
}
