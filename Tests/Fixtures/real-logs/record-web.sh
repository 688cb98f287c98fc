#!/usr/bin/env bash
# Records the web fixtures: XMPP over BOSH (XEP-0124/0206, Prosody's mod_bosh)
# and over WebSocket (RFC 7395, Prosody's mod_websocket), each driven by a
# browser-like client (driver/web_client.py) that logs every body and frame as
# Strophe.js's examples do (`SENT: …`, `RECV: …`), with a packet capture of the
# same session, tshark's follow output of the BOSH connection, Prosody's own
# log, the bodies and frames of each direction as XML files, and the truth read from the capture by wire_truth.py (Python's expat and
# its own HTTP and WebSocket framing), never by stanzaq. See README.md.
#
# Run 5: Prosody on 127.0.0.1:16310 (c2s) and 127.0.0.1:16312 (HTTP:
#        /http-bind, /xmpp-websocket); amy over BOSH sends the stress bodies to
#        slixmpp cleo, who echoes them; then ben over WebSocket to slixmpp dan.
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d) and is stopped on exit; nothing listens on anything but
# 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-web.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16310
S2S_PORT=16311                 # configured, though s2s is disabled
HTTP_PORT=16312
PASSWORD=fixture-pw

log() { printf '[record-web] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-slixmpp python3-websockets tshark tcpdump

make_scratch web

# --- Prosody with mod_bosh and mod_websocket ----------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug bosh websocket
cat >> "$P/prosody.cfg.lua" <<'CONFIG'
-- Plain HTTP on loopback: the sessions count as secure, as behind a proxy that ends TLS.
consider_bosh_secure = true
consider_websocket_secure = true
CONFIG
prosody_accounts "$P" amy ben cleo dan

port_free $PORT
port_free $HTTP_PORT
start_capture $PORT "$SCRATCH/web.pcap" "tcp port $PORT or tcp port $HTTP_PORT"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody
wait_listening $HTTP_PORT "Prosody's HTTP server"

# web_session TRANSPORT USER ECHOER: the echoer on c2s, then the web client.
web_session() {
    local transport=$1 user=$2 echoer=$3 ready="$SCRATCH/ready-$3" pid
    log "run 5: $transport $user -> slixmpp $echoer"
    "$PY" "$HERE/driver/slixmpp_client.py" --jid "$echoer@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" \
        --port $PORT --peer "$user@$DOMAIN" --role echoer --ready-file "$ready" \
        --log-file "$SCRATCH/slixmpp-$echoer.log" --log-format time &
    pid=$!
    PIDS+=($pid)
    for i in $(seq 1 150); do [ -e "$ready" ] && break; sleep 0.2; done
    [ -e "$ready" ] || die "the slixmpp echoer $echoer did not get ready"
    "$PY" "$HERE/driver/web_client.py" --transport "$transport" --jid "$user@$DOMAIN" --resource "$transport" \
        --password "$PASSWORD" --port $HTTP_PORT --peer "$echoer@$DOMAIN" --log-file "$SCRATCH/$transport-$user.log" \
        || die "the $transport client failed"
    wait $pid || die "the slixmpp echoer $echoer failed"
}
web_session bosh amy cleo
web_session websocket ben dan

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/web.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth" "$OUT/tshark" "$OUT/xml"
cp "$SCRATCH/bosh-amy.log" "$SCRATCH/websocket-ben.log" "$OUT/logs/"
cp "$P/prosody.log" "$OUT/logs/prosody-web.log"
cp "$SCRATCH/web.pcap" "$OUT/pcap/web.pcap"
# tshark's follow output of each BOSH connection (HTTP requests and responses).
follow=()
for s in $(tshark -r "$OUT/pcap/web.pcap" -T fields -e tcp.stream -Y "http.request.uri == \"/http-bind\"" 2>/dev/null | sort -un); do
    follow+=(-z "follow,tcp,ascii,$s")
done
tshark -r "$OUT/pcap/web.pcap" -q "${follow[@]}" > "$OUT/tshark/bosh-follow.txt" 2>/dev/null
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap web="$OUT/pcap/web.pcap" --server-port web=$PORT \
    --server-log web=prosody:logs/prosody-web.log \
    --http-port web=$HTTP_PORT \
    --web-conn web:bosh=web_client:logs/bosh-amy.log --web-conn web:websocket=web_client:logs/websocket-ben.log \
    --web-follow web=tshark/bosh-follow.txt --web-xml web="$OUT/xml"

dpkg-query -W prosody python3-slixmpp python3-websockets python3 tshark tcpdump > "$OUT/versions-web.txt"
log "done: $(cd "$OUT" && du -ch logs/bosh-amy.log logs/websocket-ben.log logs/prosody-web.log pcap/web.pcap \
    tshark/bosh-follow.txt xml/*.xml | tail -1)"
