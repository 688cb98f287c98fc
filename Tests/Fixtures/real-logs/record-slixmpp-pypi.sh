#!/usr/bin/env bash
# Records the fixtures of PyPI's current slixmpp (not Debian's 1.8.3): the logs
# of two slixmpp clients (driver/slixmpp_client.py, in both Python logging
# formats of run 1) in a scripted session over loopback, with a packet capture
# of the same session and the truth read from it by wire_truth.py (Python's
# expat), never by stanzaq. See README.md.
#
# Run 7: Prosody on 127.0.0.1:16030; slixmpp olaf (sender, time-stamped
#        format) sends the stress bodies to slixmpp paula (echoer, without).
#
# slixmpp comes from PyPI, at the version below, into a virtual environment in
# the scratch directory (`--system-site-packages`, so that Debian's packages are
# there too). Runs after record.sh (`make fixtures`), as record-profanity.sh
# does; everything runs in a scratch directory and is stopped on exit; nothing
# listens on anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs
# as the prosody user) and the network (PyPI).
#
#   KEEP_SCRATCH=1 record-slixmpp-pypi.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
SLIXMPP_VERSION=1.17.0         # PyPI's current release when recorded
DOMAIN=localhost
PORT=16030
S2S_PORT=16031                 # configured, though s2s is disabled
HTTP_PORT=16032
PASSWORD=fixture-pw

log() { printf '[record-slixmpp-pypi] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-venv python3-pip tshark tcpdump

make_scratch slixmpp-pypi

log "slixmpp $SLIXMPP_VERSION from PyPI"
/usr/bin/python3 -m venv --system-site-packages "$SCRATCH/venv"
"$SCRATCH/venv/bin/pip" install -q "slixmpp==$SLIXMPP_VERSION" || die "pip could not install slixmpp $SLIXMPP_VERSION"
PY="$SCRATCH/venv/bin/python"
[ "$("$PY" -c 'import slixmpp; print(slixmpp.__version__)')" = $SLIXMPP_VERSION ] || die "not slixmpp $SLIXMPP_VERSION"

P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" olaf paula

port_free $PORT
start_capture $PORT "$SCRATCH/slixmpp-pypi.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 7: slixmpp $SLIXMPP_VERSION olaf -> slixmpp $SLIXMPP_VERSION paula"
READY="$SCRATCH/ready"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "paula@$DOMAIN/slixmpp-notime" --password "$PASSWORD" --port $PORT \
    --peer "olaf@$DOMAIN" --role echoer --ready-file "$READY" --log-file "$SCRATCH/paula.log" --log-format notime &
ECHOER=$!
PIDS+=($ECHOER)
"$PY" "$HERE/driver/slixmpp_client.py" --jid "olaf@$DOMAIN/slixmpp-time" --password "$PASSWORD" --port $PORT \
    --peer "paula@$DOMAIN" --role sender --room "room8@conference.$DOMAIN" --ready-file "$READY" \
    --log-file "$SCRATCH/olaf.log" --log-format time || die "the slixmpp sender failed"
wait $ECHOER || die "the slixmpp echoer failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/slixmpp-pypi.pcap"

log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SCRATCH/olaf.log" "$OUT/logs/slixmpp-pypi-time-olaf.log"
cp "$SCRATCH/paula.log" "$OUT/logs/slixmpp-pypi-notime-paula.log"
cp "$SCRATCH/slixmpp-pypi.pcap" "$OUT/pcap/slixmpp-pypi.pcap"
/usr/bin/python3 "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap slixmpp-pypi="$OUT/pcap/slixmpp-pypi.pcap" --server-port slixmpp-pypi=$PORT \
    --conn slixmpp-pypi:slixmpp-time=slixmpp:logs/slixmpp-pypi-time-olaf.log \
    --conn slixmpp-pypi:slixmpp-notime=slixmpp:logs/slixmpp-pypi-notime-paula.log

{ dpkg-query -W prosody python3 tcpdump tshark; "$SCRATCH/venv/bin/pip" freeze --local; } > "$OUT/versions-slixmpp-pypi.txt"
log "done: $(cd "$OUT" && du -ch logs/slixmpp-pypi-*.log pcap/slixmpp-pypi.pcap truth/slixmpp-pypi-*.json | tail -1)"
