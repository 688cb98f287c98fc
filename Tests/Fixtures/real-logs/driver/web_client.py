#!/usr/bin/python3
"""A browser-like XMPP client over BOSH (XEP-0124/0206) or WebSocket (RFC 7395).

It plays the sender of the scripted session, as a web client such as
Converse.js (built on Strophe.js) would over Prosody's mod_bosh or
mod_websocket: SASL PLAIN, the stream restart, resource binding, the iqs of
driver/scenario.py (roster, then the initial presence, disco#info, two that
fail, ping), each stress body
as a chat message to the echoer (waiting for its echo), `bye`, then the end
(BOSH: an empty poll, then `type='terminate'` with an unavailable presence, as
Strophe.js's `_sendTerminate` does; WebSocket: `<close/>`).

Its log is what Strophe.js's examples write of each piece of data sent and
received: examples/main.js (strophe/strophejs) sets

    function rawInput(data) { log('RECV: ' + data); }
    function rawOutput(data) { log('SENT: ' + data); }

as `connection.rawInput`/`connection.rawOutput`, which src/connection.ts
(`_dataRecv`) and src/transports/bosh.ts / websocket.ts call with each BOSH
body (the whole `<body>` as sent or as received) and each WebSocket frame's
text. So one `SENT: `/`RECV: ` line a body or frame, no time, and a body with
newlines goes on in lines of its own.

BOSH runs over HTTP/1.1 with http.client, one request at a time on one
persistent connection (Prosody holds one request, `hold='1'`); WebSocket with
python3-websockets, subprotocol `xmpp`.
"""
import argparse
import asyncio
import base64
import http.client
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402

NS_BOSH = "http://jabber.org/protocol/httpbind"
NS_CLIENT = "jabber:client"
NS_SASL = "urn:ietf:params:xml:ns:xmpp-sasl"
NS_BIND = "urn:ietf:params:xml:ns:xmpp-bind"
NS_FRAMING = "urn:ietf:params:xml:ns:xmpp-framing"


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Session:
    """What both transports share: the log, the queue of received stanzas and
    the scripted session; a transport gives exchange(stanzas) -> received."""

    def __init__(self, args):
        self.args = args
        self.user, self.domain = args.jid.split("@", 1)
        self.log = open(args.log_file, "w", encoding="utf-8")
        self.received = []                 # stanzas (ElementTree) not yet looked at

    def logged(self, direction, data):
        self.log.write(f"{direction}: {data}\n")
        self.log.flush()

    async def until(self, match, what):
        """Polls (empty requests) until a received stanza matches."""
        for _ in range(30):
            for i, el in enumerate(self.received):
                if match(el):
                    return self.received.pop(i)
            self.received.extend(await self.exchange([]))
        raise SystemExit(f"web client: no {what}")

    async def iq(self, xml):
        el = ET.fromstring(xml)
        self.received.extend(await self.exchange([xml]))
        return await self.until(lambda r: r.tag == f"{{{NS_CLIENT}}}iq" and r.get("id") == el.get("id"),
                                "answer to " + el.get("id"))

    async def script(self):
        a = self.args
        plain = base64.b64encode(f"\0{self.user}\0{a.password}".encode()).decode()
        self.received.extend(await self.exchange(
            [f"<auth xmlns='{NS_SASL}' mechanism='PLAIN'>{plain}</auth>"]))
        await self.until(lambda r: r.tag == f"{{{NS_SASL}}}success", "SASL success")
        await self.restart()
        bind = (f"<iq xmlns='{NS_CLIENT}' type='set' id='{self.user}-bind'>"
                f"<bind xmlns='{NS_BIND}'><resource>{a.resource}</resource></bind></iq>")
        await self.iq(bind)
        steps = scenario.iq_steps(self.user, self.domain, a.peer)
        await self.iq(steps[0][1])                       # roster get
        # Initial presence, as Strophe.js-based clients send it, and its copy back.
        self.received.extend(await self.exchange([f"<presence xmlns='{NS_CLIENT}' id='{self.user}-presence'/>"]))
        await self.until(lambda r: r.tag == f"{{{NS_CLIENT}}}presence"
                         and r.get("from", "").startswith(f"{a.jid}/"), "own presence")
        for _id, xml in steps[1:]:                       # disco, errors, ping
            await self.iq(xml)
        for suffix, body in scenario.BODIES:
            mid = f"{self.user}-{suffix}"
            await self.chat(mid, body)
            await self.until(lambda r, mid=mid: r.get("id") == "echo-" + mid, "echo of " + mid)
        await self.chat(f"{self.user}-bye", scenario.BYE)
        await self.end()

    async def chat(self, mid, body):
        self.received.extend(await self.exchange(
            [f"<message xmlns='{NS_CLIENT}' to='{self.args.peer}' type='chat' id='{mid}'>"
             f"<body>{esc(body)}</body></message>"]))


class Bosh(Session):
    """XEP-0124/0206 over HTTP/1.1 POSTs, as Strophe.js's transports/bosh.ts
    builds its bodies (`_buildBody`, `_connect`, the restart in `_onIdle`,
    `_sendTerminate`)."""

    def __init__(self, args):
        super().__init__(args)
        self.rid = 4242000
        self.sid = None
        self.http = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)

    def post(self, body):
        self.logged("SENT", body)
        self.http.request("POST", "/http-bind", body=body.encode("utf-8"),
                          headers={"Content-Type": "text/xml; charset=utf-8"})
        response = self.http.getresponse()
        data = response.read().decode("utf-8")
        if response.status != 200:
            raise SystemExit(f"web client: HTTP {response.status}: {data}")
        self.logged("RECV", data)
        self.rid += 1
        return ET.fromstring(data)

    def attrs(self):
        return f"rid='{self.rid}' sid='{self.sid}' xmlns='{NS_BOSH}'"

    async def start(self):
        root = self.post(f"<body rid='{self.rid}' xmlns='{NS_BOSH}' to='{self.domain}' xml:lang='en' "
                         "wait='10' hold='1' content='text/xml; charset=utf-8' ver='1.6' "
                         "xmpp:version='1.0' xmlns:xmpp='urn:xmpp:xbosh'/>")
        self.sid = root.get("sid")
        self.received.extend(list(root))

    async def exchange(self, stanzas):
        return list(self.post(f"<body {self.attrs()}>{''.join(stanzas)}</body>"))

    async def restart(self):
        root = self.post(f"<body {self.attrs()} to='{self.domain}' xml:lang='en' xmpp:restart='true' "
                         "xmlns:xmpp='urn:xmpp:xbosh'/>")
        self.received.extend(list(root))

    async def end(self):
        await self.exchange([])        # an empty poll: the echoer's last answers, or nothing
        self.post(f"<body {self.attrs()} type='terminate'>"
                  f"<presence xmlns='{NS_CLIENT}' type='unavailable'/></body>")
        self.http.close()


class WebSocket(Session):
    """RFC 7395 frames, as Strophe.js's transports/websocket.ts writes them
    (`_buildStream`: `<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' …/>`,
    `_disconnect`: `<close xmlns=…/>`), one stanza a frame."""

    async def start(self):
        import websockets
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.args.port}/xmpp-websocket",
                                           subprotocols=["xmpp"])
        await self.restart()

    async def send(self, data):
        self.logged("SENT", data)
        await self.ws.send(data)

    async def frames(self, timeout):
        """The frames that come within `timeout` seconds of the first."""
        import websockets
        out = []
        while True:
            try:
                data = await asyncio.wait_for(self.ws.recv(), timeout if not out else 0.3)
            except (asyncio.TimeoutError, websockets.exceptions.ConnectionClosed):
                return out
            self.logged("RECV", data)
            out.append(ET.fromstring(data))

    async def exchange(self, stanzas):
        for s in stanzas:
            await self.send(s)
        return [el for el in await self.frames(5) if el.tag != f"{{{NS_FRAMING}}}open"]

    async def restart(self):
        await self.send(f"<open xmlns='{NS_FRAMING}' to='{self.domain}' version='1.0'/>")
        for _ in range(10):
            got = await self.frames(5)
            self.received.extend(el for el in got if el.tag != f"{{{NS_FRAMING}}}open")
            if any(el.tag == "{http://etherx.jabber.org/streams}features" for el in self.received):
                return
        raise SystemExit("web client: no stream features")

    async def end(self):
        self.received.extend(await self.exchange([]))
        await self.send(f"<close xmlns='{NS_FRAMING}'/>")
        await self.frames(5)           # the server's <close/>, then it closes the connection
        await self.ws.close()


async def run(args):
    session = (Bosh if args.transport == "bosh" else WebSocket)(args)
    await session.start()
    await session.until(lambda r: r.tag == "{http://etherx.jabber.org/streams}features", "stream features")
    await session.script()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--transport", choices=["bosh", "websocket"], required=True)
    p.add_argument("--jid", required=True, help="the bare JID")
    p.add_argument("--resource", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--port", type=int, required=True, help="Prosody's HTTP port")
    p.add_argument("--peer", required=True, help="the echoer's bare JID")
    p.add_argument("--log-file", required=True)
    a = p.parse_args()
    asyncio.run(asyncio.wait_for(run(a), 120))


if __name__ == "__main__":
    main()
