#!/usr/bin/env bash
# Records the mod_rawdebug fixture: Prosody's log with prosody-modules'
# mod_rawdebug, which logs the bytes each session writes and reads
# (`SEND(LENGTH): …`, `RECV(LENGTH): …`), in a scripted session over loopback,
# with a packet capture of the same session and the truth read from it by
# wire_truth.py (Python's expat), never by stanzaq. See README.md.
#
# Run 4: Prosody on 127.0.0.1:15252 with mod_rawdebug (and without
#        mod_stanza_debug); slixmpp ivan sends the stress bodies to slixmpp
#        judy, who echoes them.
#
# mod_rawdebug is not in Debian's prosody-modules: it is fetched at the
# revision below. Runs after record.sh (`make fixtures`), as record-profanity.sh
# does; everything runs in a scratch directory and is stopped on exit; nothing
# listens on anything but 127.0.0.1. Needs root (apt-get, tcpdump, Prosody runs
# as the prosody user) and the network (the module).
#
#   KEEP_SCRATCH=1 record-rawdebug.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=15252
S2S_PORT=15289                 # configured, though s2s is disabled
HTTP_PORT=15291
PASSWORD=fixture-pw
# prosody-modules' mod_rawdebug (its bytes/in and bytes/out filters), from a
# GitHub mirror of hg.prosody.im/prosody-modules.
RAWDEBUG_URL=https://raw.githubusercontent.com/chrisballinger/prosody-modules/71dc13c6375d4c9724eb150862173cb47f56a131/mod_rawdebug/mod_rawdebug.lua

log() { printf '[record-rawdebug] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

. "$HERE/record-lib.sh"
install_missing prosody python3-slixmpp tcpdump

make_scratch rawdebug

# --- Prosody with mod_rawdebug --------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT rawdebug
mkdir -p "$P/modules"
# (RAWDEBUG_LUA=FILE: that file, the same revision taken from a clone.)
if [ -n "${RAWDEBUG_LUA:-}" ]; then
    cp "$RAWDEBUG_LUA" "$P/modules/mod_rawdebug.lua"
else
    curl -fsS "$RAWDEBUG_URL" -o "$P/modules/mod_rawdebug.lua" || die "could not fetch mod_rawdebug"
fi
grep -q 'bytes/in' "$P/modules/mod_rawdebug.lua" || die "not the mod_rawdebug that logs bytes"
prosody_accounts "$P" ivan judy

port_free $PORT
start_capture $PORT "$SCRATCH/rawdebug.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

log "run 4: slixmpp ivan -> slixmpp judy"
READY="$SCRATCH/ready"
"$PY" "$HERE/driver/slixmpp_client.py" --jid "judy@$DOMAIN/slixmpp-notime" --password "$PASSWORD" --port $PORT \
    --peer "ivan@$DOMAIN" --role echoer --ready-file "$READY" --log-file "$SCRATCH/judy.log" --log-format notime &
ECHOER=$!
PIDS+=($ECHOER)
"$PY" "$HERE/driver/slixmpp_client.py" --jid "ivan@$DOMAIN/slixmpp-time" --password "$PASSWORD" --port $PORT \
    --peer "judy@$DOMAIN" --role sender --room "room5@conference.$DOMAIN" --ready-file "$READY" \
    --log-file "$SCRATCH/ivan.log" --log-format time
wait $ECHOER || die "the slixmpp echoer failed"

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/rawdebug.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$P/prosody.log" "$OUT/logs/prosody-rawdebug.log"
cp "$SCRATCH/rawdebug.pcap" "$OUT/pcap/rawdebug.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap rawdebug="$OUT/pcap/rawdebug.pcap" --server-port rawdebug=$PORT \
    --server-log rawdebug=prosody:logs/prosody-rawdebug.log

dpkg-query -W prosody python3-slixmpp tcpdump > "$OUT/versions-rawdebug.txt"
echo "mod_rawdebug $RAWDEBUG_URL" >> "$OUT/versions-rawdebug.txt"
log "done: $(cd "$OUT" && du -ch logs/prosody-rawdebug.log pcap/rawdebug.pcap truth/prosody-rawdebug.json | tail -1)"
