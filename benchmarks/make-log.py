#!/usr/bin/env python3
"""Writes a large Prosody debug log for benchmarks, and the same stanzas as an
XMPP stream, so that reading the log can be compared with reading XML.

The stanzas are those of the shared corpus of XEP examples, without the
whitespace between elements that pretty-printing put there. Each is logged as
Prosody 0.12 logs it (stanzaq(1), LOGS; examples/logs/README.md): the file
sink's `Mon DD HH:MM:SS NAME\\tdebug\\tMESSAGE`, mod_stanza_debug's `RECV:` /
`SEND:` with the whole stanza (a newline inside it followed by a tab, as
util/format.lua writes it), stanza_router's `Received[c2s]:` after an incoming
stanza and sessionmanager's `Sending[c2s]:` before an outgoing one (start tags
that stanzaq reports once), sessions alternating, and a line of other text
every tenth stanza. The log is repeated until it reaches the requested size.

usage: make-log.py CORPUS LOG XML MEGABYTES
"""
import re
import sys
import xml.etree.ElementTree as ET

corpus, log_path, xml_path, megabytes = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
text = re.sub(r"<!--.*?-->", "", open(corpus, encoding="utf-8").read(), flags=re.S)
ET.register_namespace("", "jabber:client")
ET.register_namespace("stream", "http://etherx.jabber.org/streams")
root = ET.fromstring(text)
# As they cross the wire: on one line, no whitespace between elements (text with
# newlines still spans lines in the log).
stanzas = [re.sub(r">\s+<", "><", ET.tostring(child, encoding="unicode").strip()) for child in root]

log_lines, xml_parts = [], []
for index, stanza in enumerate(stanzas):
    session = "c2s%012x" % (0x55e8a7f1c3a0 + index % 7)
    stamp = "Nov 23 %02d:%02d:%02d " % (index // 3600 % 24, index // 60 % 60, index % 60)
    top = re.match(r"<[^>]*?(/?)>", stanza).group(0)
    top = top[:-2] + ">" if top.endswith("/>") else top
    message = stanza.replace("\n", "\n\t")
    if index % 2 == 0:
        log_lines.append(f"{stamp}{session}\tdebug\tRECV: {message}")
        log_lines.append(f"{stamp}{session}\tdebug\tReceived[c2s]: {top}")
    else:
        log_lines.append(f"{stamp}{session}\tdebug\tSending[c2s]: {top}")
        log_lines.append(f"{stamp}{session}\tdebug\tSEND: {message}")
    if index % 10 == 0:
        log_lines.append(f"{stamp}{session}\tdebug\tClient sent opening <stream:stream> to example.com")
    xml_parts.append(stanza)
log_chunk = ("\n".join(log_lines) + "\n").encode()
xml_chunk = ("\n".join(xml_parts) + "\n").encode()

target = int(megabytes * 1_000_000)
repeats = max(1, target // len(log_chunk))
with open(log_path, "wb") as out:
    for _ in range(repeats):
        out.write(log_chunk)
with open(xml_path, "wb") as out:
    out.write(b"<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>\n")
    for _ in range(repeats):
        out.write(xml_chunk)
    out.write(b"</stream:stream>\n")
