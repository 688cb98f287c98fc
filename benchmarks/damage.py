"""Damaged input (issue 43): the rate at which stanzaq reads damage, against its
rate on an undamaged log, so that a damage costs what its bytes cost, however
many came before it. Two shapes, each large enough to have taken minutes in
quadratic time:

- cut start tags: `<a` and a line feed, 640,000 times (1.9 MB), through a pipe:
  every line is a start tag cut off by the next;
- ejabberd records that each open a start tag: a stream header, then 3,000
  records of `Received XML on stream = <<"<a xxx…">>` (5 KB each, 15 MB, past
  libxml2's limit of 10,000,000 bytes held), then a stanza.

Each rate is MB/s of input; the ratio is that rate over the undamaged log's.
Every cut tag is a damaged stanza of its own, with its message and a new
libxml2 parser after it, so the rate is far below the undamaged one; what
matters is that it stays the same at any size.
BENCH_ONLY=damage runs this part alone.
"""
import os

EJABBERD = "2026-11-25 19:05:22.906129+00:00 [notice] <0.525.0> (tcp|<0.525.0>) Received XML on stream = "


def make_inputs(data):
    cut = os.path.join(data, "damage-cut-tags.xml")
    if not os.path.exists(cut):
        with open(cut, "w") as out:
            out.write("<a\n" * 640_000)
    records = os.path.join(data, "damage-ejabberd-open-tags.log")
    if not os.path.exists(records):
        header = "<stream:stream to='localhost' xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' xml:lang='en' version='1.0'>"
        with open(records, "w") as out:
            out.write(EJABBERD + '<<"' + header + '">>\n')
            record = EJABBERD + '<<"<a ' + "x" * 5000 + '">>\n'
            out.write(record * 3000)
            out.write(EJABBERD + "<<\"<message id='after'/>\">>\n")
    return cut, records


def run(bin_, data, runs, interleaved, q, log):
    """Rows of the damage table; `log` is the undamaged log to compare with."""
    os.makedirs(data, exist_ok=True)
    cut, records = make_inputs(data)
    piped = f"cat {cut} | {bin_} -e " + q("/$")
    commands = [f"{bin_} {q('body#')} {log}",
                f"sh -c {q(piped)}",
                f"{bin_} -e /@id {records}"]
    medians = interleaved(commands, runs)
    sizes = [os.path.getsize(path) / 1e6 for path in (log, cut, records)]
    rates = [size / median for size, median in zip(sizes, medians)]
    names = [f"undamaged Prosody log ({sizes[0]:.0f} MB), `stanzaq body#`",
             f"cut start tags (`<a` lines, {sizes[1]:.1f} MB, piped), `stanzaq -e /$`",
             f"ejabberd records each opening a start tag ({sizes[2]:.0f} MB), `stanzaq -e /@id`"]
    rows = ["| damaged input | median s | MB/s | rate vs the undamaged log |", "|---|---:|---:|---:|"]
    for name, median, rate in zip(names, medians, rates):
        rows.append(f"| {name} | {median:.3f} | {rate:.1f} | {rate / rates[0]:.2f} |")
    return rows
