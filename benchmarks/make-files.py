#!/usr/bin/env python3
"""Writes many small XMPP streams for the many-files benchmark: the shared corpus
of XEP example stanzas (its comments, which mark where each example starts, are
the places it is cut and are left out), repeated until the files hold the
requested size together, dealt in order into COUNT files, each a stream of its own.

usage: make-files.py CORPUS DIRECTORY COUNT MEGABYTES
"""
import os
import re
import sys

corpus, directory, count, megabytes = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
text = open(corpus, encoding="utf-8").read()
start = text.index(">", text.index("<stream:stream")) + 1
end = text.rindex("</stream:stream>")
header = re.sub(r"<!--.*?-->", "", text[:start], flags=re.S).strip() + "\n"
# The comments that mark an example start a line; others (inside an example) are dropped.
parts = re.split(r"^<!--.*?-->", text[start:end], flags=re.S | re.M)
examples = [re.sub(r"<!--.*?-->", "", part, flags=re.S).strip() + "\n" for part in parts if part.strip()]
target = int(megabytes * 1_000_000)
per_file = target // count
os.makedirs(directory, exist_ok=True)
index = 0
for number in range(count):
    size = len(header) + 17
    with open(os.path.join(directory, f"part-{number:04d}.xml"), "w", encoding="utf-8") as out:
        out.write(header)
        while size < per_file:
            example = examples[index % len(examples)]
            out.write(example)
            size += len(example.encode())
            index += 1
        out.write("</stream:stream>\n")
