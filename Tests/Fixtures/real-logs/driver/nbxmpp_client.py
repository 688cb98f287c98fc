#!/usr/bin/python3
"""An nbxmpp (python3-nbxmpp, Gajim's XMPP library) client that plays the
sending side of the scripted session (see slixmpp_client.py for the steps).

nbxmpp logs what it sends and receives in nbxmpp/connection.py's
`_log_stanza`, at INFO on the logger `nbxmpp.connection`, through a
LogAdapter that puts the connection's context (`(carol)`) first. The log is
written as Gajim writes it with `--verbose` (gajim/common/logging_helpers.py:
`%(asctime)s %(levelname)s %(name)-35s %(message)s` with the date format
`%x %H:%M:%S`, the level as `(I)`, the logger name as `'%-25s|' % name`;
Gajim sets the logger `nbxmpp` to INFO there; this driver sets it to DEBUG).
"""
import argparse
import logging
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402

from gi.repository import GLib  # noqa: E402

from nbxmpp.client import Client  # noqa: E402
from nbxmpp.const import ConnectionProtocol, ConnectionType  # noqa: E402
from nbxmpp.protocol import Iq, Message, Presence, JID  # noqa: E402
from nbxmpp.structs import StanzaHandler  # noqa: E402


class GajimFormatter(logging.Formatter):
    """gajim/common/logging_helpers.py's FancyFormatter without colours."""

    def format(self, record):
        record.levelname = "(%s)" % record.levelname[0]
        record.name = "%-25s|" % record.name
        return logging.Formatter.format(self, record)


class Driver:
    def __init__(self, a):
        self.a = a
        jid = JID.from_string(a.jid)
        self.user = jid.localpart
        self.domain = jid.domain
        self.loop = GLib.MainLoop()
        self.ok = False
        self.log = logging.getLogger("gajim.driver")
        c = Client(log_context=self.user)
        c.set_username(jid.localpart)
        c.set_domain(jid.domain)
        c.set_resource(jid.resource)
        c.set_password(a.password)
        c.set_connection_types([ConnectionType.PLAIN])
        c.set_protocols([ConnectionProtocol.TCP])
        c.set_custom_host(f"{a.host}:{a.port}", ConnectionProtocol.TCP, ConnectionType.PLAIN)
        c.set_sm_disabled(True)
        c.subscribe("connected", self.on_connected)
        c.subscribe("disconnected", self.on_disconnected)
        c.subscribe("connection-failed", self.on_disconnected)
        c.register_handler(StanzaHandler(name="message", callback=self.on_message))
        c.register_handler(StanzaHandler(name="presence", callback=self.on_presence))
        self.client = c
        self.queue = []
        self.waiting = None      # what the next step waits for: ("iq", id), ("echo", id), ...

    def run(self):
        GLib.timeout_add_seconds(self.a.timeout, self.on_timeout)
        self.client.connect()
        self.loop.run()

    def on_timeout(self):
        self.log.error("driver: timeout while waiting for %s", self.waiting)
        self.loop.quit()
        return False

    def on_disconnected(self, *_args):
        self.loop.quit()

    # The session: a list of steps, each run when the one before is done.
    def on_connected(self, _client, _signal):
        self.log.info("driver: local address %s", self.client.local_address)
        steps = scenario.iq_steps(self.user, self.domain, self.a.peer)
        q = [("iq", steps[0])]
        q.append(("presence", None))
        q += [("iq", s) for s in steps[1:]]
        q.append(("muc-join", None))
        q.append(("iq", scenario.muc_config_iq(self.user, self.a.room)))
        q.append(("muc-message", None))
        q.append(("muc-leave", None))
        q.append(("wait-ready", None))
        q += [("chat", b) for b in scenario.BODIES]
        q.append(("bye", None))
        q.append(("iq", scenario.mam_iq(self.user, self.a.peer)))
        q.append(("end", None))
        self.queue = q
        self.next_step()

    def next_step(self):
        kind, arg = self.queue.pop(0)
        c = self.client
        if kind == "iq":
            iq_id, xml = arg
            self.waiting = ("iq", iq_id)
            c.send_stanza(Iq(node=xml), callback=self.on_iq_result)
        elif kind == "presence":
            c.send_stanza(Presence())
            self.next_step()
        elif kind == "muc-join":
            self.waiting = ("muc-join", None)
            p = Presence(to=f"{self.a.room}/{self.user}")
            p.setID(f"{self.user}-muc-join")
            p.setTag("x", namespace="http://jabber.org/protocol/muc")
            c.send_stanza(p)
        elif kind == "muc-message":
            self.waiting = ("muc-message", None)
            m = Message(to=self.a.room, typ="groupchat", body="hello room, <b>&amp;</b> \u00e9")
            m.setID(f"{self.user}-muc-msg")
            c.send_stanza(m)
        elif kind == "muc-leave":
            p = Presence(to=f"{self.a.room}/{self.user}", typ="unavailable")
            p.setID(f"{self.user}-muc-leave")
            c.send_stanza(p)
            self.next_step()
        elif kind == "wait-ready":
            self.waiting = ("ready", None)
            GLib.timeout_add(100, self.poll_ready)
        elif kind == "chat":
            suffix, body = arg
            mid = f"{self.user}-{suffix}"
            self.waiting = ("echo", "echo-" + mid)
            m = Message(to=self.a.peer, typ="chat", body=body)
            m.setID(mid)
            c.send_stanza(m)
        elif kind == "bye":
            m = Message(to=self.a.peer, typ="chat", body=scenario.BYE)
            m.setID(f"{self.user}-bye")
            c.send_stanza(m)
            self.next_step()
        elif kind == "end":
            self.ok = True
            c.disconnect()

    def poll_ready(self):
        if os.path.exists(self.a.ready_file):
            self.next_step()
            return False
        return True

    def on_iq_result(self, _client, stanza, **_kw):
        if stanza is not None and self.waiting == ("iq", stanza.getID()):
            self.next_step()

    def on_presence(self, _client, stanza, _props):
        frm = stanza.getFrom()
        if self.waiting == ("muc-join", None) and frm is not None \
                and str(frm) == f"{self.a.room}/{self.user}" and stanza.getType() != "unavailable":
            self.next_step()

    def on_message(self, _client, stanza, _props):
        frm = stanza.getFrom()
        if frm is None:
            return
        if self.waiting == ("muc-message", None) and stanza.getType() == "groupchat" \
                and str(frm) == f"{self.a.room}/{self.user}":
            self.next_step()
        elif self.waiting and self.waiting[0] == "echo" and stanza.getType() == "chat" \
                and stanza.getID() == self.waiting[1]:
            self.next_step()


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
    handler.setFormatter(GajimFormatter("%(asctime)s %(levelname)s %(name)-35s %(message)s",
                                        "%x %H:%M:%S"))
    for name, level in (("gajim", logging.DEBUG), ("nbxmpp", logging.DEBUG)):
        lg = logging.getLogger(name)
        lg.setLevel(level)
        lg.addHandler(handler)
        lg.propagate = False

    d = Driver(a)
    d.run()
    if not d.ok:
        print(f"nbxmpp driver {a.jid}: the session did not complete", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
