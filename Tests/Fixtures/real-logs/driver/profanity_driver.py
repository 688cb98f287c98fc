#!/usr/bin/python3
"""Drives a Profanity session in a tmux pane, without a person.

Profanity is an ncurses program: this types into its pane what a person would
(tmux send-keys) and reads its debug log to know when to go on. The account is
set up with `/account` commands (server, port, resource, no TLS, password),
then: `/connect`; `/join` a new MUC room, `/room accept` (the default
configuration, an owner form submitted), a groupchat message, `/close` (leaves it);
`/msg PEER` opens a chat window, in which each stress body of
scenario.BODIES is typed and sent (a newline as readline's quoted insert,
Ctrl-V Ctrl-J, which Profanity sends as a newline; a tab as Ctrl-V Tab, since
Tab completes), waiting for the peer's echo of each; then `bye`, and `/quit`
once the peer is done.
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scenario  # noqa: E402


class Pane:
    def __init__(self, socket, target):
        self.tmux = ["tmux", "-L", socket]
        self.target = target

    def keys(self, *keys):
        subprocess.run(self.tmux + ["send-keys", "-t", self.target, *keys], check=True)

    def literal(self, text):
        """Types `text`; a `;` goes by its code, since tmux takes an argument's
        final `;` for the end of a command."""
        for i, part in enumerate(text.split(";")):
            if i:
                self.keys("-H", "3b")
            if part:
                subprocess.run(self.tmux + ["send-keys", "-t", self.target, "-l", part], check=True)

    def type_line(self, text):
        """Types `text` as one input line: newlines and tabs quoted, then Enter."""
        for i, line in enumerate(text.split("\n")):
            if i:
                self.keys("C-v", "C-j")
            for j, piece in enumerate(line.split("\t")):
                if j:
                    self.keys("C-v", "Tab")
                self.literal(piece)
        time.sleep(0.2)
        self.keys("Enter")

    def command(self, text):
        self.type_line(text)
        time.sleep(0.3)


class Log:
    def __init__(self, path):
        self.path = path

    def text(self):
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def wait(self, pattern, count=1, timeout=20, what=""):
        regex = re.compile(pattern)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if len(regex.findall(self.text())) >= count:
                return
            time.sleep(0.1)
        sys.exit(f"profanity_driver: timed out waiting for {what or pattern}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tmux-socket", required=True)
    p.add_argument("--target", required=True)
    p.add_argument("--log", required=True, help="Profanity's log file")
    p.add_argument("--account", required=True, help="bare JID")
    p.add_argument("--password", required=True)
    p.add_argument("--resource", required=True)
    p.add_argument("--port", required=True)
    p.add_argument("--peer", required=True, help="the echoer's bare JID")
    p.add_argument("--room", required=True)
    p.add_argument("--peer-done", required=True, help="a file that exists once the peer has ended")
    a = p.parse_args()
    pane, log = Pane(a.tmux_socket, a.target), Log(a.log)

    log.wait(r"prof: INF: Starting main event loop", what="Profanity's start")
    pane.command(f"/account add {a.account}")
    for setting in ("server 127.0.0.1", f"port {a.port}", f"resource {a.resource}", "tls disable",
                    f"password {a.password}"):
        pane.command(f"/account set {a.account} {setting}")
    pane.command(f"/connect {a.account}")
    log.wait(r"prof: INF: \S+ logged in successfully", what="the login")
    time.sleep(2)                                   # the requests Profanity sends on login

    # A new room: Profanity asks to accept its default configuration.
    nick = a.account.split("@")[0]
    pane.command(f"/join {a.room}")
    log.wait(r"RECV: <presence[^\n]*from=\"" + re.escape(f"{a.room}/{nick}"), what="the room's presence")
    time.sleep(1)
    pane.command("/room accept")
    log.wait(r"SENT: <iq[^\n]*muc#owner", what="the room's configuration")
    time.sleep(1)
    pane.type_line("hello room, <b>&amp;</b> \u00e9")
    log.wait(r"RECV: <message[^\n]*from=\"" + re.escape(f"{a.room}/{nick}") + "\"", what="the groupchat message's echo")
    pane.command("/close")                          # leaves the room
    time.sleep(1)

    # The chat with the echoer: one body after the other, each once echoed.
    pane.command(f"/msg {a.peer}")
    echoes = r"RECV: <message id=\"echo-"
    for n, (_suffix, body) in enumerate(scenario.BODIES, 1):
        pane.type_line(body)
        log.wait(echoes, count=n, what=f"echo {n}")
    pane.type_line(scenario.BYE)
    for _ in range(300):
        if os.path.exists(a.peer_done):
            break
        time.sleep(0.1)
    else:
        sys.exit("profanity_driver: the peer did not end")
    time.sleep(1)
    pane.command("/quit")


if __name__ == "__main__":
    main()
