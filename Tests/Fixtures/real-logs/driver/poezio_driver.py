#!/usr/bin/python3
"""Drives a poezio session in a tmux pane, without a person.

poezio is a curses program: this types into its pane what a person would
(tmux send-keys, Pane from profanity_driver.py) and reads its debug log
(`poezio -d FILE`) to know when to go on. The account is in poezio's
configuration file (written by record-poezio.sh), so poezio connects by
itself; then: the scenario's iqs (disco#info, the two that fail, ping) with
`/rawxml`; `/join` a new MUC room, its configuration form submitted with
`/rawxml` (poezio's `/configure` fetches the room's form, whose title names
the room in free text, which `--redact` leaves as it is), a groupchat
message, `/part`; `/message PEER`, in which
each stress body of scenario.BODIES is pasted (tmux paste-buffer: poezio reads
a paste as text, its line breaks and tabs included, where a typed Tab would
complete) and sent with Enter, waiting for the peer's echo of each; `bye`;
the MAM query with `/rawxml`; `/quit` once the peer is done.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402
from profanity_driver import Log, Pane  # noqa: E402


def command(pane, text):
    """Types a command: `/` alone first (in the roster tab it opens the command
    line, and what comes in the same read is lost), then the rest and Enter."""
    pane.keys("/")
    time.sleep(0.3)
    pane.literal(text[1:])
    time.sleep(0.3)
    pane.keys("Enter")
    time.sleep(0.3)


def paste(pane, text):
    """Pastes `text` into the pane as one read (tmux turns its LFs into CRs,
    which poezio takes for line breaks inside a paste), then Enter."""
    # (From standard input: tmux takes an argument's final `;` for the end of a command.)
    subprocess.run(pane.tmux + ["load-buffer", "-b", "stanzaq", "-"], input=text.encode("utf-8"), check=True)
    subprocess.run(pane.tmux + ["paste-buffer", "-d", "-b", "stanzaq", "-t", pane.target], check=True)
    time.sleep(0.5)
    pane.keys("Enter")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tmux-socket", required=True)
    p.add_argument("--target", required=True)
    p.add_argument("--log", required=True, help="poezio's debug log (-d)")
    p.add_argument("--account", required=True, help="bare JID")
    p.add_argument("--peer", required=True, help="the echoer's bare JID")
    p.add_argument("--room", required=True)
    p.add_argument("--peer-done", required=True, help="a file that exists once the peer has ended")
    a = p.parse_args()
    pane, log = Pane(a.tmux_socket, a.target), Log(a.log)
    user, domain = a.account.split("@")

    log.wait(r"SEND: <presence", what="poezio's initial presence")
    time.sleep(3)                                   # the requests poezio sends on login
    for iq_id, xml in scenario.iq_steps(user, domain, a.peer)[1:]:
        command(pane, "/rawxml " + xml)
        log.wait(r"RECV: <iq[^\n]*id=\"" + re.escape(iq_id) + "\"", what=iq_id)

    # A new room, locked until configured: the scenario's form submitted.
    command(pane, f"/join {a.room}/{user}")
    log.wait(r"RECV: <presence[^\n]*from=\"" + re.escape(f"{a.room}/{user}"), what="the room's presence")
    time.sleep(1)
    config_id, config = scenario.muc_config_iq(user, a.room)
    command(pane, "/rawxml " + config)
    log.wait(r"RECV: <iq[^\n]*id=\"" + re.escape(config_id) + "\"", what="the room's configuration")
    time.sleep(1)
    paste(pane, "hello room, <b>&amp;</b> \u00e9")
    log.wait(r"RECV: <message[^\n]*from=\"" + re.escape(f"{a.room}/{user}") + "\"", what="the groupchat message's echo")
    command(pane, "/part")
    time.sleep(1)

    # The chat with the echoer: one body after the other, each once echoed.
    command(pane, f"/message {a.peer}")
    time.sleep(1)
    echoes = r"RECV: <message[^\n]*id=\"echo-"
    for n, (_suffix, body) in enumerate(scenario.BODIES, 1):
        paste(pane, body)
        log.wait(echoes, count=n, what=f"echo {n}")
    paste(pane, scenario.BYE)
    command(pane, "/rawxml " + scenario.mam_iq(user, a.peer)[1])
    log.wait(r"RECV: <iq[^\n]*id=\"" + re.escape(f"{user}-mam") + "\"", what="the MAM query's result")
    for _ in range(300):
        if os.path.exists(a.peer_done):
            break
        time.sleep(0.1)
    else:
        sys.exit("poezio_driver: the peer did not end")
    time.sleep(1)
    command(pane, "/quit")


if __name__ == "__main__":
    main()
