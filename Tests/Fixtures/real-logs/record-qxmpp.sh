#!/usr/bin/env bash
# Records the QXmpp fixture: the log of a QXmpp client (Debian's libqxmpp-dev,
# Kaidan's library; driver/qxmpp_client.cpp, built here with g++) with
# QXmppLogger writing to a file, in a scripted session over loopback, with a
# packet capture of the same session and the truth read from it by
# wire_truth.py (Python's expat), never by stanzaq. See README.md.
#
# Run 6: Prosody on 127.0.0.1:16320; QXmpp (dan) sends the stress bodies to a
#        slixmpp echoer (cleo).
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d) and is stopped on exit; nothing listens on anything but
# 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-qxmpp.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16320
S2S_PORT=16321                 # configured, though s2s is disabled
HTTP_PORT=16322
PASSWORD=fixture-pw

log() { printf '[record-qxmpp] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-slixmpp libqxmpp-dev qtbase5-dev g++ pkg-config tshark tcpdump

make_scratch qxmpp

# --- the client -----------------------------------------------------------------
g++ -std=c++17 -O1 -fPIC -o "$SCRATCH/qxmpp_client" "$HERE/driver/qxmpp_client.cpp" \
    $(pkg-config --cflags --libs qxmpp Qt5Core Qt5Network Qt5Xml) || die "the QXmpp client does not build"
# Its script: scenario.py's iqs and stress bodies, one a line (\n, \t, \\ escaped).
"$PY" - "$HERE/driver" dan "$DOMAIN" "cleo@$DOMAIN" > "$SCRATCH/script" <<'PYTHON'
import sys
sys.path.insert(0, sys.argv[1])
import scenario
user, domain, peer = sys.argv[2:5]
for _id, xml in scenario.iq_steps(user, domain, peer):
    print("iq " + xml)
for suffix, body in scenario.BODIES:
    print("chat " + suffix + " " + body.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t"))
PYTHON

# --- Prosody ------------------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" cleo dan

port_free $PORT
start_capture $PORT "$SCRATCH/qxmpp.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 6: qxmpp dan -> slixmpp cleo"
READY="$SCRATCH/ready"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "cleo@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" --port $PORT \
    --peer "dan@$DOMAIN" --role echoer --ready-file "$READY" --log-file "$SCRATCH/cleo.log" --log-format time &
ECHOER=$!
PIDS+=($ECHOER)
for i in $(seq 1 150); do [ -e "$READY" ] && break; sleep 0.2; done
[ -e "$READY" ] || die "the slixmpp echoer did not get ready"
"$SCRATCH/qxmpp_client" "dan@$DOMAIN" "$PASSWORD" $PORT "cleo@$DOMAIN" "$SCRATCH/script" "$SCRATCH/qxmpp-dan.log" \
    || die "the QXmpp session failed"
wait $ECHOER || die "the slixmpp echoer failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/qxmpp.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SCRATCH/qxmpp-dan.log" "$OUT/logs/qxmpp-dan.log"
cp "$SCRATCH/qxmpp.pcap" "$OUT/pcap/qxmpp.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap qxmpp="$OUT/pcap/qxmpp.pcap" --server-port qxmpp=$PORT \
    --conn qxmpp:qxmpp=qxmpp:logs/qxmpp-dan.log

dpkg-query -W libqxmpp-dev libqxmpp3 libqt5core5a prosody python3-slixmpp g++ tshark tcpdump > "$OUT/versions-qxmpp.txt"
log "done: $(cd "$OUT" && du -ch logs/qxmpp-dan.log pcap/qxmpp.pcap truth/qxmpp-dan.json | tail -1)"
