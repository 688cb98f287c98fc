#!/usr/bin/python3
"""A slixmpp client that plays one side of the scripted session.

  sender: login, roster, presence, disco#info, two iqs that fail, ping, a MUC
          room created and configured (XEP-0045, XEP-0004 form), a groupchat
          message, then each stress body of scenario.BODIES as a chat message
          to the peer (waiting for the peer's echo of each), `bye`, a MAM query
          (XEP-0313), and the end of the stream.
  echoer: the same iqs, then echoes every chat message from the peer (id
          `echo-ID`) until `bye`, then a MAM query and the end of the stream.
  receiver: the echoer without the echoes, for a peer that sends and does not
          read (sendxmpp): what it is sent waits for nothing, so its log shows
          every byte it received.

Its log goes to --log-file in one of two Python logging formats: `time`
(`%(asctime)s %(levelname)-8s %(message)s`) or `notime`
(`%(levelname)-8s %(message)s`, slixmpp's examples' format).
"""
import argparse
import asyncio
import inspect
import logging
import os
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402

from slixmpp import ClientXMPP  # noqa: E402
from slixmpp.exceptions import IqError, IqTimeout  # noqa: E402

FORMATS = {
    "time": "%(asctime)s %(levelname)-8s %(message)s",
    "notime": "%(levelname)-8s %(message)s",
}


class Client(ClientXMPP):
    def __init__(self, args):
        ClientXMPP.__init__(self, args.jid, args.password)
        self.args = args
        self.user = self.boundjid.user
        self.ok = False
        self.echoes = {}
        self.room_joined = asyncio.Event()
        self.room_message = asyncio.Event()
        self.bye_seen = False
        self.add_event_handler("session_start", self.start)
        self.add_event_handler("message", self.on_message)
        self.add_event_handler("presence", self.on_presence)
        self.add_event_handler("failed_auth", lambda _e: self.fail("auth failed"))

    def fail(self, why):
        logging.getLogger("driver").error("driver failure: %s", why)
        self.disconnect()

    async def iq(self, xml):
        iq = self.Iq(xml=ET.fromstring(xml))
        try:
            return await iq.send(timeout=15)
        except IqError as e:
            return e.iq
        except IqTimeout:
            self.fail("iq timeout")
            raise

    async def start(self, _event):
        log = logging.getLogger("driver")
        log.info("driver: local port %s", self.socket.getsockname()[1]
                 if getattr(self, "socket", None) else "?")
        a = self.args
        domain = self.boundjid.domain
        steps = scenario.iq_steps(self.user, domain, a.peer)
        await self.iq(steps[0][1])                      # roster get
        self.send_presence()                            # initial presence
        for _id, xml in steps[1:]:                      # disco, errors, ping
            await self.iq(xml)
        if a.role == "sender":
            await self.muc()
            await self.wait_ready()
            for suffix, body in scenario.BODIES:
                mid = f"{self.user}-{suffix}"
                self.echoes[mid] = asyncio.Event()
                msg = self.make_message(mto=a.peer, mbody=body, mtype="chat")
                msg["id"] = mid
                msg.send()
                await asyncio.wait_for(self.echoes[mid].wait(), 15)
            msg = self.make_message(mto=a.peer, mbody=scenario.BYE, mtype="chat")
            msg["id"] = f"{self.user}-bye"
            msg.send()
            await self.finish()
        else:
            with open(a.ready_file, "w") as f:
                f.write("ready\n")

    async def wait_ready(self):
        for _ in range(300):
            if os.path.exists(self.args.ready_file):
                return
            await asyncio.sleep(0.1)
        self.fail("the peer never got ready")

    async def muc(self):
        a = self.args
        room = a.room
        join = (f"<presence xmlns='jabber:client' to='{room}/{self.user}' id='{self.user}-muc-join'>"
                "<x xmlns='http://jabber.org/protocol/muc'/></presence>")
        self.Presence(xml=ET.fromstring(join)).send()
        await asyncio.wait_for(self.room_joined.wait(), 15)
        await self.iq(scenario.muc_config_iq(self.user, room)[1])
        msg = self.make_message(mto=room, mbody="hello room, <b>&amp;</b> \u00e9", mtype="groupchat")
        msg["id"] = f"{self.user}-muc-msg"
        msg.send()
        await asyncio.wait_for(self.room_message.wait(), 15)
        leave = (f"<presence xmlns='jabber:client' to='{room}/{self.user}' type='unavailable' "
                 f"id='{self.user}-muc-leave'/>")
        self.Presence(xml=ET.fromstring(leave)).send()

    async def finish(self):
        await self.iq(scenario.mam_iq(self.user, self.args.peer)[1])
        self.ok = True
        self.disconnect()

    def on_presence(self, pres):
        if self.args.room and pres["from"].bare == self.args.room \
                and pres["from"].resource == self.user and pres["type"] != "unavailable":
            self.room_joined.set()

    def on_message(self, msg):
        if msg["type"] == "groupchat":
            if self.args.room and msg["from"].bare == self.args.room \
                    and msg["from"].resource == self.user:
                self.room_message.set()
            return
        if msg["type"] != "chat" or msg["from"].bare != self.args.peer:
            return
        if self.args.role == "sender":
            ev = self.echoes.get(msg["id"][len("echo-"):])
            if ev is not None:
                ev.set()
            return
        if msg["body"] == scenario.BYE:
            if not self.bye_seen:
                self.bye_seen = True
                asyncio.ensure_future(self.finish())
            return
        if self.args.role == "receiver":
            return
        reply = self.make_message(mto=msg["from"], mbody=msg["body"], mtype="chat")
        reply["id"] = "echo-" + msg["id"]
        reply.send()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--jid", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--peer", required=True, help="the peer's bare JID")
    p.add_argument("--role", choices=["sender", "echoer", "receiver"], required=True)
    p.add_argument("--room", default=None)
    p.add_argument("--ready-file", required=True)
    p.add_argument("--log-file", required=True)
    p.add_argument("--log-format", choices=sorted(FORMATS), required=True)
    p.add_argument("--timeout", type=int, default=90)
    a = p.parse_args()

    handler = logging.FileHandler(a.log_file, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMATS[a.log_format]))
    root = logging.getLogger()
    root.setLevel(logging.DEBUG)
    root.addHandler(handler)
    logging.getLogger("asyncio").setLevel(logging.WARNING)

    xmpp = Client(a)
    xmpp.plugin["feature_mechanisms"].unencrypted_plain = True
    if "address" in inspect.signature(xmpp.connect).parameters:
        xmpp.connect(address=(a.host, a.port), use_ssl=False, force_starttls=False,
                     disable_starttls=True)
    else:
        # slixmpp 1.9 and later: the address as host and port, what to try as attributes.
        xmpp.enable_direct_tls = False
        xmpp.enable_starttls = False
        xmpp.enable_plaintext = True
        xmpp.connect(a.host, a.port)
    # (XMLStream.process(timeout=...) fails on Python 3.11 in slixmpp 1.8.3.)
    try:
        xmpp.loop.run_until_complete(asyncio.wait_for(xmpp.disconnected, a.timeout))
    except asyncio.TimeoutError:
        pass
    if not xmpp.ok:
        print(f"slixmpp driver {a.jid}: the session did not complete", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
