#!/usr/bin/env bash
# Records the Finch fixture: the debug log of Finch, libpurple's curses client
# (`finch -d`, libpurple's debug output on stderr), in a scripted session over
# loopback, driven without a person (driver/finch_driver.py, over D-Bus as
# libpurple's purple-remote does), with a packet capture of the same session and
# the truth read from it by wire_truth.py (Python's expat), never by stanzaq.
# See README.md.
#
# Run 5: Prosody on 127.0.0.1:16210; Finch (wanda) sends the stress bodies to a
#        slixmpp echoer (xena).
#
# Runs after record.sh (`make fixtures`), which rewrites logs/, pcap/ and truth/
# as a whole: this adds its own files to them. Everything runs in a scratch
# directory (mktemp -d, Finch's HOME and its session bus too) and is stopped on
# exit; nothing listens on anything but 127.0.0.1. Needs root (apt-get,
# tcpdump, Prosody runs as the prosody user).
#
#   KEEP_SCRATCH=1 record-finch.sh    keeps the scratch directory for a look
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE"
PY=/usr/bin/python3            # the system Python, which has the Debian packages
DOMAIN=localhost
PORT=16210
S2S_PORT=16211                 # configured, though s2s is disabled
HTTP_PORT=16212
PASSWORD=fixture-pw
TMUX_SOCKET=stanzaq-rec-servers-finch

log() { printf '[record-finch] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (apt-get, tcpdump, setpriv)"

# --- packages ---------------------------------------------------------------
. "$HERE/record-lib.sh"
install_missing finch libpurple0 dbus-daemon python3-dbus prosody python3-slixmpp tmux tshark tcpdump

# --- scratch directory and clean-up ----------------------------------------
TMUX_STARTED=0
cleanup_first() { if [ $TMUX_STARTED = 1 ]; then tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null; fi; }
make_scratch finch

# --- Prosody ------------------------------------------------------------------
P="$SCRATCH/prosody"
prosody_config "$P" $PORT $S2S_PORT $HTTP_PORT stanza_debug
prosody_accounts "$P" wanda xena

# --- Finch's HOME: the account (enabled, so it connects at start) --------------
FHOME="$SCRATCH/home"
mkdir -p "$FHOME/.purple"
cat > "$FHOME/.purple/accounts.xml" <<ACCOUNTS
<?xml version='1.0' encoding='UTF-8' ?>
<account version='1.0'>
 <account>
  <protocol>prpl-jabber</protocol>
  <name>wanda@$DOMAIN/finch</name>
  <password>$PASSWORD</password>
  <settings>
   <setting name='connect_server' type='string'>127.0.0.1</setting>
   <setting name='port' type='int'>$PORT</setting>
   <setting name='connection_security' type='string'>opportunistic_tls</setting>
   <setting name='auth_plain_in_clear' type='bool'>1</setting>
  </settings>
  <settings ui='gnt-purple'>
   <setting name='auto-login' type='bool'>1</setting>
  </settings>
 </account>
</account>
ACCOUNTS
chmod 700 "$FHOME/.purple"

# --- a session bus of its own (Finch registers im.pidgin.purple.PurpleService) --
BUS="unix:path=$SCRATCH/bus"
dbus-daemon --session --nofork --nopidfile --address="$BUS" >/dev/null 2>&1 &
PIDS+=($!)
for i in $(seq 1 50); do [ -S "$SCRATCH/bus" ] && break; sleep 0.1; done
[ -S "$SCRATCH/bus" ] || die "dbus-daemon did not start"

port_free $PORT
start_capture $PORT "$SCRATCH/finch.pcap"
"${AS_PROSODY[@]}" prosody --config "$P/prosody.cfg.lua" >"$P/stdout" 2>&1 &
PROSODY_PID=$!
PIDS+=($PROSODY_PID)
wait_listening $PORT Prosody

# --- the echoer, then Finch in a tmux pane --------------------------------------
log "run 5: finch wanda -> slixmpp xena"
( "$PY" "$HERE/driver/slixmpp_client.py" --jid "xena@$DOMAIN/slixmpp-echoer" \
      --password "$PASSWORD" --port $PORT --peer "wanda@$DOMAIN" --role echoer \
      --ready-file "$SCRATCH/ready-xena" --log-file "$SCRATCH/slixmpp-xena.log" --log-format time \
      --timeout 120
  echo $? > "$SCRATCH/xena-done" ) &
PIDS+=($!)
for i in $(seq 1 150); do [ -e "$SCRATCH/ready-xena" ] && break; sleep 0.2; done
[ -e "$SCRATCH/ready-xena" ] || die "the slixmpp echoer did not get ready"

FLOG="$SCRATCH/finch-debug.log"
TMUX_STARTED=1
tmux -L "$TMUX_SOCKET" -f /dev/null new-session -d -s finch -x 200 -y 50 \
    "env -i HOME=$FHOME PATH=/usr/bin:/bin LANG=C.UTF-8 TERM=screen-256color TZ=UTC DBUS_SESSION_BUS_ADDRESS=$BUS finch -d 2>$FLOG"
DBUS_SESSION_BUS_ADDRESS="$BUS" "$PY" "$HERE/driver/finch_driver.py" --log "$FLOG" \
    --account "wanda@$DOMAIN/finch" --peer "xena@$DOMAIN" --room "room6@conference.$DOMAIN" \
    --peer-done "$SCRATCH/xena-done" \
    || die "the Finch session failed: $(tmux -L "$TMUX_SOCKET" capture-pane -p -t finch 2>/dev/null | grep -v '^ *$' | tail -5)"
[ "$(cat "$SCRATCH/xena-done")" = 0 ] || die "the slixmpp echoer failed"
for i in $(seq 1 100); do tmux -L "$TMUX_SOCKET" has-session -t finch 2>/dev/null || break; sleep 0.1; done
tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
TMUX_STARTED=0

stop_pid $PROSODY_PID
stop_capture "$SCRATCH/finch.pcap"

# --- fixtures -------------------------------------------------------------------
log "writing the fixtures"
mkdir -p "$OUT/logs" "$OUT/pcap" "$OUT/truth"
cp "$FLOG" "$OUT/logs/finch-wanda.log"
cp "$SCRATCH/finch.pcap" "$OUT/pcap/finch.pcap"
"$PY" "$HERE/wire_truth.py" --out "$OUT/truth" \
    --pcap finch="$OUT/pcap/finch.pcap" --server-port finch=$PORT \
    --conn finch:finch=finch:logs/finch-wanda.log

dpkg-query -W finch libpurple0 dbus-daemon python3-dbus prosody python3-slixmpp tmux tshark tcpdump > "$OUT/versions-finch.txt"
log "done: $(cd "$OUT" && du -ch logs/finch-wanda.log pcap/finch.pcap truth/finch-*.json | tail -1)"
