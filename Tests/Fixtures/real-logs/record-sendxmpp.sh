#!/usr/bin/env bash
# Records the sendxmpp fixture: the debug output of sendxmpp (`sendxmpp -d`,
# Perl's Net::XMPP and XML::Stream at debug level 1, on standard error) in a
# scripted session over loopback, with a packet capture of the same session
# and the truth read from it by wire_truth.py (Python's expat), never by
# stanzaq. See README.md.
#
# Run 5: Prosody on 127.0.0.1:16110; sendxmpp (quinn) sends the stress bodies
#        to a slixmpp receiver (rita), which does not answer: sendxmpp reads
#        nothing after its message (it sleeps a second and closes the stream),
#        so an answer would be on the wire and not in its log. sendxmpp runs
#        five times, appending to one log as a shell's `2>>` does: once with
#        `-i` (one message a line: the bodies without a newline), once for each
#        body with newlines (standard input is the body), once for `bye`.
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d) and is stopped on exit; nothing listens on anything but
# 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-sendxmpp.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16110
S2S_PORT=16111                 # configured, though s2s is disabled
HTTP_PORT=16112
PASSWORD=fixture-pw

log() { printf '[record-sendxmpp] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing sendxmpp prosody python3-slixmpp tshark tcpdump

make_scratch sendxmpp

# --- Prosody ------------------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" quinn rita

port_free $PORT
start_capture $PORT "$SCRATCH/sendxmpp.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

# --- the receiver, then sendxmpp ------------------------------------------------
log "run 5: sendxmpp quinn -> slixmpp rita"
READY="$SCRATCH/ready-rita"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "rita@$DOMAIN/slixmpp-receiver" --password "$PASSWORD" \
    --port $PORT --peer "quinn@$DOMAIN" --role receiver --ready-file "$READY" \
    --log-file "$SCRATCH/rita.log" --log-format time &
RECEIVER=$!
PIDS+=($RECEIVER)
for i in $(seq 1 150); do [ -e "$READY" ] && break; sleep 0.2; done
[ -e "$READY" ] || die "the slixmpp receiver did not get ready"

# The bodies, from driver/scenario.py: the ones without a newline one a line
# (for -i), the others each in a file of its own (exactly the body: no newline
# after it).
BODIES="$SCRATCH/bodies"
mkdir -p "$BODIES"
"$PY" - "$HERE/driver" "$BODIES" <<'PYTHON'
import os, sys
sys.path.insert(0, sys.argv[1])
import scenario
out = sys.argv[2]
with open(os.path.join(out, "lines"), "w", encoding="utf-8") as lines:
    for suffix, body in scenario.BODIES:
        if "\n" in body:
            with open(os.path.join(out, suffix), "w", encoding="utf-8") as f:
                f.write(body)
        else:
            lines.write(body + "\n")
with open(os.path.join(out, "zz-bye"), "w", encoding="utf-8") as f:
    f.write(scenario.BYE)
PYTHON

SLOG="$SCRATCH/sendxmpp-quinn.log"
: > "$SLOG"
SENDXMPP=(sendxmpp -d -u quinn -p "$PASSWORD" -j "$DOMAIN:$PORT" -r sendxmpp "rita@$DOMAIN")
"${SENDXMPP[@]}" -i < "$BODIES/lines" 2>>"$SLOG" || die "sendxmpp -i failed"
for f in multiline pasted-log mixed zz-bye; do
    "${SENDXMPP[@]}" < "$BODIES/$f" 2>>"$SLOG" || die "sendxmpp ($f) failed"
done
wait $RECEIVER || die "the slixmpp receiver failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/sendxmpp.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SLOG" "$OUT/logs/sendxmpp-quinn.log"
cp "$SCRATCH/sendxmpp.pcap" "$OUT/pcap/sendxmpp.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap sendxmpp="$OUT/pcap/sendxmpp.pcap" --server-port sendxmpp=$PORT \
    --conn sendxmpp:sendxmpp=sendxmpp:logs/sendxmpp-quinn.log

dpkg-query -W sendxmpp libnet-xmpp-perl libxml-stream-perl perl prosody python3-slixmpp tshark tcpdump \
    > "$OUT/versions-sendxmpp.txt"
log "done: $(cd "$OUT" && du -ch logs/sendxmpp-quinn.log pcap/sendxmpp.pcap truth/sendxmpp-*.json | tail -1)"
