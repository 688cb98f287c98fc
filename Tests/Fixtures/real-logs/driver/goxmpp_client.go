// A go-xmpp (github.com/mattn/go-xmpp) client that plays the sender of the
// scripted session with go-xmpp's debug output on (Options.Debug): go-xmpp
// then tees what it reads from the socket to its DebugWriter, standard error,
// each read followed by a line feed. The session's data comes from
// driver/scenario.py, as JSON (--scenario): the iqs (roster, disco#info, two
// that fail, ping), then each stress body as a chat message to the peer (id
// USER-SUFFIX), waiting for its echo, then `bye`, then the end of the stream.
//
// Built by record-goxmpp.sh with Debian's Go and go-xmpp, offline:
// GO111MODULE=off GOPATH=/usr/share/gocode go build goxmpp_client.go
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	xmpp "github.com/mattn/go-xmpp"
)

type scenario struct {
	Iqs    [][2]string `json:"iqs"`    // (id, xml)
	Bodies [][2]string `json:"bodies"` // (id suffix, body)
	Bye    string      `json:"bye"`
}

// escape writes text as XML text the way the other drivers' libraries do:
// the five predefined entities, newlines and tabs as they are.
func escape(text string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&apos;", "\"", "&quot;").Replace(text)
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stdout, "goxmpp driver: "+format+"\n", args...)
	os.Exit(1)
}

// waitFor reads stanzas until ok says one is the awaited one.
func waitFor(c *xmpp.Client, what string, ok func(interface{}) bool) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		stanza, err := c.Recv()
		if err != nil {
			fail("waiting for %s: %v", what, err)
		}
		if ok(stanza) {
			return
		}
	}
	fail("no %s", what)
}

func main() {
	host := flag.String("host", "127.0.0.1:5222", "server address")
	user := flag.String("user", "", "bare JID")
	password := flag.String("password", "", "password")
	resource := flag.String("resource", "goxmpp", "resource")
	peer := flag.String("peer", "", "the echoer's bare JID")
	file := flag.String("scenario", "", "the session's data (JSON)")
	flag.Parse()

	data, err := os.ReadFile(*file)
	if err != nil {
		fail("%v", err)
	}
	var s scenario
	if err := json.Unmarshal(data, &s); err != nil {
		fail("%v", err)
	}
	options := xmpp.Options{Host: *host, User: *user, Password: *password, Resource: *resource,
		NoTLS: true, InsecureAllowUnencryptedAuth: true, Debug: true}
	c, err := options.NewClient()
	if err != nil {
		fail("connect: %v", err)
	}
	name := strings.SplitN(*user, "@", 2)[0]
	for _, iq := range s.Iqs {
		id := iq[0]
		if _, err := c.SendOrg(iq[1]); err != nil {
			fail("%v", err)
		}
		waitFor(c, "iq "+id, func(v interface{}) bool { r, ok := v.(xmpp.IQ); return ok && r.ID == id })
	}
	for _, b := range s.Bodies {
		id := name + "-" + b[0]
		body := b[1]
		message := fmt.Sprintf("<message to='%s' type='chat' id='%s'><body>%s</body></message>", *peer, id, escape(body))
		if _, err := c.SendOrg(message); err != nil {
			fail("%v", err)
		}
		waitFor(c, "echo of "+id, func(v interface{}) bool {
			m, ok := v.(xmpp.Chat)
			return ok && strings.HasPrefix(m.Remote, *peer) && m.Text == body
		})
	}
	bye := fmt.Sprintf("<message to='%s' type='chat' id='%s-bye'><body>%s</body></message>", *peer, name, s.Bye)
	if _, err := c.SendOrg(bye); err != nil {
		fail("%v", err)
	}
	time.Sleep(500 * time.Millisecond)
	c.Close()
}
