#!/usr/bin/env bash
# Records the aioxmpp fixture: the debug log of an aioxmpp client
# (driver/aioxmpp_client.py, Python logging at DEBUG: aioxmpp's `SENT b'…'` and
# `RECV b'…'`, the bytes of the stream as Python bytes literals) in a scripted
# session over loopback, with a packet capture of the same session and the
# truth read from it by wire_truth.py (Python's expat), never by stanzaq.
# See README.md.
#
# Run 5: Prosody on 127.0.0.1:16010; aioxmpp (kim) sends the stress bodies to
#        a slixmpp echoer (leo).
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory and is stopped on exit; nothing listens on anything but 127.0.0.1.
# Needs root (apt-get, tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-aioxmpp.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16010
S2S_PORT=16011                 # configured, though s2s is disabled
HTTP_PORT=16012
PASSWORD=fixture-pw

log() { printf '[record-aioxmpp] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-aioxmpp python3-slixmpp tshark tcpdump

make_scratch aioxmpp

P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" kim leo

port_free $PORT
start_capture $PORT "$SCRATCH/aioxmpp.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 5: aioxmpp kim -> slixmpp leo"
READY="$SCRATCH/ready"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "leo@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" --port $PORT \
    --peer "kim@$DOMAIN" --role echoer --ready-file "$READY" --log-file "$SCRATCH/leo.log" --log-format time &
ECHOER=$!
PIDS+=($ECHOER)
"$PY" "$HERE/driver/aioxmpp_client.py" --jid "kim@$DOMAIN/aioxmpp" --password "$PASSWORD" --port $PORT \
    --peer "leo@$DOMAIN" --room "room6@conference.$DOMAIN" --ready-file "$READY" \
    --log-file "$SCRATCH/aioxmpp-kim.log" || die "the aioxmpp client failed"
wait $ECHOER || die "the slixmpp echoer failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/aioxmpp.pcap"

log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SCRATCH/aioxmpp-kim.log" "$OUT/logs/aioxmpp-kim.log"
cp "$SCRATCH/aioxmpp.pcap" "$OUT/pcap/aioxmpp.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap aioxmpp="$OUT/pcap/aioxmpp.pcap" --server-port aioxmpp=$PORT \
    --conn aioxmpp:aioxmpp=aioxmpp:logs/aioxmpp-kim.log

dpkg-query -W prosody python3-aioxmpp python3-slixmpp python3 tcpdump tshark > "$OUT/versions-aioxmpp.txt"
log "done: $(cd "$OUT" && du -ch logs/aioxmpp-kim.log pcap/aioxmpp.pcap truth/aioxmpp-*.json | tail -1)"
