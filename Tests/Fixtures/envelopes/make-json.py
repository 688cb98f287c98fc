#!/usr/bin/env python3
"""Remakes the JSON envelope fixtures of this folder (README-json.md) from the
real-software logs of ../real-logs/logs: run from this folder.

- journal-*.json(-seq): each line of a log as one journal entry of a service,
  in journal export format, written into a journal file by systemd-journal-remote,
  then printed by journalctl -o json --all (and -o json-seq --all; and
  -o json without --all, which writes null for a MESSAGE of 4096 bytes or more).
- loki-*.jsonl: as logcli --output=jsonl prints each line.
- elastic-*.ndjson: as Elasticsearch returns each line's document, one hit a line.
"""
import gzip, json, os, struct, subprocess, tempfile

LOGS = "../real-logs/logs"
# (log, service name, pid, container)
SERVICES = [("prosody.log", "prosody", 4242, "prosody-1"),
            ("ejabberd.log", "ejabberd", 4343, "ejabberd-1"),
            ("slixmpp-time-alice.log", "python3", 4444, "alice-1")]
BASE = 1795633514_000000  # 2026-11-25T19:05:14Z, in microseconds

def lines(name):
    with open(os.path.join(LOGS, name), "rb") as f:
        data = f.read()
    return data.split(b"\n")[:-1]

def export_field(name, value):
    # journal export format: NAME=value, or NAME, LF, 64-bit little-endian size, value where the value has a LF.
    if b"\n" in value:
        return name + b"\n" + struct.pack("<Q", len(value)) + value + b"\n"
    return name + b"=" + value + b"\n"

def journal(name, identifier, pid):
    entries = []
    for number, line in enumerate(lines(name)):
        time = str(BASE + number * 1000).encode()
        fields = [(b"__REALTIME_TIMESTAMP", time), (b"__MONOTONIC_TIMESTAMP", str(5_000_000 + number * 1000).encode()),
                  (b"_BOOT_ID", b"0f3c4b2a1d5e4f6a8b9c0d1e2f3a4b5c"), (b"_HOSTNAME", b"xmpp.example"),
                  (b"_TRANSPORT", b"stdout"), (b"PRIORITY", b"6"), (b"SYSLOG_IDENTIFIER", identifier.encode()),
                  (b"_PID", str(pid).encode()), (b"_SYSTEMD_UNIT", (identifier + ".service").encode()),
                  (b"MESSAGE", line)]
        entries.append(b"".join(export_field(k, v) for k, v in fields) + b"\n")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "remote.journal")
        subprocess.run(["/lib/systemd/systemd-journal-remote", "--split-mode=none", "--output=" + path, "-"],
                       input=b"".join(entries), check=True)
        out = {}
        # (--all: without it, journalctl writes null for a field of 4096 bytes or more.)
        for mode, flags in (("json", ["--all"]), ("json-seq", ["--all"]), ("default", [])):
            out[mode] = subprocess.run(["journalctl", "--file=" + path, "-o", mode if mode != "default" else "json", "--no-pager"] + flags,
                                       check=True, capture_output=True).stdout
    return out

def go_json(value):
    # Go's encoding/json: map keys sorted, <, > and & escaped as \u003c, \u003e, \u0026.
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

def loki(name, container):
    # logcli (pkg/logcli/output/jsonl.go, FormatAndPrintln): {"labels":…,"line":…,"timestamp":…} by json.Marshal.
    out = []
    for number, line in enumerate(lines(name)):
        micro = BASE + number * 1000
        stamp = "2026-11-25T19:%02d:%02d.%06d000Z" % ((14 + (micro - BASE) // 1_000_000) // 60 + 5,
                                                      (14 + (micro - BASE) // 1_000_000) % 60, micro % 1_000_000)
        out.append(go_json({"labels": {"container": container, "job": "docker", "stream": "stdout"},
                            "line": line.decode("utf-8", "surrogateescape"), "timestamp": stamp}))
    return ("\n".join(out) + "\n").encode("utf-8", "surrogateescape")

def elastic(name, container):
    # An Elasticsearch search hit (_index, _id, _score, _source), one a line (jq -c '.hits.hits[]'),
    # its document as Filebeat's container input writes it (@timestamp, message, container.name, stream).
    out = []
    for number, line in enumerate(lines(name)):
        micro = BASE + number * 1000
        seconds = 14 + (micro - BASE) // 1_000_000
        stamp = "2026-11-25T19:%02d:%02d.%03dZ" % (5 + seconds // 60, seconds % 60, (micro % 1_000_000) // 1000)
        source = {"@timestamp": stamp, "message": line.decode("utf-8", "surrogateescape"),
                  "container": {"name": container}, "stream": "stdout", "log": {"offset": number}}
        out.append(json.dumps({"_index": ".ds-logs-2026.11.25-000001", "_id": "%s-%d" % (container, number),
                               "_score": None, "_source": source}, separators=(",", ":"), ensure_ascii=False))
    return ("\n".join(out) + "\n").encode("utf-8", "surrogateescape")

def write_gz(path, data):
    with open(path, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:
        f.write(data)

# (The larger logs in the formats shippers write are made by the tests themselves:
# JSONEnvelopeTests wraps every real-software log so.)
for name, identifier, pid, container in SERVICES:
    stem = name[:-4]
    out = journal(name, identifier, pid)
    write_gz("journal-%s.json.gz" % stem, out["json"])
    if name == "slixmpp-time-alice.log":
        write_gz("journal-%s.json-seq.gz" % stem, out["json-seq"])
        write_gz("journal-%s-without-all.json.gz" % stem, out["default"])
    if name != "ejabberd.log":
        write_gz("loki-%s.jsonl.gz" % stem, loki(name, container))
        write_gz("elastic-%s.ndjson.gz" % stem, elastic(name, container))

# The man page's examples (examples/envelopes/README.md), from the example logs.
LOGS = "../../../examples/logs"
write_plain = lambda path, data: open(path, "wb").write(data)
write_plain("../../../examples/envelopes/journal-slixmpp.json", journal("slixmpp.log", "bot", 4444)["json"])
write_plain("../../../examples/envelopes/loki-prosody.jsonl", loki("prosody.log", "prosody-1"))
