#!/usr/bin/python3
"""The truth of the real-log fixtures, read from the packet captures.

For each capture (one per server run), tshark gives each TCP segment's payload
(`-T fields -e tcp.stream -e tcp.srcport -e tcp.dstport -e tcp.seq_raw -e
tcp.payload`); the segments of each connection and direction are put back in
order (retransmitted bytes dropped by sequence number) and the byte stream is
parsed by Python's expat (xml.parsers.expat), namespace-aware, never by
stanzaq. The stream root `<stream:stream>` is at depth 1 and the stanzas (and
nonzas: stream features, SASL, ...) at depth 2. A stream restart (after SASL)
begins a new document: each direction's bytes are cut before every
`<stream:stream` start tag (with the XML declaration that precedes it), and
each piece is parsed by a new parser. (`<` in text is always escaped on the
wire, so these start tags cannot come from text.)

It writes, in --out:
  <run>-wire.json    every connection of the capture, both directions
                     (c2s: client to server, s2c: server to client)
  <fixture>.json     for each log fixture, the connections it saw, with the
                     directions named as the log names them: for a server's log
                     `in` is c2s; for a client's log `in` is s2c; for tshark's
                     follow output `in` is node 1 (the server: node 0 is the one
                     that sent first, the client), so s2c.

Each element: {"name": local name, "ns": namespace or null, "id": id or null,
"type": type or null}; each `<message type='chat'>` at depth 2 also in
`chat_in`/`chat_out` with its id, from, to (null when absent) and the text of
its `<body>` (jabber:client) exactly as expat parsed it.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import xml.parsers.expat

NS_SEP = " "
NS_CLIENT = "jabber:client"
NS_BIND = "urn:ietf:params:xml:ns:xmpp-bind"
NS_STREAMS = "http://etherx.jabber.org/streams"


def split_name(qname):
    if NS_SEP in qname:
        ns, local = qname.split(NS_SEP, 1)
        return ns, local
    return None, qname


def tcp_streams(pcap):
    """{stream: {"ports": (a, b), "dirs": {(src, dst): bytes}}} in capture order."""
    out = subprocess.run(
        ["tshark", "-r", pcap, "-T", "fields", "-E", "separator=\t",
         "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.dstport",
         "-e", "tcp.seq_raw", "-e", "tcp.payload", "-Y", "tcp.len > 0"],
        check=True, capture_output=True, text=True).stdout
    streams = {}
    for line in out.splitlines():
        if not line.strip():
            continue
        s, sp, dp, seq, payload = line.split("\t")
        s, sp, dp, seq = int(s), int(sp), int(dp), int(seq)
        data = bytes.fromhex(payload.replace(":", ""))
        st = streams.setdefault(s, {"first": (sp, dp), "dirs": {}, "next": {}})
        key = (sp, dp)
        buf = st["dirs"].setdefault(key, bytearray())
        expected = st["next"].get(key)
        if expected is not None:
            if seq + len(data) <= expected:
                continue                       # a retransmission
            if seq < expected:
                data = data[expected - seq:]   # partly retransmitted
                seq = expected
            elif seq > expected:
                raise SystemExit(f"{pcap}: stream {s} {key}: {seq - expected} bytes missing")
        buf.extend(data)
        st["next"][key] = seq + len(data)
    return streams


STREAM_START = re.compile(rb"<stream:stream[\s>/]")
XML_DECL = re.compile(rb"<\?xml[^>]*\?>\s*$")


def documents(data):
    """Cuts a direction's bytes before each stream header."""
    starts = []
    for m in STREAM_START.finditer(data):
        pos = m.start()
        prev = starts[-1] if starts else 0
        decl = XML_DECL.search(data, prev, pos)
        starts.append(decl.start() if decl else pos)
    if not starts:
        return [data] if data.strip() else []
    docs = []
    if data[:starts[0]].strip():
        docs.append(data[:starts[0]])
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        docs.append(data[start:end])
    return docs


def parse_direction(data, where):
    """The top-level elements (depth 2) of a direction, and its facts."""
    elements, chats = [], []
    facts = {"stream_headers": 0, "stream_ids": [], "bound_jid": None, "stream_closed": False}
    for doc in documents(bytes(data)):
        p = xml.parsers.expat.ParserCreate(namespace_separator=NS_SEP)
        state = {"depth": 0, "chat": None, "in_body": False, "body": None,
                 "in_jid": False, "jid": None, "in_bind": False}

        def start(qname, attrs):
            state["depth"] += 1
            d = state["depth"]
            ns, local = split_name(qname)
            if d == 1:
                facts["stream_headers"] += 1
                if attrs.get("id"):
                    facts["stream_ids"].append(attrs["id"])
            elif d == 2:
                elements.append({"name": local, "ns": ns, "id": attrs.get("id"),
                                 "type": attrs.get("type")})
                if local == "message" and ns == NS_CLIENT and attrs.get("type") == "chat":
                    state["chat"] = {"id": attrs.get("id"), "from": attrs.get("from"),
                                     "to": attrs.get("to"), "body": None}
                state["in_bind"] = local == "iq"
            elif d == 3 and state["chat"] is not None and local == "body" and ns == NS_CLIENT:
                state["in_body"] = True
                state["body"] = []
            elif d == 3 and ns == NS_BIND and local == "bind":
                pass
            elif d == 4 and ns == NS_BIND and local == "jid":
                state["in_jid"] = True
                state["jid"] = []

        def end(qname):
            d = state["depth"]
            ns, local = split_name(qname)
            if d == 1:
                facts["stream_closed"] = True
            elif d == 2 and state["chat"] is not None:
                chats.append(state["chat"])
                state["chat"] = None
            elif d == 3 and state["in_body"]:
                state["in_body"] = False
                if state["chat"]["body"] is None:   # the first <body> only
                    state["chat"]["body"] = "".join(state["body"])
            elif d == 4 and state["in_jid"]:
                state["in_jid"] = False
                facts["bound_jid"] = "".join(state["jid"])
            state["depth"] -= 1

        def text(t):
            if state["in_body"]:
                state["body"].append(t)
            elif state["in_jid"]:
                state["jid"].append(t)

        p.StartElementHandler = start
        p.EndElementHandler = end
        p.CharacterDataHandler = text
        p.buffer_text = True
        try:
            p.Parse(doc, False)
        except xml.parsers.expat.ExpatError as e:
            raise SystemExit(f"{where}: expat: {e}: {doc[:200]!r}")
        if state["depth"] > 1:
            raise SystemExit(f"{where}: a stanza is cut short at the end of a document")
    return elements, chats, facts


def parse_kv(items, what):
    out = {}
    for item in items or []:
        if "=" not in item:
            raise SystemExit(f"--{what} {item}: want KEY=VALUE")
        k, v = item.split("=", 1)
        out[k] = v
    return out


def server_sessions(program, log_path, connections):
    """The server's name for each connection, found in its log by the bound JID
    (a help for the tests; the truth itself is the capture's)."""
    try:
        text = open(log_path, encoding="utf-8", errors="replace").read()
    except OSError:
        return
    for c in connections:
        jid = c.get("bound_jid")
        if not jid:
            continue
        if program == "prosody":
            # `TIME c2s55d0c1234567\tinfo\tAuthenticated as alice@localhost`
            # and `... Resource bound: alice@localhost/res`
            m = re.search(r"^\S+ \d+ [\d:]+ (c2s[0-9a-f]+)\s+\w+\s+Resource bound: " + re.escape(jid)
                          + r"\s*$", text, re.M)
            if m:
                c["server_session"] = m.group(1)
        elif program == "ejabberd":
            # `... (<0.1234.0>) ... Opened c2s session for alice@localhost/res`
            m = re.search(r"\((tcp\|)?(<[\d.]+>)\) Opened c2s session for " + re.escape(jid)
                          + r"\b", text)
            if m:
                c["server_session"] = m.group(2)
            m = re.search(r"\((tcp\|<[\d.]+>)\) Opened c2s session for " + re.escape(jid) + r"\b", text)
            if m:
                c["server_session_label"] = m.group(1)


def view(conn, in_dir, out_dir, extra=()):
    v = {k: conn[k] for k in ("tcp_stream", "client_port", "server_port", "program", "user",
                              "bound_jid", "log") if k in conn}
    for k in extra:
        if k in conn:
            v[k] = conn[k]
    v["stream_headers_in"] = conn["stream_headers"][in_dir]
    v["stream_headers_out"] = conn["stream_headers"][out_dir]
    v["in"] = conn[in_dir]
    v["out"] = conn[out_dir]
    v["chat_in"] = conn["chat"][in_dir]
    v["chat_out"] = conn["chat"][out_dir]
    return v


def dump(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--pcap", action="append", required=True, help="RUN=PATH")
    ap.add_argument("--server-port", action="append", required=True, help="RUN=PORT")
    ap.add_argument("--conn", action="append", default=[],
                    help="RUN:RESOURCE=PROGRAM:LOG (the client log of the connection "
                         "whose bound JID has that resource)")
    ap.add_argument("--server-log", action="append", default=[], help="RUN=PROGRAM:LOG")
    ap.add_argument("--follow", action="append", default=[], help="RUN=LOG (tshark follow)")
    a = ap.parse_args()
    base = os.path.dirname(os.path.abspath(__file__))
    pcaps = parse_kv(a.pcap, "pcap")
    ports = {k: int(v) for k, v in parse_kv(a.server_port, "server-port").items()}
    conn_map = {}
    for item in a.conn:
        left, right = item.split("=", 1)
        run, resource = left.split(":", 1)
        program, logp = right.split(":", 1)
        conn_map[(run, resource)] = (program, logp)
    server_logs = {k: v.split(":", 1) for k, v in parse_kv(a.server_log, "server-log").items()}
    follows = parse_kv(a.follow, "follow")
    os.makedirs(a.out, exist_ok=True)

    for run, pcap in pcaps.items():
        sport = ports[run]
        conns = []
        for s, st in sorted(tcp_streams(pcap).items()):
            sp, dp = st["first"]
            cport = sp if dp == sport else dp
            if sport not in (sp, dp):
                continue
            c2s = st["dirs"].get((cport, sport), b"")
            s2c = st["dirs"].get((sport, cport), b"")
            where = f"{pcap} stream {s}"
            c2s_el, c2s_chat, c2s_facts = parse_direction(c2s, where + " c2s")
            s2c_el, s2c_chat, s2c_facts = parse_direction(s2c, where + " s2c")
            bound = s2c_facts["bound_jid"]
            conn = {"tcp_stream": s, "client_port": cport, "server_port": sport,
                    "bound_jid": bound, "user": bound.split("/")[0] if bound else None,
                    "stream_headers": {"c2s": c2s_facts["stream_headers"],
                                       "s2c": s2c_facts["stream_headers"]},
                    "stream_ids": s2c_facts["stream_ids"],
                    "stream_closed": {"c2s": c2s_facts["stream_closed"],
                                      "s2c": s2c_facts["stream_closed"]},
                    "bytes": {"c2s": len(c2s), "s2c": len(s2c)},
                    "c2s": c2s_el, "s2c": s2c_el,
                    "chat": {"c2s": c2s_chat, "s2c": s2c_chat}}
            resource = bound.split("/", 1)[1] if bound and "/" in bound else None
            if (run, resource) in conn_map:
                conn["program"], conn["log"] = conn_map[(run, resource)]
            conns.append(conn)
        if run in server_logs:
            program, logp = server_logs[run]
            server_sessions(program, os.path.join(base, logp), conns)
        pcap_rel = os.path.relpath(pcap, base)
        dump(os.path.join(a.out, f"{run}-wire.json"), {
            "pcap": pcap_rel, "server_port": sport,
            "directions": {"c2s": "client to server", "s2c": "server to client"},
            "connections": conns})

        # The views, one per log fixture.
        for c in conns:
            if "log" not in c:
                continue
            name = os.path.splitext(os.path.basename(c["log"]))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": c["log"], "program": c["program"], "role": "client",
                "pcap": pcap_rel, "in_is": "s2c", "out_is": "c2s",
                "connections": [view(c, "s2c", "c2s")]})
        if run in server_logs:
            program, logp = server_logs[run]
            name = os.path.splitext(os.path.basename(logp))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": program, "role": "server",
                "pcap": pcap_rel, "in_is": "c2s", "out_is": "s2c",
                "connections": [view(c, "c2s", "s2c", ("server_session", "server_session_label"))
                                for c in conns]})
        if run in follows:
            logp = follows[run]
            name = os.path.splitext(os.path.basename(logp))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": "tshark", "role": "capture",
                "pcap": pcap_rel, "in_is": "s2c", "out_is": "c2s",
                "note": "node 0 (first to send: the client) is `out`, node 1 `in`; "
                        "the session is the tcp.stream number",
                "connections": [view(c, "s2c", "c2s") for c in conns]})

        for c in conns:
            print(f"{run} stream {c['tcp_stream']} port {c['client_port']} "
                  f"{c.get('program', '?'):10} {c['bound_jid']}: "
                  f"c2s {len(c['c2s'])} elements ({len(c['chat']['c2s'])} chat), "
                  f"s2c {len(c['s2c'])} elements ({len(c['chat']['s2c'])} chat)", file=sys.stderr)


if __name__ == "__main__":
    main()
