#!/usr/bin/env bash
# Records the poezio fixture: the debug log of the poezio terminal client
# (`poezio -d FILE`) in a scripted session over loopback, driven in a tmux pane
# without a person (driver/poezio_driver.py), with a packet capture of the same
# session and the truth read from it by wire_truth.py (Python's expat), never
# by stanzaq. See README.md.
#
# Run 6: Prosody on 127.0.0.1:16020; poezio (mia) sends the stress bodies to a
#        slixmpp echoer (nick).
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d, poezio's HOME too) and is stopped on exit; nothing
# listens on anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs
# as the prosody user).
#
#   KEEP_SCRATCH=1 record-poezio.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16020
S2S_PORT=16021                 # configured, though s2s is disabled
HTTP_PORT=16022
PASSWORD=fixture-pw
TMUX_SOCKET=stanzaq-rec-python-poezio

log() { printf '[record-poezio] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing poezio prosody python3-slixmpp tmux tshark tcpdump

TMUX_STARTED=0
cleanup_first() { if [ $TMUX_STARTED = 1 ]; then tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null; fi; }
make_scratch poezio

P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" mia nick

port_free $PORT
start_capture $PORT "$SCRATCH/poezio.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 6: poezio mia -> slixmpp nick"
( "$PY" "$HERE/driver/slixmpp_client.py" --jid "nick@$DOMAIN/slixmpp-echoer" \
      --password "$PASSWORD" --port $PORT --peer "mia@$DOMAIN" --role echoer \
      --ready-file "$SCRATCH/ready-nick" --log-file "$SCRATCH/slixmpp-nick.log" --log-format time
  echo $? > "$SCRATCH/nick-done" ) &
PIDS+=($!)
for i in $(seq 1 150); do [ -e "$SCRATCH/ready-nick" ] && break; sleep 0.2; done
[ -e "$SCRATCH/ready-nick" ] || die "the slixmpp echoer did not get ready"

# poezio's configuration: the account, no TLS (the server offers none), no
# chat states; device_id fixes the resource poezio makes (`poezio-fixture`).
PHOME="$SCRATCH/home"
mkdir -p "$PHOME"
cat > "$PHOME/poezio.cfg" <<CONFIG
[Poezio]
jid = mia@$DOMAIN/poezio
password = $PASSWORD
custom_host = 127.0.0.1
custom_port = $PORT
force_encryption = false
device_id = fixture
send_chat_states = false
plugins_autoload =
CONFIG
PLOG="$PHOME/poezio-debug.log"
# poezio refuses to run as root: it runs as nobody, in its own HOME.
chown -R nobody:nogroup "$PHOME"
TMUX_STARTED=1
tmux -L "$TMUX_SOCKET" -f /dev/null new-session -d -s poezio -x 200 -y 50 \
    "setpriv --reuid=nobody --regid=nogroup --clear-groups -- env -i HOME=$PHOME PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=screen-256color poezio -f $PHOME/poezio.cfg -d $PLOG"
"$PY" "$HERE/driver/poezio_driver.py" --tmux-socket "$TMUX_SOCKET" --target poezio --log "$PLOG" \
    --account "mia@$DOMAIN" --peer "nick@$DOMAIN" --room "room7@conference.$DOMAIN" --peer-done "$SCRATCH/nick-done" \
    || die "the poezio session failed: $(tmux -L "$TMUX_SOCKET" capture-pane -p -t poezio 2>/dev/null | grep -v '^ *$' | tail -5)"
[ "$(cat "$SCRATCH/nick-done")" = 0 ] || die "the slixmpp echoer failed"
for i in $(seq 1 100); do tmux -L "$TMUX_SOCKET" has-session -t poezio 2>/dev/null || break; sleep 0.1; done
tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
TMUX_STARTED=0

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/poezio.pcap"

log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$PLOG" "$OUT/logs/poezio-mia.log"
cp "$SCRATCH/poezio.pcap" "$OUT/pcap/poezio.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap poezio="$OUT/pcap/poezio.pcap" --server-port poezio=$PORT \
    --conn poezio:poezio-fixture=poezio:logs/poezio-mia.log

dpkg-query -W poezio prosody python3-slixmpp tmux tcpdump tshark > "$OUT/versions-poezio.txt"
log "done: $(cd "$OUT" && du -ch logs/poezio-mia.log pcap/poezio.pcap truth/poezio-*.json | tail -1)"
