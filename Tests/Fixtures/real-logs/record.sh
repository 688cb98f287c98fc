#!/usr/bin/env bash
# Records the real-log fixtures: debug logs written by real XMPP software in a
# scripted session over loopback, a packet capture of the same session, and
# the truth read from the capture by an independent XML parser (Python's
# expat, in wire_truth.py), never by stanzaq. See README.md.
#
# Run 1: Prosody on 127.0.0.1:15222 with four clients: slixmpp (alice, log
#        with time stamps) sending to slixmpp (bob, log without), then nbxmpp
#        (carol) sending to libstrophe (dave).
# Run 2: ejabberd on 127.0.0.1:15232 with two slixmpp clients (erin sending
#        to frank).
#
# Everything runs in a scratch directory (mktemp -d) and is stopped on exit;
# nothing listens on anything but 127.0.0.1, and no system service or system
# configuration of the servers is used. Needs root (apt-get, tcpdump, and the
# servers run as their own system users, prosody and ejabberd).
#
#   KEEP_SCRATCH=1 record.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PROSODY_PORT=15222
PROSODY_S2S_PORT=15269         # configured, though s2s is disabled
PROSODY_HTTP_PORT=15280
EJ_PORT=15232
EJ_DIST_PORT=15233             # Erlang distribution (ejabberdctl), no epmd
PASSWORD=fixture-pw

log() { printf '[record] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

# --- packages ---------------------------------------------------------------
REQUIRED=(prosody ejabberd python3-slixmpp python3-nbxmpp libstrophe-dev tshark tcpdump gcc pkg-config)
OPTIONAL=(python3-aioxmpp poezio)   # looked up only; no driver uses them (see README.md)
. "$HERE/record-lib.sh"
install_missing "${REQUIRED[@]}"
for p in "${OPTIONAL[@]}"; do
    cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ {print $2}')
    log "optional package $p: candidate ${cand:-none} (not used)"
done

# --- scratch directory and clean-up ----------------------------------------
SCRATCH="$(mktemp -d /tmp/stanzaq-real-logs.XXXXXX)"
chmod 755 "$SCRATCH"           # the servers' users must reach their subdirectories
PIDS=()                        # processes to stop on exit
EJ_STARTED=0
EJCTL=()

cleanup_first() {              # ejabberd, before the processes in PIDS
    if [ $EJ_STARTED = 1 ]; then
        "${EJCTL[@]}" stop >/dev/null 2>&1
        "${EJCTL[@]}" stopped >/dev/null 2>&1
        if [ -s "$SCRATCH/ejabberd/ejabberd.pid" ]; then
            stop_pid "$(cat "$SCRATCH/ejabberd/ejabberd.pid")"
        fi
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- drivers ------------------------------------------------------------------
log "scratch directory: $SCRATCH"
gcc -std=c99 -Wall -Wextra -O1 -o "$SCRATCH/strophe_client" "$HERE/driver/strophe_client.c" \
    $(pkg-config --cflags --libs libstrophe)

run_slixmpp_pair() {           # run_slixmpp_pair PORT SENDER ECHOER ROOM LOGPREFIX
    local port=$1 sender=$2 echoer=$3 room=$4 prefix=$5 ready="$SCRATCH/ready-$3" epid
    rm -f "$ready"
    "$PY" "$HERE/driver/slixmpp_client.py" --jid "$echoer@$DOMAIN/slixmpp-notime" \
        --password "$PASSWORD" --port "$port" --peer "$sender@$DOMAIN" --role echoer \
        --ready-file "$ready" --log-file "$SCRATCH/$prefix-$echoer.log" --log-format notime &
    epid=$!
    PIDS+=($epid)
    "$PY" "$HERE/driver/slixmpp_client.py" --jid "$sender@$DOMAIN/slixmpp-time" \
        --password "$PASSWORD" --port "$port" --peer "$echoer@$DOMAIN" --role sender \
        --room "$room" --ready-file "$ready" --log-file "$SCRATCH/$prefix-$sender.log" \
        --log-format time
    wait "$epid" || die "the slixmpp echoer $echoer failed"
}

# --- run 1: Prosody -----------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PROSODY_PORT $PROSODY_S2S_PORT $PROSODY_HTTP_PORT stanza_debug
prosody_accounts "$P" alice bob carol dave

port_free $PROSODY_PORT
start_capture $PROSODY_PORT "$SCRATCH/prosody.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PROSODY_PORT Prosody

log "run 1: slixmpp alice -> slixmpp bob"
run_slixmpp_pair $PROSODY_PORT alice bob "room1@conference.$DOMAIN" prosody-slixmpp

log "run 1: nbxmpp carol -> libstrophe dave"
rm -f "$SCRATCH/ready-dave"
"$SCRATCH/strophe_client" "dave@$DOMAIN/libstrophe" "$PASSWORD" 127.0.0.1 $PROSODY_PORT \
    "carol@$DOMAIN" "$SCRATCH/ready-dave" 2>"$SCRATCH/prosody-libstrophe-dave.log" &
DAVE=$!
PIDS+=($DAVE)
"$PY" "$HERE/driver/nbxmpp_client.py" --jid "carol@$DOMAIN/nbxmpp" --password "$PASSWORD" \
    --port $PROSODY_PORT --peer "dave@$DOMAIN" --room "room2@conference.$DOMAIN" \
    --ready-file "$SCRATCH/ready-dave" --log-file "$SCRATCH/prosody-nbxmpp-carol.log"
wait $DAVE || die "the libstrophe client failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/prosody.pcap"

# --- run 2: ejabberd ----------------------------------------------------------
E="$SCRATCH/ejabberd"
mkdir -p "$E/etc" "$E/spool" "$E/logs"
cat > "$E/etc/ejabberd.yml" <<EOF
# Written by record.sh: an ejabberd of its own, on 127.0.0.1 only.
hosts:
  - $DOMAIN
loglevel: debug
log_rotate_count: 0
certfiles: []
define_macro: {}
listen:
  -
    port: $EJ_PORT
    ip: "127.0.0.1"
    module: ejabberd_c2s
    starttls: false
    starttls_required: false
    max_stanza_size: 262144
auth_method: internal
auth_password_format: plain
acl:
  local:
    user_regexp: ""
access_rules:
  local:
    allow: local
  c2s:
    allow: all
  muc_create:
    allow: local
  register:
    deny: all
api_permissions:
  "console commands":
    from:
      - ejabberd_ctl
    who: all
    what: "*"
modules:
  mod_disco: {}
  mod_mam:
    db_type: mnesia
    default: always
  mod_muc:
    host: "conference.$DOMAIN"
    access: all
    access_create: muc_create
    access_persistent: muc_create
    default_room_options:
      mam: false
  mod_ping: {}
  mod_roster: {}
EOF
cat > "$E/etc/ejabberdctl.cfg" <<EOF
# Written by record.sh. No epmd: the node listens for ejabberdctl on
# 127.0.0.1:$EJ_DIST_PORT only.
ERLANG_NODE=stanzaq-fixtures@localhost
ERL_DIST_PORT=$EJ_DIST_PORT
INET_DIST_INTERFACE=127.0.0.1
ERL_EPMD_ADDRESS=127.0.0.1
ERL_OPTIONS="-setcookie stanzaq-fixtures"
EJABBERD_PID_PATH=$E/ejabberd.pid
EJABBERD_BYPASS_WARNINGS=true
EOF
printf '{lookup, [file, native]}.\n{hosts_file, "/etc/hosts"}.\n' > "$E/etc/inetrc"
chown -R ejabberd:ejabberd "$E"
EJCTL=(ejabberdctl --config-dir "$E/etc" --config "$E/etc/ejabberd.yml"
       --ctl-config "$E/etc/ejabberdctl.cfg" --logs "$E/logs" --spool "$E/spool")

port_free $EJ_PORT
port_free $EJ_DIST_PORT
start_capture $EJ_PORT "$SCRATCH/ejabberd.pcap"
EJ_STARTED=1
"${EJCTL[@]}" start
"${EJCTL[@]}" started || die "ejabberd did not start (see $E/logs)"
wait_listening $EJ_PORT ejabberd
for u in erin frank; do
    "${EJCTL[@]}" register "$u" "$DOMAIN" "$PASSWORD" >/dev/null
done

log "run 2: slixmpp erin -> slixmpp frank"
run_slixmpp_pair $EJ_PORT erin frank "room3@conference.$DOMAIN" ejabberd-slixmpp

"${EJCTL[@]}" stop >/dev/null
"${EJCTL[@]}" stopped >/dev/null || true
if [ -s "$E/ejabberd.pid" ]; then stop_pid "$(cat "$E/ejabberd.pid")"; fi
EJ_STARTED=0
stop_capture "$SCRATCH/ejabberd.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
rm -rf "$OUT/logs" "$OUT/pcap" "$OUT/tshark" "$OUT/truth"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/tshark" "$OUT/truth"
cp "$P/prosody.log" "$OUT/logs/prosody.log"
cp "$SCRATCH/prosody-slixmpp-alice.log" "$OUT/logs/slixmpp-time-alice.log"
cp "$SCRATCH/prosody-slixmpp-bob.log" "$OUT/logs/slixmpp-notime-bob.log"
cp "$SCRATCH/prosody-nbxmpp-carol.log" "$OUT/logs/nbxmpp-carol.log"
cp "$SCRATCH/prosody-libstrophe-dave.log" "$OUT/logs/libstrophe-dave.log"
# ejabberd's log from the line where the c2s listener starts: the records
# before it are the start-up's (OTP supervisor progress reports, 70 KB). The
# rest is as ejabberd wrote it.
awk -v port="127.0.0.1:$EJ_PORT" 'index($0, "Start accepting TCP connections at " port) { on = 1 } on' \
    "$E/logs/ejabberd.log" > "$OUT/logs/ejabberd.log"
[ -s "$OUT/logs/ejabberd.log" ] || die "ejabberd's log has no listener line"
cp "$SCRATCH/ejabberd-slixmpp-erin.log" "$OUT/logs/ejabberd-slixmpp-time-erin.log"
cp "$SCRATCH/ejabberd-slixmpp-frank.log" "$OUT/logs/ejabberd-slixmpp-notime-frank.log"
cp "$SCRATCH/prosody.pcap" "$SCRATCH/ejabberd.pcap" "$OUT/pcap/"

# tshark: every TCP stream followed (as tshark prints it), and one stream in
# full detail, decoded as XMPP.
for run in prosody ejabberd; do
    n=$(tshark -r "$OUT/pcap/$run.pcap" -T fields -e tcp.stream 2>/dev/null | sort -n | uniq | wc -l)
    args=()
    for ((i = 0; i < n; i++)); do args+=(-z "follow,tcp,ascii,$i"); done
    tshark -r "$OUT/pcap/$run.pcap" -q "${args[@]}" > "$OUT/tshark/$run-follow.txt"
done

"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap prosody="$OUT/pcap/prosody.pcap" --pcap ejabberd="$OUT/pcap/ejabberd.pcap" \
    --server-port prosody=$PROSODY_PORT --server-port ejabberd=$EJ_PORT \
    --conn prosody:slixmpp-time=slixmpp:logs/slixmpp-time-alice.log \
    --conn prosody:slixmpp-notime=slixmpp:logs/slixmpp-notime-bob.log \
    --conn prosody:nbxmpp=nbxmpp:logs/nbxmpp-carol.log \
    --conn prosody:libstrophe=libstrophe:logs/libstrophe-dave.log \
    --conn ejabberd:slixmpp-time=slixmpp:logs/ejabberd-slixmpp-time-erin.log \
    --conn ejabberd:slixmpp-notime=slixmpp:logs/ejabberd-slixmpp-notime-frank.log \
    --server-log prosody=prosody:logs/prosody.log \
    --server-log ejabberd=ejabberd:logs/ejabberd.log \
    --follow prosody=tshark/prosody-follow.txt --follow ejabberd=tshark/ejabberd-follow.txt

# The detailed dissection of the libstrophe connection (the smallest).
stream=$("$PY" -c 'import json,sys; t=json.load(open(sys.argv[1])); print(t["connections"][0]["tcp_stream"])' \
    "$OUT/truth/libstrophe-dave.json")
tshark -r "$OUT/pcap/prosody.pcap" -d "tcp.port==$PROSODY_PORT,xmpp" -V \
    -Y "tcp.stream eq $stream && tcp.len > 0" > "$OUT/tshark/prosody-libstrophe-V.txt"

dpkg-query -W prosody ejabberd erlang-base python3-slixmpp python3-nbxmpp libstrophe0 \
    libstrophe-dev tshark tcpdump lua5.4 python3 > "$OUT/versions.txt"
log "done: $(cd "$OUT" && du -ch logs pcap tshark truth | tail -1)"
