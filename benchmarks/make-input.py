#!/usr/bin/env python3
"""Writes a large XMPP stream for benchmarks: the shared corpus of XEP example
stanzas without its comments (RFC 6120 forbids them in a stream), its stanzas
repeated until the output reaches the requested size.

usage: make-input.py CORPUS OUTPUT MEGABYTES
"""
import re
import sys

corpus, output, megabytes = sys.argv[1], sys.argv[2], float(sys.argv[3])
text = open(corpus, encoding="utf-8").read()
text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
start = text.index(">", text.index("<stream:stream")) + 1
end = text.rindex("</stream:stream>")
header, body = text[:start], text[start:end]
body = "\n".join(line for line in body.split("\n") if line.strip()) + "\n"
target = int(megabytes * 1_000_000)
with open(output, "w", encoding="utf-8") as out:
    out.write(header + "\n")
    written = len(header.encode()) + 1
    chunk = body.encode()
    while written + len(chunk) < target:
        out.write(body)
        written += len(chunk)
    out.write("</stream:stream>\n")
