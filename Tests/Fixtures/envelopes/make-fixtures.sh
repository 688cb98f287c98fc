#!/bin/bash
# Remakes the journal and syslog fixtures of this folder (see README.md) with
# the real tools: systemd-journal-remote and journalctl, rsyslogd and logger.
# Not run in CI. Needs Debian's systemd, systemd-journal-remote, rsyslog and
# bsdutils; runs no daemon but the rsyslogd it starts and stops.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
rsyslogd_pid=
cleanup() {
    if [ -n "$rsyslogd_pid" ]; then kill "$rsyslogd_pid" 2>/dev/null || true; wait "$rsyslogd_pid" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT

# The journal: the messages in journal export format, written into a journal
# file by systemd-journal-remote, printed by journalctl.
python3 "$here/messages.py" export > "$scratch/export.txt"
/lib/systemd/systemd-journal-remote --output="$scratch/fixture.journal" "$scratch/export.txt"
for mode in short short-iso short-precise short-iso-precise; do
    TZ=Europe/Berlin journalctl --file="$scratch/fixture.journal" -o "$mode" > "$scratch/journal-$mode.log"
done
TZ=Europe/Berlin journalctl --file="$scratch/fixture.journal" -o short -a > "$scratch/journal-short-a.log"

# The syslog files: rsyslogd, listening on a socket of its own, writes three
# files in three templates; logger hands it each message as the program would.
cat > "$scratch/rsyslog.conf" <<CONF
global(workDirectory="$scratch" localHostName="capulet" maxMessageSize="64k")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$scratch/log.sock" RateLimit.Interval="0")
*.* action(type="omfile" file="$scratch/syslog-traditional.log" template="RSYSLOG_TraditionalFileFormat")
*.* action(type="omfile" file="$scratch/syslog-rfc3339.log" template="RSYSLOG_FileFormat")
*.* action(type="omfile" file="$scratch/syslog-rfc5424.log" template="RSYSLOG_SyslogProtocol23Format")
CONF
TZ=Europe/Berlin rsyslogd -n -f "$scratch/rsyslog.conf" -i "$scratch/rsyslogd.pid" &
rsyslogd_pid=$!
for _ in $(seq 50); do [ -S "$scratch/log.sock" ] && break; sleep 0.1; done
python3 "$here/messages.py" nul > "$scratch/messages"
while IFS= read -r -d '' record; do
    ident=${record%% *}; rest=${record#* }
    pid=${rest%% *}; rest=${rest#* }
    message=${rest#* }
    logger -u "$scratch/log.sock" --size 65536 -t "$ident" --id="$pid" -- "$message"
done < "$scratch/messages"
expected=$(tr -cd '\0' < "$scratch/messages" | wc -c)
for _ in $(seq 100); do
    [ "$(wc -l < "$scratch/syslog-traditional.log")" -ge "$expected" ] && break
    sleep 0.1
done
kill "$rsyslogd_pid"; wait "$rsyslogd_pid" || true; rsyslogd_pid=

for file in journal-short journal-short-iso journal-short-precise journal-short-iso-precise journal-short-a \
            syslog-traditional syslog-rfc3339 syslog-rfc5424; do
    gzip -9n < "$scratch/$file.log" > "$here/$file.log.gz"
done
