"""The scripted session shared by the Python drivers (slixmpp, nbxmpp).

Everything here is data: the stress bodies the sending clients put in chat
messages, and the iq payloads every client sends. The C driver for
libstrophe only echoes what it receives, so it needs none of this.
"""

# 4000 characters on one line: a long log line for line-based readers.
_LONG = ("long body " + "0123456789" * 9)[:100]
LONG_BODY = (_LONG * 40)[:4000]

# (id suffix, body). Each body stresses log readers in its own way.
BODIES = [
    ("multiline", "line one\nline two\n\nline four after an empty line"),
    ("specials", "less < than, amp & amp, 'single' and \"double\" quotes, greater > than"),
    ("unicode", "non-ASCII: \u00e9 \u00fc \u65e5\u672c and an emoji \U0001F600 done"),
    ("long", LONG_BODY),
    ("cdata-end", "a CDATA end ]]> in the text, and ]] > spaced"),
    ("tabs", "tab\there\tand\t\tthere"),
    ("pasted-log",
     "pasted log lines follow:\n"
     "DEBUG    SEND: <message id='fake'/>\n"
     "::::: DATA SENT ::::\n"
     "Jan 01 00:00:00 c2s55d0c0ffee00\tdebug\tRECV: <iq id='fake2' type='get'/>\n"
     "conn DEBUG SENT: <presence id='fake3'/>\n"
     "end of paste"),
    ("escaped-xml", "escaped XML text: &lt;iq/&gt; and &amp;amp;"),
    ("mixed", "<b>not markup</b>\n\t\u00e9\U0001F680 & ]]> \"'"),
]

BYE = "bye"

NS_DISCO_INFO = "http://jabber.org/protocol/disco#info"


def iq_steps(user, domain, peer_bare):
    """The iq requests of the session, as (id, xml) in order."""
    return [
        (f"{user}-roster", f"<iq xmlns='jabber:client' type='get' id='{user}-roster'>"
                           "<query xmlns='jabber:iq:roster'/></iq>"),
        (f"{user}-disco", f"<iq xmlns='jabber:client' type='get' id='{user}-disco' to='{domain}'>"
                          f"<query xmlns='{NS_DISCO_INFO}'/></iq>"),
        (f"{user}-err-nobody", f"<iq xmlns='jabber:client' type='get' id='{user}-err-nobody' "
                               f"to='nobody@{domain}/nowhere'><query xmlns='{NS_DISCO_INFO}'/></iq>"),
        (f"{user}-err-ns", f"<iq xmlns='jabber:client' type='get' id='{user}-err-ns' to='{domain}'>"
                           "<query xmlns='urn:example:unsupported'/></iq>"),
        (f"{user}-ping", f"<iq xmlns='jabber:client' type='get' id='{user}-ping' to='{domain}'>"
                         "<ping xmlns='urn:xmpp:ping'/></iq>"),
    ]


def muc_config_iq(user, room):
    """The room configuration form (XEP-0045 owner, XEP-0004 submit)."""
    return (f"{user}-muc-config",
            f"<iq xmlns='jabber:client' type='set' id='{user}-muc-config' to='{room}'>"
            "<query xmlns='http://jabber.org/protocol/muc#owner'>"
            "<x xmlns='jabber:x:data' type='submit'>"
            "<field var='FORM_TYPE'><value>http://jabber.org/protocol/muc#roomconfig</value></field>"
            "<field var='muc#roomconfig_roomname'><value>Fixture room \u00e9</value></field>"
            "<field var='muc#roomconfig_roomdesc'><value>A room for the log fixtures</value></field>"
            "<field var='muc#roomconfig_persistentroom'><value>0</value></field>"
            "<field var='muc#roomconfig_publicroom'><value>1</value></field>"
            "</x></query></iq>")


def mam_iq(user, peer_bare, max_items=3):
    """A MAM query (XEP-0313) for the last messages with the peer."""
    return (f"{user}-mam",
            f"<iq xmlns='jabber:client' type='set' id='{user}-mam'>"
            f"<query xmlns='urn:xmpp:mam:2' queryid='{user}-q1'>"
            "<x xmlns='jabber:x:data' type='submit'>"
            "<field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>"
            f"<field var='with'><value>{peer_bare}</value></field>"
            "</x>"
            f"<set xmlns='http://jabber.org/protocol/rsm'><max>{max_items}</max><before/></set>"
            "</query></iq>")
