#!/usr/bin/python3
"""Drives a Finch session over D-Bus, without a person.

Finch (libpurple's curses client) runs in a tmux pane with its account
enabled, so it connects by itself; this talks to it over the session bus, as
libpurple's own `purple-remote` does (`im.pidgin.purple.PurpleInterface`),
and reads Finch's debug log (stderr) to know when to go on:

  join a new MUC room (ServJoinChat, as `purple-remote gochat`), a groupchat
  message, leave it (the conversation destroyed); an IM conversation with the
  peer (PurpleConversationNew, as `purple-remote goim`), in which each stress
  body of scenario.BODIES is sent (PurpleConvImSend), waiting for the peer's
  echo of each; `bye`; then, once the peer is done, quit (PurpleCoreQuit).

The text goes through PurpleConvImSend as markup, escaped as Finch escapes
what is typed into its entry (purple_markup_escape_text: & < > " '), so the
wire carries what a person typing the body would send.
"""
import argparse
import os
import sys
import time

import dbus

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402

SERVICE = "im.pidgin.purple.PurpleService"
OBJECT = "/im/pidgin/purple/PurpleObject"
INTERFACE = "im.pidgin.purple.PurpleInterface"
CONV_IM, CONV_CHAT = 1, 2


def escape(text):
    """purple_markup_escape_text's escaping (libpurple/util.c)."""
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&apos;"))


def wait(what, check, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    sys.exit(f"finch driver: timed out waiting for {what}")


def log_count(path, needle):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().count(needle)
    except OSError:
        return 0


def connect_bus():
    def get():
        try:
            obj = dbus.SessionBus().get_object(SERVICE, OBJECT)
            purple = dbus.Interface(obj, INTERFACE)
            purple.PurpleAccountsGetAllActive()
            return purple
        except dbus.exceptions.DBusException:
            return None
    return wait("Finch on the session bus", get)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log", required=True, help="Finch's debug log (its stderr)")
    p.add_argument("--account", required=True, help="the account's name, user@domain/resource")
    p.add_argument("--peer", required=True)
    p.add_argument("--room", required=True)
    p.add_argument("--peer-done", required=True, help="a file the peer's runner writes at its end")
    a = p.parse_args()

    purple = connect_bus()
    account = wait("the account to connect",
                   lambda: purple.PurpleAccountsFindConnected(a.account, "prpl-jabber"))
    # Finch's own requests after the roster (disco, vCard, ...) come first.
    wait("the roster", lambda: log_count(a.log, "jabber:iq:roster") >= 2)
    time.sleep(2)
    gc = purple.PurpleAccountGetConnection(account)

    room, server = a.room.split("@", 1)
    user = a.account.split("@", 1)[0]
    purple.ServJoinChat(gc, {"room": room, "server": server, "handle": user})
    chat = wait("the room", lambda: purple.PurpleFindConversationWithAccount(CONV_CHAT, a.room, account))
    wait("the room's presence", lambda: log_count(a.log, f"from='{a.room}/{user}'") >= 1)
    time.sleep(1)
    purple.PurpleConvChatSend(purple.PurpleConversationGetChatData(chat),
                              escape("hello room, <b>&amp;</b> \u00e9"))
    time.sleep(1)
    purple.PurpleConversationDestroy(chat)
    time.sleep(1)

    conv = purple.PurpleConversationNew(CONV_IM, account, a.peer)
    im = purple.PurpleConversationGetImData(conv)
    for n, (_suffix, body) in enumerate(scenario.BODIES, 1):
        purple.PurpleConvImSend(im, escape(body))
        wait(f"echo {n}", lambda: log_count(a.log, "id='echo-") >= n)
    purple.PurpleConvImSend(im, scenario.BYE)
    wait("the peer's end", lambda: os.path.exists(a.peer_done), timeout=60)
    time.sleep(1)
    try:
        purple.PurpleCoreQuit()
    except dbus.exceptions.DBusException:
        pass                   # Finch leaves the bus as it quits


if __name__ == "__main__":
    main()
