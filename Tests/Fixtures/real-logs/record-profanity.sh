#!/usr/bin/env bash
# Records the Profanity fixture: the debug log of the Profanity terminal client
# (`profanity -l DEBUG`) in a scripted session over loopback, driven in a tmux
# pane without a person (driver/profanity_driver.py), with a packet capture of
# the same session and the truth read from it by wire_truth.py (Python's
# expat), never by stanzaq. See README.md.
#
# Run 3: Prosody on 127.0.0.1:15242; Profanity (grace) sends the stress bodies
#        to a slixmpp echoer (heidi).
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d, Profanity's HOME too) and is stopped on exit; nothing
# listens on anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs
# as the prosody user).
#
#   KEEP_SCRATCH=1 record-profanity.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=15242
S2S_PORT=15279                 # configured, though s2s is disabled
HTTP_PORT=15290
PASSWORD=fixture-pw
TMUX_SOCKET=stanzaq-profanity-fixture
# Profanity writes its local time with its offset (g_date_time_format_iso8601):
# a zone that is not UTC shows the offset (`+01`) rather than `Z`.
PROFANITY_TZ=Europe/Berlin

log() { printf '[record-profanity] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

# --- packages ---------------------------------------------------------------
. "$HERE/record-lib.sh"
install_missing profanity prosody python3-slixmpp tmux tshark tcpdump tzdata

# --- scratch directory and clean-up ----------------------------------------
TMUX_STARTED=0
cleanup_first() { if [ $TMUX_STARTED = 1 ]; then tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null; fi; }
make_scratch profanity

# --- Prosody ------------------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" grace heidi

port_free $PORT
start_capture $PORT "$SCRATCH/profanity.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

# --- the echoer, then Profanity in a tmux pane --------------------------------
log "run 3: profanity grace -> slixmpp heidi"
( "$PY" "$HERE/driver/slixmpp_client.py" --jid "heidi@$DOMAIN/slixmpp-echoer" \
      --password "$PASSWORD" --port $PORT --peer "grace@$DOMAIN" --role echoer \
      --ready-file "$SCRATCH/ready-heidi" --log-file "$SCRATCH/slixmpp-heidi.log" --log-format time
  echo $? > "$SCRATCH/heidi-done" ) &
PIDS+=($!)
for i in $(seq 1 150); do [ -e "$SCRATCH/ready-heidi" ] && break; sleep 0.2; done
[ -e "$SCRATCH/ready-heidi" ] || die "the slixmpp echoer did not get ready"

PHOME="$SCRATCH/home"          # Profanity's HOME: its configuration, accounts and log
mkdir -p "$PHOME"
PLOG="$PHOME/.local/share/profanity/logs/profanity.log"
TMUX_STARTED=1
tmux -L "$TMUX_SOCKET" -f /dev/null new-session -d -s profanity -x 200 -y 50 \
    "env -i HOME=$PHOME PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=screen-256color TZ=$PROFANITY_TZ profanity -l DEBUG"
"$PY" "$HERE/driver/profanity_driver.py" --tmux-socket "$TMUX_SOCKET" --target profanity --log "$PLOG" \
    --account "grace@$DOMAIN" --password "$PASSWORD" --resource profanity --port $PORT \
    --peer "heidi@$DOMAIN" --room "room4@conference.$DOMAIN" --peer-done "$SCRATCH/heidi-done" \
    || die "the Profanity session failed: $(tmux -L "$TMUX_SOCKET" capture-pane -p -t profanity 2>/dev/null | grep -v '^ *$' | tail -5)"
[ "$(cat "$SCRATCH/heidi-done")" = 0 ] || die "the slixmpp echoer failed"
for i in $(seq 1 100); do tmux -L "$TMUX_SOCKET" has-session -t profanity 2>/dev/null || break; sleep 0.1; done
tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
TMUX_STARTED=0

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/profanity.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$PLOG" "$OUT/logs/profanity-grace.log"
cp "$SCRATCH/profanity.pcap" "$OUT/pcap/profanity.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap profanity="$OUT/pcap/profanity.pcap" --server-port profanity=$PORT \
    --conn profanity:profanity=profanity:logs/profanity-grace.log

dpkg-query -W profanity libstrophe0 prosody python3-slixmpp tmux tshark tcpdump > "$OUT/versions-profanity.txt"
log "done: $(cd "$OUT" && du -ch logs/profanity-grace.log pcap/profanity.pcap truth/profanity-*.json | tail -1)"
