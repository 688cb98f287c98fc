#!/usr/bin/env bash
# Records the fixture of PyPI's current nbxmpp (not Debian's 4.2.2): the log of
# an nbxmpp client (driver/nbxmpp_client.py, Gajim's format) in a scripted
# session over loopback, with a packet capture of the same session and the
# truth read from it by wire_truth.py (Python's expat), never by stanzaq.
# See README.md.
#
# Run 8: Prosody on 127.0.0.1:16040; nbxmpp paula (sender) sends the stress
#        bodies to slixmpp olaf (Debian's; echoer).
#
# nbxmpp comes from PyPI, at the version below, into a virtual environment in
# the scratch directory (`--system-site-packages`: nbxmpp needs PyGObject,
# libsoup 3's introspection data and pycairo, which come from Debian). Runs
# after record.sh (`make fixtures`), as record-profanity.sh does; everything
# runs in a scratch directory and is stopped on exit; nothing listens on
# anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs as the
# prosody user) and the network (PyPI).
#
#   KEEP_SCRATCH=1 record-nbxmpp-pypi.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
NBXMPP_VERSION=7.4.0           # PyPI's current release when recorded
DOMAIN=localhost
PORT=16040
S2S_PORT=16041                 # configured, though s2s is disabled
HTTP_PORT=16042
PASSWORD=fixture-pw

log() { printf '[record-nbxmpp-pypi] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-venv python3-pip python3-gi python3-cairo gir1.2-soup-3.0 python3-slixmpp tshark tcpdump

make_scratch nbxmpp-pypi

log "nbxmpp $NBXMPP_VERSION from PyPI"
/usr/bin/python3 -m venv --system-site-packages "$SCRATCH/venv"
"$SCRATCH/venv/bin/pip" install -q "nbxmpp==$NBXMPP_VERSION" || die "pip could not install nbxmpp $NBXMPP_VERSION"
PY="$SCRATCH/venv/bin/python"
[ "$("$PY" -c 'import nbxmpp; print(nbxmpp.__version__)')" = $NBXMPP_VERSION ] || die "not nbxmpp $NBXMPP_VERSION"

P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" olaf paula

port_free $PORT
start_capture $PORT "$SCRATCH/nbxmpp-pypi.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 8: nbxmpp $NBXMPP_VERSION paula -> slixmpp olaf"
"/usr/bin/python3" "$HERE/driver/slixmpp_client.py" --jid "olaf@$DOMAIN/slixmpp-echoer" --password "$PASSWORD" \
    --port $PORT --peer "paula@$DOMAIN" --role echoer --ready-file "$SCRATCH/ready-olaf" \
    --log-file "$SCRATCH/olaf.log" --log-format time &
ECHOER=$!
PIDS+=($ECHOER)
"$PY" "$HERE/driver/nbxmpp_client.py" --jid "paula@$DOMAIN/nbxmpp" --password "$PASSWORD" --port $PORT \
    --peer "olaf@$DOMAIN" --room "room9@conference.$DOMAIN" --ready-file "$SCRATCH/ready-olaf" \
    --log-file "$SCRATCH/nbxmpp-paula.log" || die "the nbxmpp client failed"
wait $ECHOER || die "the slixmpp echoer failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/nbxmpp-pypi.pcap"

log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$SCRATCH/nbxmpp-paula.log" "$OUT/logs/nbxmpp-pypi-paula.log"
cp "$SCRATCH/nbxmpp-pypi.pcap" "$OUT/pcap/nbxmpp-pypi.pcap"
/usr/bin/python3 "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap nbxmpp-pypi="$OUT/pcap/nbxmpp-pypi.pcap" --server-port nbxmpp-pypi=$PORT \
    --conn nbxmpp-pypi:nbxmpp=nbxmpp:logs/nbxmpp-pypi-paula.log

{ dpkg-query -W prosody python3 python3-gi python3-cairo gir1.2-soup-3.0 python3-slixmpp tcpdump tshark
  "$SCRATCH/venv/bin/pip" freeze --local; } > "$OUT/versions-nbxmpp-pypi.txt"
log "done: $(cd "$OUT" && du -ch logs/nbxmpp-pypi-paula.log pcap/nbxmpp-pypi.pcap truth/nbxmpp-pypi-*.json | tail -1)"
