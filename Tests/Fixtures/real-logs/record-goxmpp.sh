#!/usr/bin/env bash
# Records the go-xmpp fixtures: the debug output of go-xmpp
# (github.com/mattn/go-xmpp, Options.Debug), which tees every read of the
# socket to standard error with a line feed after it, and nothing it sends;
# written by a go-xmpp client of ours (driver/goxmpp_client.go) and by
# go-sendxmpp (`--debug`), in scripted sessions over loopback, with a packet
# capture and the truth read from it by wire_truth.py (Python's expat), never
# by stanzaq. See README.md.
#
# Run 6: Prosody on 127.0.0.1:16120.
#   6a  the go-xmpp client sven (sender: iqs, the stress bodies, bye) with a
#       slixmpp echoer, tara, whose echoes are what sven's log shows of the bodies;
#   6b  go-sendxmpp ulf, twice (a body with newlines, then bye), with a slixmpp
#       receiver, vera. go-sendxmpp will not log in without TLS (go-xmpp refuses
#       to authenticate over an unencrypted connection and go-sendxmpp does not
#       allow it), so it connects with direct TLS (-t, -n: the certificate is
#       not checked) to driver/tls_proxy.py on 127.0.0.1:16123, which passes the
#       bytes to Prosody in plaintext: the capture (port 16120) reads them there.
#
# Runs after record.sh (`make fixtures`); everything runs in a scratch directory
# (mktemp -d) and is stopped on exit; nothing listens on anything but
# 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-goxmpp.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16120
S2S_PORT=16121                 # configured, though s2s is disabled
HTTP_PORT=16122
TLS_PORT=16123
PASSWORD=fixture-pw

log() { printf '[record-goxmpp] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing golang-go golang-github-mattn-go-xmpp-dev go-sendxmpp prosody python3-slixmpp openssl \
    tshark tcpdump

make_scratch goxmpp

# --- the go-xmpp client, built offline with Debian's Go and go-xmpp --------------
log "building driver/goxmpp_client.go"
( cd "$SCRATCH" && cp "$HERE/driver/goxmpp_client.go" . &&
  GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$SCRATCH/gocache" \
      go build -o goxmpp_client goxmpp_client.go ) || die "could not build the go-xmpp client"

# The session's data, from driver/scenario.py.
"$PY" - "$HERE/driver" "$SCRATCH" "$DOMAIN" <<'PYTHON'
import json, os, sys
sys.path.insert(0, sys.argv[1])
import scenario
out, domain = sys.argv[2], sys.argv[3]
with open(os.path.join(out, "scenario.json"), "w", encoding="utf-8") as f:
    json.dump({"iqs": scenario.iq_steps("sven", domain, f"tara@{domain}"),
               "bodies": scenario.BODIES, "bye": scenario.BYE}, f)
bodies = dict(scenario.BODIES)
with open(os.path.join(out, "body-mixed"), "w", encoding="utf-8") as f:
    f.write(bodies["mixed"])
with open(os.path.join(out, "body-bye"), "w", encoding="utf-8") as f:
    f.write(scenario.BYE)
PYTHON

# --- Prosody, the capture, the TLS front --------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" sven tara ulf vera

port_free $PORT
port_free $TLS_PORT
start_capture $PORT "$SCRATCH/goxmpp.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$DOMAIN" \
    -keyout "$SCRATCH/key.pem" -out "$SCRATCH/cert.pem" 2>/dev/null || die "no certificate"
"$PY" "$HERE/driver/tls_proxy.py" --listen $TLS_PORT --to $PORT --cert "$SCRATCH/cert.pem" \
    --key "$SCRATCH/key.pem" --ready-file "$SCRATCH/ready-proxy" &
PIDS+=($!)
wait_listening $TLS_PORT "the TLS front"

wait_ready() { for i in $(seq 1 150); do [ -e "$1" ] && return 0; sleep 0.2; done; die "$2 did not get ready"; }

# --- 6a: go-xmpp sven -> slixmpp tara (echoer) ----------------------------------------
log "run 6a: go-xmpp sven -> slixmpp tara"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "tara@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" \
    --port $PORT --peer "sven@$DOMAIN" --role echoer --ready-file "$SCRATCH/ready-tara" \
    --log-file "$SCRATCH/tara.log" --log-format time &
ECHOER=$!
PIDS+=($ECHOER)
wait_ready "$SCRATCH/ready-tara" "the slixmpp echoer"
"$SCRATCH/goxmpp_client" -host "127.0.0.1:$PORT" -user "sven@$DOMAIN" -password "$PASSWORD" \
    -resource goxmpp -peer "tara@$DOMAIN" -scenario "$SCRATCH/scenario.json" \
    2>"$SCRATCH/goxmpp-sven.log" || die "the go-xmpp client failed"
wait $ECHOER || die "the slixmpp echoer failed"

# --- 6b: go-sendxmpp ulf -> slixmpp vera (receiver) -------------------------------------
log "run 6b: go-sendxmpp ulf -> slixmpp vera"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "vera@$DOMAIN/slixmpp-receiver" --password "$PASSWORD" \
    --port $PORT --peer "ulf@$DOMAIN" --role receiver --ready-file "$SCRATCH/ready-vera" \
    --log-file "$SCRATCH/vera.log" --log-format time &
RECEIVER=$!
PIDS+=($RECEIVER)
wait_ready "$SCRATCH/ready-vera" "the slixmpp receiver"
GLOG="$SCRATCH/go-sendxmpp-ulf.log"
: > "$GLOG"
# (-r names the resource, so that the truth finds the connections; go-sendxmpp
# says on standard output that the flag is deprecated.)
for body in mixed bye; do
    go-sendxmpp --debug -t -n -r go-sendxmpp -u "ulf@$DOMAIN" -p "$PASSWORD" -j "127.0.0.1:$TLS_PORT" \
        "vera@$DOMAIN" < "$SCRATCH/body-$body" 2>>"$GLOG" >>"$SCRATCH/go-sendxmpp.stdout" \
        || die "go-sendxmpp ($body) failed: $(tail -2 "$GLOG")"
done
wait $RECEIVER || die "the slixmpp receiver failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/goxmpp.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SCRATCH/goxmpp-sven.log" "$OUT/logs/goxmpp-sven.log"
cp "$GLOG" "$OUT/logs/go-sendxmpp-ulf.log"
cp "$SCRATCH/goxmpp.pcap" "$OUT/pcap/goxmpp.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap goxmpp="$OUT/pcap/goxmpp.pcap" --server-port goxmpp=$PORT \
    --conn goxmpp:goxmpp=goxmpp:logs/goxmpp-sven.log \
    --conn goxmpp:go-sendxmpp=go-sendxmpp:logs/go-sendxmpp-ulf.log \
    --received-only logs/goxmpp-sven.log --received-only logs/go-sendxmpp-ulf.log

dpkg-query -W golang-go golang-github-mattn-go-xmpp-dev go-sendxmpp prosody python3-slixmpp tshark tcpdump \
    > "$OUT/versions-goxmpp.txt"
log "done: $(cd "$OUT" && du -ch logs/goxmpp-sven.log logs/go-sendxmpp-ulf.log pcap/goxmpp.pcap truth/goxmpp-*.json \
    truth/go-sendxmpp-*.json | tail -1)"
