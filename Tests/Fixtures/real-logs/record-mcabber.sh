#!/usr/bin/env bash
# Records the mcabber fixture: mcabber's trace log (`set tracelog_level = 3`),
# which holds loudmouth's LM-NET debug messages (SEND: and RECV [N]: blocks,
# the bytes written and read), in a scripted session over loopback: mcabber
# runs in a tmux pane and is driven through its command FIFO (the fifo
# module), without a person; with a packet capture of the same session and
# the truth read from it by wire_truth.py (Python's expat), never by stanzaq.
# See README.md.
#
# Run 7: Prosody on 127.0.0.1:16130; mcabber (quinn) sends the stress bodies
#        (`say_to -q -f FILE`: each body exactly, from a file) to a slixmpp
#        echoer (rita), waiting for each echo, then `bye`, then quits.
#
# Runs after record.sh (`make fixtures`); everything runs in a scratch directory
# (mktemp -d, mcabber's HOME too) and is stopped on exit; nothing listens on
# anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the
# prosody user).
#
#   KEEP_SCRATCH=1 record-mcabber.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16130
S2S_PORT=16131                 # configured, though s2s is disabled
HTTP_PORT=16132
PASSWORD=fixture-pw
TMUX_SOCKET=stanzaq-rec-cli-mcabber

log() { printf '[record-mcabber] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing mcabber prosody python3-slixmpp tmux tshark tcpdump

TMUX_STARTED=0
cleanup_first() { if [ $TMUX_STARTED = 1 ]; then tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null; fi; }
make_scratch mcabber

# --- Prosody ------------------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" quinn rita

port_free $PORT
start_capture $PORT "$SCRATCH/mcabber.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

# --- the echoer ------------------------------------------------------------------
log "run 7: mcabber quinn -> slixmpp rita"
ELOG="$SCRATCH/rita.log"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "rita@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" \
    --port $PORT --peer "quinn@$DOMAIN" --role echoer --ready-file "$SCRATCH/ready-rita" \
    --log-file "$ELOG" --log-format time &
ECHOER=$!
PIDS+=($ECHOER)
for i in $(seq 1 150); do [ -e "$SCRATCH/ready-rita" ] && break; sleep 0.2; done
[ -e "$SCRATCH/ready-rita" ] || die "the slixmpp echoer did not get ready"

# The bodies, from driver/scenario.py, each in a file of its own, exactly.
BODIES="$SCRATCH/bodies"
mkdir -p "$BODIES"
"$PY" - "$HERE/driver" "$BODIES" <<'PYTHON'
import os, sys
sys.path.insert(0, sys.argv[1])
import scenario
with open(os.path.join(sys.argv[2], "order"), "w") as order:
    for suffix, body in scenario.BODIES + [("bye", scenario.BYE)]:
        with open(os.path.join(sys.argv[2], suffix), "w", encoding="utf-8") as f:
            f.write(body)
        order.write(suffix + "\n")
PYTHON

# --- mcabber in a tmux pane, driven through its FIFO ----------------------------------
MHOME="$SCRATCH/home"
mkdir -p "$MHOME/.mcabber"
MLOG="$SCRATCH/mcabber.log"
FIFO="$SCRATCH/mcabber.fifo"
cat > "$MHOME/.mcabber/mcabberrc" <<CONFIG
set jid = quinn@$DOMAIN
set password = $PASSWORD
set server = 127.0.0.1
set port = $PORT
set resource = mcabber
set disable_random_resource = 1
set tls = 0
set ssl = 0
set tracelog_level = 3
set tracelog_file = $MLOG
set fifo_name = $FIFO
module load fifo
CONFIG
chmod 700 "$MHOME/.mcabber"
chmod 600 "$MHOME/.mcabber/mcabberrc"
TMUX_STARTED=1
tmux -L "$TMUX_SOCKET" -f /dev/null new-session -d -s mcabber -x 160 -y 40 \
    "env -i HOME=$MHOME PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=screen-256color TZ=UTC mcabber"

wait_for() {                   # wait_for FILE PATTERN COUNT WHAT
    local i c
    for i in $(seq 1 150); do
        c=$(grep -c -- "$2" "$1" 2>/dev/null) || c=0
        [ "$c" -ge "$3" ] && return 0
        sleep 0.2
    done
    die "no $4 ($2 in $1)"
}
wait_for "$MLOG" "Your status has been set" 1 "login"
[ -p "$FIFO" ] || die "mcabber made no FIFO"
n=0
while read -r suffix; do
    echo "say_to -q -f $BODIES/$suffix rita@$DOMAIN" > "$FIFO"
    [ "$suffix" = bye ] && break
    n=$((n + 1))
    # The echo, as the echoer logs sending it, then as mcabber logs reading it.
    wait_for "$ELOG" 'SEND: <message .*id="echo-' $n "echo $n"
    wait_for "$MLOG" 'id=.echo-' $n "echo $n in mcabber's log"
done < "$BODIES/order"
wait $ECHOER || die "the slixmpp echoer failed"
echo "quit" > "$FIFO"
for i in $(seq 1 100); do tmux -L "$TMUX_SOCKET" has-session -t mcabber 2>/dev/null || break; sleep 0.1; done
tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
TMUX_STARTED=0

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/mcabber.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$MLOG" "$OUT/logs/mcabber-quinn.log"
chmod 644 "$OUT/logs/mcabber-quinn.log"   # (mcabber makes its trace log 0600)
cp "$SCRATCH/mcabber.pcap" "$OUT/pcap/mcabber.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap mcabber="$OUT/pcap/mcabber.pcap" --server-port mcabber=$PORT \
    --conn mcabber:mcabber=mcabber:logs/mcabber-quinn.log

dpkg-query -W mcabber libloudmouth1-0 prosody python3-slixmpp tmux tshark tcpdump > "$OUT/versions-mcabber.txt"
log "done: $(cd "$OUT" && du -ch logs/mcabber-quinn.log pcap/mcabber.pcap truth/mcabber-*.json | tail -1)"
