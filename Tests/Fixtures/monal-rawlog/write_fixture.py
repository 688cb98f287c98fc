#!/usr/bin/env python3
"""Write the Monal rawlog fixture files byte for byte as Monal writes them.

Run from anywhere: python3 write_fixture.py  (writes next to this script)

What Monal writes (see README.md for the citations):
  entry  = 4-byte big-endian length N, then N bytes of UTF-8 JSON
           (MLLogFileManager.m, -[DDFileLogMLVMessageSerializer dataForString:originatingFromMessage:])
  JSON   = NSJSONSerialization, NSJSONWritingSortedKeys, compact, of the dictionary
           built in +[HelperTools convertLogmessageToJsonData:counter:andError:]

Outputs:
  Monal 2024-10-23--07-15-02-117.rawlog      the good log (two processes, three connections)
  Monal 2024-10-23--07-15-02-117.rawlog.gz   the same bytes, gzip -n -9
  damaged-bad-length.rawlog                  one length prefix in the middle replaced by 0xFFFFFFF0
  damaged-truncated.rawlog                   the good log cut off in the middle of its last entry
  truth.json                                 every stanza really sent or received, in log order

Everything here is deterministic: no clock, no randomness.
"""

import json
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_NAME = "Monal 2024-10-23--07-15-02-117.rawlog"   # MLLogFileManager -newLogFileName: UTC time of creation

# __FILE__ is the absolute path of the source file on the build machine; the real
# prefix depends on where Monal was built, this one is made up.
SRC = "/Users/monal/build/Monal/Monal/Classes/"

# DDLogFlag values (CocoaLumberjack DDLog.h) and Monal's extra flags (MLConstants.h)
ERROR, WARN, INFO, DEBUG, VERBOSE = 1, 2, 4, 8, 16
# ddLogLevel = LOG_LEVEL_STDOUT = DDLogLevelVerbose(31) | 1<<5 | 1<<6 (MLConstants.h)
LEVEL = 127
# options: DDLog passes 0, -initWithFormat:args:... adds DDLogMessageDontCopyMessage (1<<2)
OPTIONS = 4

QOS_NAMES = {33: "QOS_CLASS_USER_INTERACTIVE", 25: "QOS_CLASS_USER_INITIATED",
             21: "QOS_CLASS_DEFAULT", 17: "QOS_CLASS_UTILITY", 9: "QOS_CLASS_BACKGROUND"}


# --------------------------------------------------------------------------
# NSJSONSerialization (compact, NSJSONWritingSortedKeys)

def json_string(s):
    """String escaping as NSJSONSerialization writes it: '"', '\\' and '/' escaped
    ('/' as '\\/' because NSJSONWritingWithoutEscapingSlashes is not set),
    \\b \\f \\n \\r \\t short forms, other C0 controls as \\u00xx (lower-case hex),
    everything else (DEL, all non-ASCII) written raw as UTF-8."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == '\\':
            out.append('\\\\')
        elif ch == '/':
            out.append('\\/')
        elif ch == '\b':
            out.append('\\b')
        elif ch == '\f':
            out.append('\\f')
        elif ch == '\n':
            out.append('\\n')
        elif ch == '\r':
            out.append('\\r')
        elif ch == '\t':
            out.append('\\t')
        elif c < 0x20:
            out.append('\\u%04x' % c)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def json_value(v):
    if v is None:
        return 'null'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, dict):
        # all keys are ASCII identifiers: ordinal order == NSString compare order here
        return '{' + ','.join(json_string(k) + ':' + json_value(v[k]) for k in sorted(v)) + '}'
    raise TypeError(type(v))


def frame(d):
    data = json_value(d).encode('utf-8')
    assert len(data) < 1 << 26        # NSAssert in dataForString:originatingFromMessage:
    return struct.pack('>I', len(data)) + data


# --------------------------------------------------------------------------
# the writing side: processes, threads/queues, log calls

class Ctx:
    """Where a log call runs: thread id, NSThread name, dispatch queue label, qos_class_self()."""
    def __init__(self, thread_id, thread_name, queue_label, qos):
        self.thread_id, self.thread_name, self.queue_label, self.qos = thread_id, thread_name, queue_label, qos


def queue_thread_label(ctx):
    """+[HelperTools getQueueThreadLabelFor:]"""
    label = ctx.thread_name
    if not label:
        label = ctx.queue_label
    if label == "com.apple.main-thread":
        label = "main"
    if not label:
        label = ctx.thread_id
    i = label.find(" (QOS: ")
    if i >= 0:
        label = label[:i]
    return label


def block(method, n=1):
    """clang's __PRETTY_FUNCTION__ inside the n-th block of an Objective-C method."""
    return "__%d%s_block_invoke%s" % (len(method), method, "" if n == 1 else "_%d" % n)


class Process:
    def __init__(self, name, ptype, pid, clock):
        self.name, self.ptype, self.pid = name, ptype, pid
        self.counter = 0          # static counter in dataForString:originatingFromMessage:, per process
        self.clock = clock

    def log(self, ctx, flag, fmt, args, file, function, line):
        self.counter += 1
        message = fmt_objc(fmt, args)
        entry = {
            "messageFormat": fmt,
            "message": message,
            "level": LEVEL,
            "flag": flag,
            "context": 0,
            "file": SRC + file,
            "fileName": file.rsplit('.', 1)[0],
            "function": function,
            "line": line,
            "tag": {
                "queueThreadLabel": queue_thread_label(ctx),
                "processType": self.ptype,
                "processName": self.name,
                "counter": self.counter,
                "processID": self.pid,
                "qosName": QOS_NAMES.get(ctx.qos, "QOS_UNKNOWN(%d)" % ctx.qos),
                "representedObject": None,
            },
            "options": OPTIONS,
            "timestamp": self.clock.next(),
            "threadID": ctx.thread_id,
            "threadName": ctx.thread_name,
            "queueLabel": ctx.queue_label,
            "qos": ctx.qos,
        }
        LOG.append(frame(entry))
        return message


def fmt_objc(fmt, args):
    """Enough of -[NSString initWithFormat:arguments:] for the formats used here."""
    out, i, a = [], 0, 0
    while i < len(fmt):
        if fmt[i] != '%':
            out.append(fmt[i]); i += 1; continue
        j = i + 1
        while fmt[j] in 'l.0123456789':
            j += 1
        conv = fmt[j]
        if conv == '%':
            out.append('%')
        else:
            v = args[a]; a += 1
            out.append(v if isinstance(v, str) else ('(null)' if v is None else str(v)))
        i = j + 1
    assert a == len(args), (fmt, args)
    return ''.join(out)


class Clock:
    """NSDateFormatter "yyyy-MM-dd HH:mm:ss:SSS", en_US_POSIX, gregorian, no time zone set:
    the device's local time zone (here UTC+2; the file name above is UTC)."""
    def __init__(self, h, m, s, ms):
        self.t = ((h * 60 + m) * 60 + s) * 1000 + ms

    def step(self, ms):
        self.t += ms

    def next(self):
        self.t += 3
        t = self.t
        return "2024-10-23 %02d:%02d:%02d:%03d" % (t // 3600000, t // 60000 % 60, t // 1000 % 60, t % 1000)


LOG = []
TRUTH = []

# --------------------------------------------------------------------------
# one connection (an xmpp object): the log calls Monal makes, with their real
# format strings, functions and line numbers (Monal commit 133bfd394ba3)

XMPP_M = "xmpp.m"


class Conn:
    def __init__(self, proc, account_id, internal_id, jid, resource, tid_recv, tid_send):
        self.p = proc
        self.aid, self.iid, self.jid = account_id, internal_id, jid
        self.full = jid + "/" + resource
        self.recvq = Ctx(tid_recv, "", "receiveQueue[%s:%s] (QOS: USER_INITIATED)" % (account_id, internal_id), 25)
        self.sendq = Ctx(tid_send, "", "sendQueue[%s:%s] (QOS: USER_INITIATED)" % (account_id, internal_id), 25)
        self.unacked = 0

    def who(self):
        return {"process": self.p.ptype, "processName": self.p.name, "processID": self.p.pid,
                "accountID": self.aid, "internalID": self.iid, "jid": self.jid}

    # -- -[xmpp logStanza:withPrefix:], xmpp.m:3338-3350 (device build: lines 3342/3344/3346)
    def log_stanza(self, ctx, prefix, xml):
        self.p.log(ctx, DEBUG, "%@: %@", [prefix, xml], XMPP_M, "-[xmpp logStanza:withPrefix:]", 3346)

    def idempotent_send(self, xml):   # -[xmpp startXMPPStreamWithXMLOpening:withStartTLS:andDirectWrite:]
        self.log_stanza(self.recvq, "IDEMPOTENT_SEND", xml)

    def send(self, xml, truth=None, smacks_copy=None):
        """-[xmpp send:withSmacks:]: stanzas get an 'ADD UNACKED STANZA: n' copy logged on the
        receive queue (with a <delay/> added to message/presence), then 'SEND' on the send queue."""
        if smacks_copy is not None:
            self.log_stanza(self.recvq, "ADD UNACKED STANZA: %d" % self.unacked, smacks_copy)
            self.unacked += 1
        self.log_stanza(self.sendq, "SEND", xml)
        if truth:
            TRUTH.append(dict(self.who(), entry=len(LOG) - 1, direction="out", **truth))

    def send_sasl_redacted(self, element):
        self.p.log(self.sendq, DEBUG, "%@: redacted sasl element: %@", ["SEND", element], XMPP_M,
                   "-[xmpp logStanza:withPrefix:]", 3342)

    def transaction(self, xml, phase):
        """Verbose lines around every parsed stanza, -[xmpp prepareXMPPParser] xmpp.m:1375, 1383"""
        m = "-[xmpp prepareXMPPParser]"
        if phase == "starting":
            self.p.log(self.recvq, VERBOSE, "Starting transaction for: %@", [xml], XMPP_M, block(m, 4), 1375)
        else:
            self.p.log(self.recvq, VERBOSE, "Ended transaction for: %@", [xml], XMPP_M, block(m, 4), 1383)

    def recv(self, xml, truth=None, with_transaction=False):
        """-[xmpp processInput:withDelayedReplay:] xmpp.m:1789"""
        if with_transaction:
            self.transaction(xml, "starting")
        self.p.log(self.recvq, INFO, "RECV Stanza: %@", [xml], XMPP_M,
                   "-[xmpp processInput:withDelayedReplay:]", 1789)
        if truth:
            TRUTH.append(dict(self.who(), entry=len(LOG) - 1, direction="in", **truth))
        if with_transaction:
            self.transaction(xml, "ended")

    def info(self, fmt, args, function, line, ctx=None, flag=INFO, file=XMPP_M):
        self.p.log(ctx or self.recvq, flag, fmt, args, file, function, line)


NET = Ctx("1873", "im.monal.runloop.networking", "im.monal.runloop.networking", 9)


def raw_read(proc, text):
    """-[MLPipe process] MLPipe.m:217: DDLogVerbose(@"RECV(%ld): %s", readLen, _outputBuffer)"""
    n = len(text.encode('utf-8'))
    assert text.isascii()     # %s is decoded in the system encoding, not UTF-8: keep it ASCII here
    proc.log(NET, VERBOSE, "RECV(%ld): %s", [n, text], "MLPipe.m", "-[MLPipe process]", 217)


def stream_header(c, domain):
    return ("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
            "version='1.0' to='%s'>" % domain)


def startup(proc, main_ctx, container, version):
    """+[HelperTools configureLogging] HelperTools.m:2067-2124"""
    proc.log(main_ctx, INFO, "Logfile dir: %@", [container], "HelperTools.m", "+[HelperTools configureLogging]", 2082)
    proc.log(main_ctx, DEBUG, "Current logfile: %@", [container + "/" + GOOD_NAME], "HelperTools.m",
             "+[HelperTools configureLogging]", 2095)
    proc.log(main_ctx, INFO, "Starting: %@", [version], "HelperTools.m", "+[HelperTools configureLogging]", 2104)


def login(c, domain, bind_id, roster_id, rname_items, with_sasl=True):
    """Stream start, SASL (left out for account 2 to keep the file small), bind, smacks enable,
    roster get, initial presence."""
    c.info("Creating account %@ with id %@", [c.aid, c.iid],
           "-[xmpp initWithServer:andIdentity:andAccountID:]", 185, ctx=c.p.main, flag=VERBOSE)
    c.idempotent_send("<?xml version='1.0'?>")
    c.idempotent_send(stream_header(c, domain))
    if with_sasl:
        c.recv("<features xmlns='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>"
               "<mechanism>SCRAM-SHA-256</mechanism><mechanism>PLAIN</mechanism></mechanisms>"
               "<sm xmlns='urn:xmpp:sm:3'/></features>")
        c.send_sasl_redacted("auth")
        c.recv("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>dj1wMnBNdUVoYVhhVmZDb0c0NmRSdmxVaW9vcz0=</success>")
        c.idempotent_send(stream_header(c, domain).replace(" to=", " from='%s' to=" % c.jid))
    resource = c.full.split('/', 1)[1]
    bind = ("<iq type='set' id='%s' xmlns='jabber:client'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
            "<resource>%s</resource></bind></iq>" % (bind_id, resource))
    c.send(bind, truth=dict(name="iq", id=bind_id, type="set", body=None), smacks_copy=bind)
    c.recv("<iq type='result' id='%s' xmlns='jabber:client'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
           "<jid>%s</jid></bind></iq>" % (bind_id, c.full),
           truth=dict(name="iq", id=bind_id, type="result", body=None))
    c.info("Now bound, initializing new xmpp session", [], "-[xmpp initSession]", 4057)
    c.send("<enable resume='true' max='600' xmlns='urn:xmpp:sm:3'/>")
    c.recv("<enabled id='g2gCbQAAAAYxMjM0NTY=' resume='true' max='600' xmlns='urn:xmpp:sm:3'/>")
    roster_get = "<iq type='get' id='%s' xmlns='jabber:client'><query xmlns='jabber:iq:roster'/></iq>" % roster_id
    c.send(roster_get, truth=dict(name="iq", id=roster_id, type="get", body=None), smacks_copy=roster_get)
    items = ''.join("<item jid='%s' subscription='both' name='%s'/>" % (j, n) for j, n in rname_items)
    c.recv("<iq type='result' id='%s' to='%s' xmlns='jabber:client'><query ver='7' xmlns='jabber:iq:roster'>%s</query></iq>"
           % (roster_id, c.full, items),
           truth=dict(name="iq", id=roster_id, type="result", body=None))
    pres = "<presence xmlns='jabber:client'><show>chat</show><c hash='sha-1' node='https://monal-im.org/' ver='jbN2jP0v+bn4H8hIHuZHkXZ0jH0=' xmlns='http://jabber.org/protocol/caps'/></presence>"
    pres_copy = pres.replace("</presence>", "<delay from='%s' stamp='2024-10-23T07:%s+0000' xmlns='urn:xmpp:delay'/></presence>"
                             % (c.jid, c.p.clock_stamp()))
    c.send(pres, truth=dict(name="presence", id=None, type=None, body=None), smacks_copy=pres_copy)


def out_message(c, to, mid, body, stamp):
    """An outgoing chat message as XMPPMessage builds it (id = NSUUID, origin-id child, body, hints)."""
    inner = ("<origin-id id='%s' xmlns='urn:xmpp:sid:0'/><body>%s</body><store xmlns='urn:xmpp:hints'/>"
             "<request xmlns='urn:xmpp:receipts'/><markable xmlns='urn:xmpp:chat-markers:0'/>" % (mid, xml_escape(body)))
    xml = "<message type='chat' id='%s' to='%s' xmlns='jabber:client'>%s</message>" % (mid, to, inner)
    copy = xml.replace("</message>", "<delay from='%s' stamp='%s' xmlns='urn:xmpp:delay'/></message>" % (c.jid, stamp))
    c.send(xml, truth=dict(name="message", id=mid, type="chat", body=body), smacks_copy=copy)


def xml_escape(s):
    """+[MLXMLNode escapeForXMPP:] MLXMLNode.m:783-792"""
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
             .replace("'", "&apos;").replace('"', "&quot;"))


# --------------------------------------------------------------------------

def build():
    clock = Clock(9, 15, 2, 118)

    def stamp_fn():
        t = clock.t - 2 * 3600000
        return "%02d:%02d" % (t // 60000 % 60, t // 1000 % 60)

    main = Process("Monal", "mainapp", "3f9a0c12", clock)
    main.clock_stamp = stamp_fn
    main.main = Ctx("2813", "main", "com.apple.main-thread", 33)
    appex = Process("NotificationService", "appex", "b7e41d09", clock)
    appex.clock_stamp = stamp_fn
    appex.main = Ctx("40211", "main", "com.apple.main-thread", 33)

    container = "/private/var/mobile/Containers/Shared/AppGroup/6A1F4C2E-0B7D-4E59-9C1A-5D2B8E7F3A10"
    # +[HelperTools appBuildVersionInfoFor:] with MLVersionTypeLog (HelperTools.m:2557-2571)
    version = "Version Stable 6.4.5 (1055), G7M3Q9XS7U.SignalWorks.Monal on iOS/macOS 18.0.1"
    startup(main, main.main, container, version)
    main.log(main.main, ERROR, "Failed to get directory contents while cleaning up rawlog crashcopies...", [],
             "HelperTools.m", "+[HelperTools cleanupRawlogCrashcopies]", 2141)

    a1 = Conn(main, "1", "5c0ffee1", "alice@example.org", "Monal-iOS.4B1C", "7701", "7702")
    a2 = Conn(main, "2", "a1b2c3d4", "alice@work.example", "Monal-iOS.90EE", "7711", "7712")

    bob, carol = "bob@example.net", "carol@work.example"
    login(a1, "example.org", "8E3C2D5B-6A0F-4F43-9B1E-1D2E3F4A5B6C", "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0",
          [(bob, "Bob"), ("dave@example.com", "Dave")])
    clock.step(40)
    login(a2, "work.example", "A7B6C5D4-E3F2-4A10-8F9E-8D7C6B5A4F3E", "11223344-5566-4778-8899-AABBCCDDEEFF",
          [(carol, "Carol")], with_sasl=False)

    # presence from bob on account 1
    a1.recv("<presence from='bob@example.net/phone' to='alice@example.org/Monal-iOS.4B1C' xmlns='jabber:client'>"
            "<show>away</show><status>on the train</status></presence>",
            truth=dict(name="presence", id=None, type=None, body=None))

    # MAM catch-up on account 1 (xmpp.m send:withSmacks: logs the queryid first)
    qid = "C0A80001-0000-4000-8000-00000000CAFE"
    mam_id = "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8B9"
    a1.info("Adding mam queryid to list: %@", [qid], block("-[xmpp send:withSmacks:]"), 3292, flag=DEBUG)
    mam = ("<iq type='set' id='%s' xmlns='jabber:client'><query queryid='%s' xmlns='urn:xmpp:mam:2'>"
           "<x type='submit' xmlns='jabber:x:data'><field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>"
           "<field var='after-id'><value>1729661000000001</value></field></x></query></iq>" % (mam_id, qid))
    a1.send(mam, truth=dict(name="iq", id=mam_id, type="set", body=None), smacks_copy=mam)
    # two archived messages: each arrives wrapped in a <message><result/></message> from the own server
    for n, (frm, to, mid, body, stamp, arch) in enumerate([
        ("bob@example.net/phone", "alice@example.org", "b-0001", "Did you get the tickets?", "2024-10-23T05:58:01Z", "1729663081000001"),
        ("alice@example.org/Monal-iOS.4B1C", bob, "D1E2F3A4-B5C6-4D7E-8F90-A1B2C3D4E5F6", "Yes, two of them.", "2024-10-23T06:01:44Z", "1729663304000002"),
    ]):
        a1.recv("<message to='alice@example.org/Monal-iOS.4B1C' from='alice@example.org' xmlns='jabber:client'>"
                "<result queryid='%s' id='%s' xmlns='urn:xmpp:mam:2'><forwarded xmlns='urn:xmpp:forward:0'>"
                "<delay stamp='%s' xmlns='urn:xmpp:delay'/><message from='%s' to='%s' type='chat' id='%s' xmlns='jabber:client'>"
                "<body>%s</body></message></forwarded></result></message>" % (qid, arch, stamp, frm, to, mid, xml_escape(body)),
                truth=dict(name="message", id=None, type=None, body=None))
    # a live message arrives while the catch-up runs: logged as RECV Stanza, stored, replayed later
    live_id = "b-0002"
    live = ("<message from='bob@example.net/phone' to='alice@example.org/Monal-iOS.4B1C' type='chat' id='%s' xmlns='jabber:client'>"
            "<body>Fish &amp; chips &lt;3 at 1/2 price, Bob&apos;s café ☕</body><request xmlns='urn:xmpp:receipts'/></message>" % live_id)
    a1.recv(live, truth=dict(name="message", id=live_id, type="chat",
                             body="Fish & chips <3 at 1/2 price, Bob's café ☕"), with_transaction=True)
    a1.info("Saving incoming message node to delayedMessageStanzas...", [],
            "-[xmpp processInput:withDelayedReplay:]", 2163)
    a1.recv("<iq type='result' id='%s' to='alice@example.org/Monal-iOS.4B1C' xmlns='jabber:client'>"
            "<fin complete='true' xmlns='urn:xmpp:mam:2'><set xmlns='http://jabber.org/protocol/rsm'>"
            "<first>1729663081000001</first><last>1729663304000002</last></set></fin></iq>" % mam_id,
            truth=dict(name="iq", id=mam_id, type="result", body=None))
    # -[xmpp _handleInternalMamFinishedFor:] replays the stored live message: NOT a new receipt
    hm = "-[xmpp _handleInternalMamFinishedFor:]"
    a1.info("Got delayed stanza: %@", [live], block(hm, 2), 5259, flag=DEBUG)
    a1.info("delayedReplay of Stanza: %@", [live], "-[xmpp processInput:withDelayedReplay:]", 1787)
    a1.info("Delayed Stanza finished processing: %@", [live], block(hm, 2), 5285, flag=DEBUG)
    a1.info("Got delayed stanza: %@", [None], block(hm, 2), 5259, flag=DEBUG)
    a1.info("Catchup finished for jid %@", [a1.jid], block(hm, 2), 5262)

    # smacks: server requests an ack, Monal answers (nonzas, not stanzas)
    a1.recv("<r xmlns='urn:xmpp:sm:3'/>")
    a1.send("<a h='7' xmlns='urn:xmpp:sm:3'/>")

    # chat: alice -> bob with a newline in the body
    clock.step(2500)
    out_message(a1, bob, "4F5A6B7C-8D9E-4F0A-9B1C-2D3E4F5A6B7C", "See you at 5.\nPlatform 3, front of the train.",
                "2024-10-23T07:15:21+0000")
    main.log(NET, WARN, "not starting pipe processing: no space to write", [], "MLPipe.m", "-[MLPipe process]", 167)
    # bob -> alice, seen first as a raw socket read, then parsed
    raw = ("<message type=\"chat\" to=\"alice@example.org/Monal-iOS.4B1C\" id=\"b-0003\" from=\"bob@example.net/phone\">"
           "<body>ok, see you</body><request xmlns=\"urn:xmpp:receipts\"/></message>")
    raw_read(main, raw)
    a1.recv("<message from='bob@example.net/phone' type='chat' id='b-0003' to='alice@example.org/Monal-iOS.4B1C' xmlns='jabber:client'>"
            "<body>ok, see you</body><request xmlns='urn:xmpp:receipts'/></message>",
            truth=dict(name="message", id="b-0003", type="chat", body="ok, see you"), with_transaction=True)
    rcpt = ("<message type='chat' id='0A1B2C3D-4E5F-4A6B-8C7D-8E9FA0B1C2D3' to='bob@example.net/phone' xmlns='jabber:client'>"
            "<origin-id id='0A1B2C3D-4E5F-4A6B-8C7D-8E9FA0B1C2D3' xmlns='urn:xmpp:sid:0'/><received id='b-0003' xmlns='urn:xmpp:receipts'/>"
            "<store xmlns='urn:xmpp:hints'/></message>")
    a1.send(rcpt, truth=dict(name="message", id="0A1B2C3D-4E5F-4A6B-8C7D-8E9FA0B1C2D3", type="chat", body=None),
            smacks_copy=rcpt.replace("</message>", "<delay from='alice@example.org' stamp='2024-10-23T07:15:24+0000' xmlns='urn:xmpp:delay'/></message>"))

    # account 2: one message each way
    out_message(a2, carol, "6C7D8E9F-A0B1-4C2D-9E3F-405162738495", "Meeting moved to 14:00 (room B/2)", "2024-10-23T07:15:26+0000")
    a2.recv("<message from='carol@work.example/laptop' to='alice@work.example/Monal-iOS.90EE' type='chat' id='c-77' xmlns='jabber:client'>"
            "<body>Thanks — noted.</body><active xmlns='http://jabber.org/protocol/chatstates'/></message>",
            truth=dict(name="message", id="c-77", type="chat", body="Thanks — noted."))

    # the app goes to the background; a push starts the Notification Service Extension, which
    # logs into the same file (doNotReuseLogFiles = NO) with its own processID, counter and xmpp objects
    clock.step(60000)
    main.log(main.main, VERBOSE, "DISPATCHING %@ OPERATION ON RECEIVE QUEUE %@: %lu",
             ["*sync*", "receiveQueue[1:5c0ffee1]", 0], XMPP_M, "-[xmpp dispatchOnReceiveQueue:async:]", 393)
    clock.step(30000)
    startup(appex, appex.main, container, version)
    n1 = Conn(appex, "1", "0d15ea5e", "alice@example.org", "Monal-iOS.4B1C", "40307", "40308")
    n1.info("Creating account %@ with id %@", [n1.aid, n1.iid],
            "-[xmpp initWithServer:andIdentity:andAccountID:]", 185, ctx=appex.main, flag=VERBOSE)
    n1.info("Called from extension: CSI inactive", [], "-[xmpp setupObjects]", 301, ctx=appex.main, flag=VERBOSE)
    n1.idempotent_send("<?xml version='1.0'?>")
    n1.idempotent_send(stream_header(n1, "example.org"))
    n1.recv("<features xmlns='http://etherx.jabber.org/streams'><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'>"
            "<mechanism>SCRAM-SHA-256</mechanism></mechanisms><sm xmlns='urn:xmpp:sm:3'/></features>")
    n1.send_sasl_redacted("auth")
    n1.recv("<success xmlns='urn:ietf:params:xml:ns:xmpp-sasl'/>")
    # the main app is still alive for a moment: its lines interleave with the extension's
    main.log(main.main, VERBOSE, "DISPATCHING %@ OPERATION ON RECEIVE QUEUE %@: %lu",
             ["ASYNC", "receiveQueue[2:a1b2c3d4]", 1], XMPP_M, "-[xmpp dispatchOnReceiveQueue:async:]", 393)
    n1.send("<resume h='9' previd='g2gCbQAAAAYxMjM0NTY=' xmlns='urn:xmpp:sm:3'/>")
    n1.recv("<failed h='9' xmlns='urn:xmpp:sm:3'><item-not-found xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/></failed>")
    n1.info("++++++++++++++++++++++++ failed resume: h=%@", [9], "-[xmpp processInput:withDelayedReplay:]", 2383)
    bind_id = "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D"
    n1.send("<iq type='set' id='%s' xmlns='jabber:client'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
            "<resource>Monal-iOS.4B1C</resource></bind></iq>" % bind_id,
            truth=dict(name="iq", id=bind_id, type="set", body=None))
    n1.recv("<iq type='result' id='%s' xmlns='jabber:client'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'>"
            "<jid>alice@example.org/Monal-iOS.4B1C</jid></bind></iq>" % bind_id,
            truth=dict(name="iq", id=bind_id, type="result", body=None))
    n1.info("Now bound, initializing new xmpp session", [], "-[xmpp initSession]", 4057)
    n1.recv("<message from='dave@example.com/desk' to='alice@example.org' type='chat' id='d-5' xmlns='jabber:client'>"
            "<body>Are you still coming tonight?</body></message>",
            truth=dict(name="message", id="d-5", type="chat", body="Are you still coming tonight?"), with_transaction=True)
    n1.info("notification manager should show notification for: %@", ["Are you still coming tonight?"],
            "-[MLNotificationManager internalMessageHandlerWithMessage:andAccount:showAlert:andSound:andLMCReplaced:]", 253,
            flag=VERBOSE, file="MLNotificationManager.m")


def main():
    build()
    good = b"".join(LOG)
    with open(os.path.join(HERE, GOOD_NAME), "wb") as f:
        f.write(good)

    # gzip -n: no name, no timestamp in the header, so the bytes are reproducible
    gz = subprocess.run(["gzip", "-n", "-9", "-c"], input=good, stdout=subprocess.PIPE, check=True).stdout
    with open(os.path.join(HERE, GOOD_NAME + ".gz"), "wb") as f:
        f.write(gz)

    # damaged 1: the length prefix of entry index BAD (0-based) overwritten with 0xFFFFFFF0
    BAD = 21   # the SEND of account 1's initial presence (a stanza listed in truth.json)
    off = sum(len(e) for e in LOG[:BAD])
    bad = bytearray(good)
    bad[off:off + 4] = struct.pack(">I", 0xFFFFFFF0)
    with open(os.path.join(HERE, "damaged-bad-length.rawlog"), "wb") as f:
        f.write(bad)

    # damaged 2: cut off in the middle of the last entry's JSON
    last = LOG[-1]
    cut = len(good) - len(last) + 4 + (len(last) - 4) // 2
    with open(os.path.join(HERE, "damaged-truncated.rawlog"), "wb") as f:
        f.write(good[:cut])

    truth = {
        "file": GOOD_NAME,
        "entries": len(LOG),
        "damaged-bad-length.rawlog": {"bad_entry_index": BAD, "bad_prefix_offset": off, "prefix": "fffffff0"},
        "damaged-truncated.rawlog": {"complete_entries": len(LOG) - 1, "size": cut},
        "stanzas": TRUTH,
    }
    with open(os.path.join(HERE, "truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("%d entries, %d bytes, %d stanzas sent/received" % (len(LOG), len(good), len(TRUTH)), file=sys.stderr)


if __name__ == "__main__":
    main()
