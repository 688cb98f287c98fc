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

With --http-port, the connections to Prosody's HTTP port are read too: BOSH
(XEP-0124/0206) and WebSocket (RFC 7395), their HTTP messages and frames taken
apart here (see web_direction), each BOSH session or WebSocket connection one
connection of the truth (`web_sessions` in the wire file).

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


# --- BOSH and WebSocket (Prosody's HTTP port) ---------------------------------
# The HTTP connections are cut into their messages here (Content-Length or
# chunked), and a WebSocket connection, after its upgrade, into its RFC 6455
# frames (unmasked here); each BOSH body is an XML document of its own, whose
# root (`<body>`, depth 1) is the transport and whose children (depth 2) the
# stanzas; each WebSocket text message is one stanza, or RFC 7395's framing
# (`<open/>`, `<close/>` of urn:ietf:params:xml:ns:xmpp-framing), parsed inside
# a root of this script's (`<frames>`) so that the stanza is at depth 2 too.

NS_FRAMING = "urn:ietf:params:xml:ns:xmpp-framing"


def http_messages(data):
    """The bodies of the HTTP/1.1 messages in a direction's bytes, and what is
    left after the last (a WebSocket connection's frames, after its upgrade)."""
    bodies, pos = [], 0
    while pos < len(data):
        end = data.find(b"\r\n\r\n", pos)
        if end < 0 or not re.match(rb"(POST|GET|HTTP/1\.1) ", data[pos:pos + 9]):
            break
        head = data[pos:end].decode("latin-1").lower()
        pos = end + 4
        length = re.search(r"\r\ncontent-length: *(\d+)", head)
        if length:
            bodies.append(bytes(data[pos:pos + int(length.group(1))]))
            pos += int(length.group(1))
        elif "transfer-encoding: chunked" in head:
            body = bytearray()
            while True:
                line_end = data.index(b"\r\n", pos)
                size = int(data[pos:line_end].split(b";")[0], 16)
                pos = line_end + 2
                body.extend(data[pos:pos + size])
                pos += size + 2
                if size == 0:
                    break
            bodies.append(bytes(body))
        elif " 101 " in head.split("\r\n")[0]:
            return bodies, data[pos:], True
        else:
            bodies.append(b"")
    return bodies, data[pos:], False


def websocket_messages(data, where):
    """The text messages of RFC 6455 frames (fragments joined, masks removed;
    control frames, close, ping and pong, left out)."""
    messages, pos, partial = [], 0, bytearray()
    while pos + 2 <= len(data):
        fin, opcode = data[pos] & 0x80, data[pos] & 0x0F
        length, masked = data[pos + 1] & 0x7F, data[pos + 1] & 0x80
        pos += 2
        if length == 126:
            length, pos = int.from_bytes(data[pos:pos + 2], "big"), pos + 2
        elif length == 127:
            length, pos = int.from_bytes(data[pos:pos + 8], "big"), pos + 8
        key = data[pos:pos + 4] if masked else b"\0\0\0\0"
        pos += 4 if masked else 0
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(data[pos:pos + length]))
        pos += length
        if opcode in (0, 1):               # continuation, text
            partial.extend(payload)
            if fin:
                messages.append(bytes(partial))
                partial = bytearray()
    if pos != len(data):
        raise SystemExit(f"{where}: {len(data) - pos} bytes after the last WebSocket frame")
    return messages


def web_direction(transport, data, where):
    """The stanzas (depth 2) of a BOSH or WebSocket direction, as parse_direction's."""
    bodies, rest, upgraded = http_messages(bytes(data))
    elements, chats = [], []
    facts = {"stream_headers": 0, "stream_ids": [], "bound_jid": None, "stream_closed": False,
             "bodies": 0}
    if transport == "bosh":
        documents_ = [b for b in bodies if b.strip()]
        facts["bodies"] = len(documents_)
    else:
        documents_ = [b"<frames>" + m + b"</frames>" for m in websocket_messages(rest, where)]
    for doc in documents_:
        el, ch, f = parse_direction(doc, where)
        for e in el:
            if e["ns"] == NS_FRAMING and e["name"] in ("open", "close"):
                if e["name"] == "open":
                    facts["stream_headers"] += 1
                else:
                    facts["stream_closed"] = True
                continue
            elements.append(e)
        chats.extend(ch)
        facts["bound_jid"] = facts["bound_jid"] or f["bound_jid"]
    return elements, chats, facts


def web_connections(pcap, http_port):
    """The connections to the HTTP port, each with its transport."""
    conns = []
    for s, st in sorted(tcp_streams(pcap).items()):
        sp, dp = st["first"]
        if http_port not in (sp, dp):
            continue
        cport = sp if dp == http_port else dp
        c2s = bytes(st["dirs"].get((cport, http_port), b""))
        s2c = bytes(st["dirs"].get((http_port, cport), b""))
        transport = "bosh" if c2s.startswith(b"POST /http-bind") else "websocket"
        where = f"{pcap} stream {s}"
        c2s_el, c2s_chat, c2s_facts = web_direction(transport, c2s, where + " c2s")
        s2c_el, s2c_chat, s2c_facts = web_direction(transport, s2c, where + " s2c")
        conns.append({"tcp_stream": s, "client_port": cport, "server_port": http_port,
                      "transport": transport, "bound_jid": s2c_facts["bound_jid"],
                      "user": s2c_facts["bound_jid"].split("/")[0] if s2c_facts["bound_jid"] else None,
                      "stream_headers": {"c2s": c2s_facts["stream_headers"], "s2c": s2c_facts["stream_headers"]},
                      "bosh_bodies": {"c2s": c2s_facts["bodies"], "s2c": s2c_facts["bodies"]},
                      "stream_closed": {"c2s": c2s_facts["stream_closed"], "s2c": s2c_facts["stream_closed"]},
                      "bytes": {"c2s": len(c2s), "s2c": len(s2c)},
                      "c2s": c2s_el, "s2c": s2c_el, "chat": {"c2s": c2s_chat, "s2c": s2c_chat}})
    return conns


def web_session(conns):
    """One BOSH session over several connections, as one connection of the truth."""
    first = conns[0]
    out = {k: first[k] for k in ("transport", "server_port")}
    out["tcp_streams"] = [c["tcp_stream"] for c in conns]
    out["bound_jid"] = next((c["bound_jid"] for c in conns if c["bound_jid"]), None)
    out["user"] = out["bound_jid"].split("/")[0] if out["bound_jid"] else None
    for k in ("stream_headers", "bosh_bodies", "bytes"):
        out[k] = {d: sum(c[k][d] for c in conns) for d in ("c2s", "s2c")}
    for d in ("c2s", "s2c"):
        out[d] = [e for c in conns for e in c[d]]
    out["chat"] = {d: [m for c in conns for m in c["chat"][d]] for d in ("c2s", "s2c")}
    return out


def write_web_xml(pcap, http_port, folder):
    """Each transport's messages per direction, as XML input: the BOSH bodies,
    the WebSocket messages (framing and stanzas), each on a line of its own."""
    os.makedirs(folder, exist_ok=True)
    pieces = {}
    for s, st in sorted(tcp_streams(pcap).items()):
        sp, dp = st["first"]
        if http_port not in (sp, dp):
            continue
        cport = sp if dp == http_port else dp
        c2s = bytes(st["dirs"].get((cport, http_port), b""))
        transport = "bosh" if c2s.startswith(b"POST /http-bind") else "websocket"
        for direction, data in (("c2s", c2s), ("s2c", bytes(st["dirs"].get((http_port, cport), b"")))):
            bodies, rest, _ = http_messages(data)
            found = [b for b in bodies if b.strip()] if transport == "bosh" \
                else websocket_messages(rest, f"{pcap} stream {s}")
            pieces.setdefault(f"{transport}-{direction}", []).extend(found)
    for name, found in pieces.items():
        with open(os.path.join(folder, name + ".xml"), "wb") as f:
            f.write(b"".join(m + b"\n" for m in found))


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
            # (mod_bosh's sessions: `bosh` and the sid.)
            m = re.search(r"^\S+ \d+ [\d:]+ (c2s[0-9a-f]+|bosh[0-9a-f-]+)\s+\w+\s+Resource bound: " + re.escape(jid)
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
    ap.add_argument("--http-port", action="append", default=[],
                    help="RUN=PORT (Prosody's HTTP port: BOSH and WebSocket)")
    ap.add_argument("--web-conn", action="append", default=[],
                    help="RUN:TRANSPORT=PROGRAM:LOG (the client log of the bosh or websocket session)")
    ap.add_argument("--web-follow", action="append", default=[],
                    help="RUN=LOG (tshark follow of the BOSH connections)")
    ap.add_argument("--web-xml", action="append", default=[],
                    help="RUN=DIR: writes DIR/TRANSPORT-DIRECTION.xml, the BOSH bodies or WebSocket "
                         "messages of each direction as they were sent, one a line")
    ap.add_argument("--received-only", action="append", default=[],
                    help="LOG: a client log that shows only what the client received (go-xmpp's "
                         "debug output): its view's `out` is empty, `logged` says so, and "
                         "`out_on_the_wire` counts what was sent")
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
    http_ports = {k: int(v) for k, v in parse_kv(a.http_port, "http-port").items()}
    web_map = {}
    for item in a.web_conn:
        left, right = item.split("=", 1)
        run, transport = left.split(":", 1)
        web_map[(run, transport)] = tuple(right.split(":", 1))
    web_follows = parse_kv(a.web_follow, "web-follow")
    web_xml = parse_kv(a.web_xml, "web-xml")
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
        web = web_connections(pcap, http_ports[run]) if run in http_ports else []
        if run in web_xml:
            write_web_xml(pcap, http_ports[run], web_xml[run])
        sessions = [web_session([c for c in web if c["transport"] == t])
                    for t in ("bosh", "websocket") if any(c["transport"] == t for c in web)]
        for w in sessions:
            if (run, w["transport"]) in web_map:
                w["program"], w["log"] = web_map[(run, w["transport"])]
        if run in server_logs:
            program, logp = server_logs[run]
            server_sessions(program, os.path.join(base, logp), conns + sessions)
        pcap_rel = os.path.relpath(pcap, base)
        dump(os.path.join(a.out, f"{run}-wire.json"), {
            "pcap": pcap_rel, "server_port": sport,
            "directions": {"c2s": "client to server", "s2c": "server to client"},
            "connections": conns, **({"web_sessions": sessions} if web else {})})

        # The views, one per log fixture: a client's log of several connections
        # (one program run after another writing to one log: sendxmpp) lists
        # them all, in the capture's order.
        client_logs = {}
        for c in conns + sessions:
            if "log" in c:
                client_logs.setdefault(c["log"], []).append(c)
        for logp, logged in client_logs.items():
            name = os.path.splitext(os.path.basename(logp))[0]
            views = [view(c, "s2c", "c2s", ("transport", "tcp_streams", "bosh_bodies")) for c in logged]
            directions = ["in", "out"]
            if logp in a.received_only:
                directions = ["in"]
                for v in views:
                    v["out_on_the_wire"] = len(v["out"])
                    v["out"], v["chat_out"], v["stream_headers_out"] = [], [], 0
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": logged[0]["program"], "role": "client",
                "pcap": pcap_rel, "in_is": "s2c", "out_is": "c2s", "logged": directions,
                "connections": views})
        if run in server_logs:
            program, logp = server_logs[run]
            name = os.path.splitext(os.path.basename(logp))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": program, "role": "server",
                "pcap": pcap_rel, "in_is": "c2s", "out_is": "s2c",
                "connections": [view(c, "c2s", "s2c", ("server_session", "server_session_label", "transport"))
                                for c in conns + sessions]})
        if run in follows:
            logp = follows[run]
            name = os.path.splitext(os.path.basename(logp))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": "tshark", "role": "capture",
                "pcap": pcap_rel, "in_is": "s2c", "out_is": "c2s",
                "note": "node 0 (first to send: the client) is `out`, node 1 `in`; "
                        "the session is the tcp.stream number",
                "connections": [view(c, "s2c", "c2s") for c in conns]})

        if run in web_follows:
            logp = web_follows[run]
            name = os.path.splitext(os.path.basename(logp))[0]
            dump(os.path.join(a.out, f"{name}.json"), {
                "fixture": logp, "program": "tshark", "role": "capture",
                "pcap": pcap_rel, "in_is": "s2c", "out_is": "c2s",
                "note": "the BOSH connections' HTTP messages; node 0 (the client) is `out`, "
                        "node 1 `in`; the session is the tcp.stream number",
                "connections": [view(c, "s2c", "c2s", ("transport", "bosh_bodies"))
                                for c in web if c["transport"] == "bosh"]})
        for c in conns + web:
            print(f"{run} stream {c['tcp_stream']} port {c['client_port']} "
                  f"{c.get('program', '?'):10} {c['bound_jid']}: "
                  f"c2s {len(c['c2s'])} elements ({len(c['chat']['c2s'])} chat), "
                  f"s2c {len(c['s2c'])} elements ({len(c['chat']['s2c'])} chat)", file=sys.stderr)


if __name__ == "__main__":
    main()
