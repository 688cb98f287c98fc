#!/usr/bin/env python3
"""The messages two programs logged, as the journal or a syslog daemon was handed
them: Prosody's log (Tests/Fixtures/real-logs/logs/prosody.log; a line starting
with a tab goes on with the message before, as util/format.lua wrote it) and
slixmpp's (slixmpp-time-alice.log; a line not starting with its time goes on
with the message before), merged by their times, each program's in its order.

Usage: messages.py export  > FILE   journal export format (for systemd-journal-remote)
       messages.py nul     > FILE   the messages as IDENT PID REALTIME MESSAGE, NUL-separated
"""
import calendar, re, struct, sys, time
from pathlib import Path

LOGS = Path(__file__).resolve().parent.parent / "real-logs" / "logs"


def messages(name, starts):
    out = []
    for line in (LOGS / name).read_text(encoding="utf-8").split("\n")[:-1]:
        if out and not starts(line):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def prosody_time(message):
    # "Nov 25 19:05:14 NAME..." (the year is the one the log was written in).
    stamp = time.strptime("2026 " + message[:15], "%Y %b %d %H:%M:%S")
    return calendar.timegm(stamp) * 1_000_000


def slixmpp_time(message):
    stamp = time.strptime(message[:19], "%Y-%m-%d %H:%M:%S")
    return calendar.timegm(stamp) * 1_000_000 + int(message[20:23]) * 1000


def merged():
    prosody = [("prosody", 812, prosody_time(m), m)
               for m in messages("prosody.log", lambda line: not line.startswith("\t"))]
    bot = [("slixmpp", 905, slixmpp_time(m), m)
           for m in messages("slixmpp-time-alice.log", lambda line: re.match(r"\d{4}-\d\d-\d\d ", line))]
    out, i, j, last = [], 0, 0, 0
    while i < len(prosody) or j < len(bot):
        if j >= len(bot) or (i < len(prosody) and prosody[i][2] <= bot[j][2]):
            entry, i = prosody[i], i + 1
        else:
            entry, j = bot[j], j + 1
        last = max(last + 1, entry[2])
        out.append((entry[0], entry[1], last, entry[3]))
    return out


def export(out):
    boot = "0d8c8a4fbd6b4d6c9a0c4a3e9d7b1f20"
    first = None
    for ident, pid, realtime, message in merged():
        first = first or realtime
        fields = [("__REALTIME_TIMESTAMP", str(realtime)), ("__MONOTONIC_TIMESTAMP", str(realtime - first + 5_000_000)),
                  ("_BOOT_ID", boot), ("_HOSTNAME", "capulet"), ("_TRANSPORT", "stdout"), ("PRIORITY", "6"),
                  ("SYSLOG_IDENTIFIER", ident), ("_PID", str(pid)), ("MESSAGE", message)]
        for key, value in fields:
            data = value.encode("utf-8")
            if b"\n" in data:
                out.write(key.encode() + b"\n" + struct.pack("<Q", len(data)) + data + b"\n")
            else:
                out.write(key.encode() + b"=" + data + b"\n")
        out.write(b"\n")


def nul(out):
    for ident, pid, realtime, message in merged():
        out.write(f"{ident} {pid} {realtime} {message}".encode("utf-8") + b"\0")


{"export": export, "nul": nul}[sys.argv[1]](sys.stdout.buffer)
