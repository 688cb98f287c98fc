#!/usr/bin/python3
"""An aioxmpp (python3-aioxmpp) client that plays the sending side of the
scripted session (see slixmpp_client.py for the steps), to a slixmpp echoer.

aioxmpp logs the bytes of its stream at DEBUG on the logger of its
XMLStream (`aioxmpp.XMLStream`): aioxmpp/protocol.py, `DebugWrapper._emit`,
`logger.debug("SENT %r", b"".join(self._pieces))` (what was written, in
pieces of up to 4096 bytes, emitted on each flush) and
`XMLStream.data_received`, `self._logger.debug("RECV %r", blob)` (each read
of the socket). The log is written as aioxmpp's examples configure logging
(examples/framework.py: `logging.basicConfig(level=logging.DEBUG)`, the
format `%(levelname)s:%(name)s:%(message)s`), with the time first.

The iqs are the scenario's XML, read into aioxmpp's XSOs; the payloads
aioxmpp has no class for (MAM's query and fin, the unsupported namespace) get one here.
"""
import argparse
import asyncio
import io
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402

import aioxmpp  # noqa: E402
import aioxmpp.connector  # noqa: E402
import aioxmpp.disco  # noqa: E402,F401  (registers the disco#info payload)
import aioxmpp.dispatcher  # noqa: E402
import aioxmpp.muc.xso  # noqa: E402
import aioxmpp.ping  # noqa: E402,F401
import aioxmpp.roster  # noqa: E402,F401
import aioxmpp.xml  # noqa: E402
import aioxmpp.xso as xso  # noqa: E402

FORMAT = "%(asctime)s %(levelname)s:%(name)s:%(message)s"


@aioxmpp.IQ.as_payload_class
class Unsupported(xso.XSO):
    TAG = ("urn:example:unsupported", "query")


@aioxmpp.IQ.as_payload_class
class MamQuery(xso.XSO):
    TAG = ("urn:xmpp:mam:2", "query")
    queryid = xso.Attr("queryid", default=None)
    children = xso.Collector()


@aioxmpp.IQ.as_payload_class
class MamFin(xso.XSO):
    TAG = ("urn:xmpp:mam:2", "fin")
    children = xso.Collector()


def read_iq(xml):
    return aioxmpp.xml.read_single_xso(io.BytesIO(xml.encode("utf-8")), aioxmpp.IQ)


class Driver:
    def __init__(self, a):
        self.a = a
        self.jid = aioxmpp.JID.fromstr(a.jid)
        self.user = self.jid.localpart
        self.peer = aioxmpp.JID.fromstr(a.peer)
        self.room = aioxmpp.JID.fromstr(a.room)
        self.log = logging.getLogger("driver")
        layer = aioxmpp.make_security_layer(a.password, no_verify=True)._replace(tls_required=False)
        self.client = aioxmpp.Client(
            self.jid, layer,
            override_peer=[(a.host, a.port, aioxmpp.connector.STARTTLSConnector())])
        self.echoes = {}
        self.joined = asyncio.Event()
        self.room_message = asyncio.Event()

    def on_message(self, msg):
        if msg.type_ == aioxmpp.MessageType.GROUPCHAT:
            if msg.from_ == self.room.replace(resource=self.user):
                self.room_message.set()
        elif msg.type_ == aioxmpp.MessageType.CHAT and msg.from_ is not None \
                and msg.from_.bare() == self.peer and msg.id_ in self.echoes:
            self.echoes[msg.id_].set()

    def on_presence(self, pres):
        if pres.from_ == self.room.replace(resource=self.user):
            self.joined.set()

    async def iq(self, xml):
        try:
            await self.client.send(read_iq(xml))
        except aioxmpp.errors.XMPPError:
            pass                   # the two that fail on purpose

    async def chat(self, mid, body, to, type_=aioxmpp.MessageType.CHAT):
        msg = aioxmpp.Message(type_=type_, to=to, id_=mid)
        msg.body[None] = body
        await self.client.send(msg)

    async def wait_ready(self):
        for _ in range(300):
            if os.path.exists(self.a.ready_file):
                return
            await asyncio.sleep(0.1)
        raise RuntimeError("the peer never got ready")

    async def muc(self):
        me = self.room.replace(resource=self.user)
        join = aioxmpp.Presence(type_=aioxmpp.PresenceType.AVAILABLE, to=me, id_=f"{self.user}-muc-join")
        join.xep0045_muc = aioxmpp.muc.xso.GenericExt()
        await self.client.send(join)
        await asyncio.wait_for(self.joined.wait(), 15)
        await self.iq(scenario.muc_config_iq(self.user, str(self.room))[1])
        await self.chat(f"{self.user}-muc-msg", "hello room, <b>&amp;</b> \u00e9", self.room,
                        aioxmpp.MessageType.GROUPCHAT)
        await asyncio.wait_for(self.room_message.wait(), 15)
        await self.client.send(aioxmpp.Presence(type_=aioxmpp.PresenceType.UNAVAILABLE, to=me,
                                                id_=f"{self.user}-muc-leave"))

    async def session(self):
        messages = self.client.summon(aioxmpp.dispatcher.SimpleMessageDispatcher)
        presences = self.client.summon(aioxmpp.dispatcher.SimplePresenceDispatcher)
        for type_ in (aioxmpp.MessageType.CHAT, aioxmpp.MessageType.GROUPCHAT):
            messages.register_callback(type_, None, self.on_message)
        presences.register_callback(aioxmpp.PresenceType.AVAILABLE, None, self.on_presence)
        async with self.client.connected(presence=aioxmpp.PresenceState(False)):
            self.log.info("driver: connected as %s", self.client.local_jid)
            steps = scenario.iq_steps(self.user, self.jid.domain, self.a.peer)
            await self.iq(steps[0][1])                     # roster get
            await self.client.send(aioxmpp.Presence(type_=aioxmpp.PresenceType.AVAILABLE))
            for _id, xml in steps[1:]:                     # disco, errors, ping
                await self.iq(xml)
            await self.muc()
            await self.wait_ready()
            for suffix, body in scenario.BODIES:
                mid = f"{self.user}-{suffix}"
                self.echoes["echo-" + mid] = asyncio.Event()
                await self.chat(mid, body, self.peer)
                await asyncio.wait_for(self.echoes["echo-" + mid].wait(), 15)
            await self.chat(f"{self.user}-bye", scenario.BYE, self.peer)
            await self.iq(scenario.mam_iq(self.user, self.a.peer)[1])


async def run(a):
    # (aioxmpp's Client takes the event loop that runs when it is made.)
    await asyncio.wait_for(Driver(a).session(), a.timeout)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--jid", required=True, help="user@domain/resource")
    p.add_argument("--password", required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--peer", required=True)
    p.add_argument("--room", required=True)
    p.add_argument("--ready-file", required=True)
    p.add_argument("--log-file", required=True)
    p.add_argument("--timeout", type=int, default=90)
    a = p.parse_args()

    handler = logging.FileHandler(a.log_file, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    logging.getLogger("asyncio").setLevel(logging.WARNING)

    try:
        asyncio.run(run(a))
    except Exception as e:         # noqa: BLE001  (any failure fails the recording)
        print(f"aioxmpp driver {a.jid}: the session did not complete: {e!r}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
