"""Prints CByteSearch.c's table of how common each byte is in XMPP logs and
stanzas: the real-software log fixtures (not the captures) and the XEP corpus,
each byte's count as the square root of its share of the commonest's, 0-255.
The prefilter's search looks for each needle by its two rarest bytes
(stanzaq_needle_make).

Run from the repository's root, with ../shared beside it:
    python3 benchmarks/byte-commonness.py
"""
import collections
import glob
import math
import os

files = sorted(f for f in glob.glob("Tests/Fixtures/real-logs/**/*", recursive=True)
               if os.path.isfile(f) and "/pcap/" not in f)
counts = collections.Counter()
for path in files + ["../shared/corpus/xep-stanzas.xml"]:
    counts.update(open(path, "rb").read())
most = max(counts.values())
values = [0 if counts[b] == 0 else max(1, round(255 * math.sqrt(counts[b] / most))) for b in range(256)]
for row in range(0, 256, 16):
    print("    " + ", ".join("%3d" % v for v in values[row:row + 16]) + ",")
