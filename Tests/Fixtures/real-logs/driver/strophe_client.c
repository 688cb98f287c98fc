/*
 * A libstrophe client that plays the echoing side of the scripted session:
 * login, roster, presence, disco#info, two iqs that fail, ping; then it
 * writes READY_FILE and echoes every chat message (id "echo-ID") until the
 * body "bye", then sends a MAM query (XEP-0313) and ends the stream.
 *
 * Its log is libstrophe's default logger at debug level, on stderr:
 *   xmpp_get_default_logger(XMPP_LEVEL_DEBUG)
 *
 * usage: strophe_client JID PASSWORD HOST PORT PEER_BARE_JID READY_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strophe.h>

static const char *peer;
static const char *ready_file;
static const char *user;
static const char *domain;
static int pending;          /* iq replies still awaited before READY */
static int finished;         /* the MAM result came */
static int bye_seen;

static void send_xml(xmpp_conn_t *conn, const char *xml)
{
    xmpp_ctx_t *ctx = xmpp_conn_get_context(conn);
    xmpp_stanza_t *st = xmpp_stanza_new_from_string(ctx, xml);
    if (!st) {
        fprintf(stderr, "driver: cannot parse %s\n", xml);
        exit(2);
    }
    xmpp_send(conn, st);
    xmpp_stanza_release(st);
}

static int iq_handler(xmpp_conn_t *conn, xmpp_stanza_t *st, void *userdata)
{
    (void)userdata;
    const char *id = xmpp_stanza_get_id(st);
    const char *type = xmpp_stanza_get_type(st);
    if (!id || !type || (strcmp(type, "result") && strcmp(type, "error")))
        return 1;
    char mam_id[256];
    snprintf(mam_id, sizeof mam_id, "%s-mam", user);
    if (!strcmp(id, mam_id)) {
        finished = 1;
        xmpp_disconnect(conn);
        return 1;
    }
    if (pending > 0 && --pending == 0) {
        FILE *f = fopen(ready_file, "w");
        if (f) { fputs("ready\n", f); fclose(f); }
    }
    return 1;
}

static int message_handler(xmpp_conn_t *conn, xmpp_stanza_t *st, void *userdata)
{
    (void)userdata;
    xmpp_ctx_t *ctx = xmpp_conn_get_context(conn);
    const char *type = xmpp_stanza_get_type(st);
    const char *from = xmpp_stanza_get_from(st);
    const char *id = xmpp_stanza_get_id(st);
    if (!type || strcmp(type, "chat") || !from || !id)
        return 1;
    if (strncmp(from, peer, strlen(peer)) || (from[strlen(peer)] && from[strlen(peer)] != '/'))
        return 1;
    char *body = xmpp_message_get_body(st);
    if (!body)
        return 1;
    if (!strcmp(body, "bye")) {
        if (!bye_seen) {
            bye_seen = 1;
            char xml[2048];
            snprintf(xml, sizeof xml,
                     "<iq xmlns='jabber:client' type='set' id='%s-mam'>"
                     "<query xmlns='urn:xmpp:mam:2' queryid='%s-q1'>"
                     "<x xmlns='jabber:x:data' type='submit'>"
                     "<field var='FORM_TYPE' type='hidden'><value>urn:xmpp:mam:2</value></field>"
                     "<field var='with'><value>%s</value></field></x>"
                     "<set xmlns='http://jabber.org/protocol/rsm'><max>3</max><before/></set>"
                     "</query></iq>", user, user, peer);
            send_xml(conn, xml);
        }
    } else {
        char echo_id[512];
        snprintf(echo_id, sizeof echo_id, "echo-%s", id);
        xmpp_stanza_t *reply = xmpp_message_new(ctx, "chat", from, echo_id);
        xmpp_message_set_body(reply, body);
        xmpp_send(conn, reply);
        xmpp_stanza_release(reply);
    }
    xmpp_free(ctx, body);
    return 1;
}

static void conn_handler(xmpp_conn_t *conn, xmpp_conn_event_t status, int error,
                         xmpp_stream_error_t *stream_error, void *userdata)
{
    (void)error; (void)stream_error;
    xmpp_ctx_t *ctx = (xmpp_ctx_t *)userdata;
    if (status != XMPP_CONN_CONNECT) {
        xmpp_stop(ctx);
        return;
    }
    xmpp_handler_add(conn, iq_handler, NULL, "iq", NULL, NULL);
    xmpp_handler_add(conn, message_handler, NULL, "message", NULL, NULL);

    char xml[1024];
    snprintf(xml, sizeof xml, "<iq xmlns='jabber:client' type='get' id='%s-roster'>"
             "<query xmlns='jabber:iq:roster'/></iq>", user);
    send_xml(conn, xml);
    xmpp_stanza_t *pres = xmpp_presence_new(ctx);
    xmpp_send(conn, pres);
    xmpp_stanza_release(pres);
    snprintf(xml, sizeof xml, "<iq xmlns='jabber:client' type='get' id='%s-disco' to='%s'>"
             "<query xmlns='http://jabber.org/protocol/disco#info'/></iq>", user, domain);
    send_xml(conn, xml);
    snprintf(xml, sizeof xml, "<iq xmlns='jabber:client' type='get' id='%s-err-nobody' "
             "to='nobody@%s/nowhere'><query xmlns='http://jabber.org/protocol/disco#info'/></iq>",
             user, domain);
    send_xml(conn, xml);
    snprintf(xml, sizeof xml, "<iq xmlns='jabber:client' type='get' id='%s-err-ns' to='%s'>"
             "<query xmlns='urn:example:unsupported'/></iq>", user, domain);
    send_xml(conn, xml);
    snprintf(xml, sizeof xml, "<iq xmlns='jabber:client' type='get' id='%s-ping' to='%s'>"
             "<ping xmlns='urn:xmpp:ping'/></iq>", user, domain);
    send_xml(conn, xml);
    pending = 5;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s JID PASSWORD HOST PORT PEER READY_FILE\n", argv[0]);
        return 2;
    }
    static char local[256], dom[256];
    const char *jid = argv[1];
    const char *at = strchr(jid, '@');
    const char *slash = strchr(jid, '/');
    if (!at || !slash) return 2;
    snprintf(local, sizeof local, "%.*s", (int)(at - jid), jid);
    snprintf(dom, sizeof dom, "%.*s", (int)(slash - at - 1), at + 1);
    user = local; domain = dom;
    peer = argv[5];
    ready_file = argv[6];

    xmpp_initialize();
    xmpp_log_t *log = xmpp_get_default_logger(XMPP_LEVEL_DEBUG);
    xmpp_ctx_t *ctx = xmpp_ctx_new(NULL, log);
    xmpp_conn_t *conn = xmpp_conn_new(ctx);
    xmpp_conn_set_flags(conn, XMPP_CONN_FLAG_DISABLE_TLS);
    xmpp_conn_set_jid(conn, jid);
    xmpp_conn_set_pass(conn, argv[2]);
    if (xmpp_connect_client(conn, argv[3], (unsigned short)atoi(argv[4]),
                            conn_handler, ctx) != XMPP_EOK) {
        fprintf(stderr, "driver: connect failed\n");
        return 1;
    }
    xmpp_run(ctx);
    xmpp_conn_release(conn);
    xmpp_ctx_free(ctx);
    xmpp_shutdown();
    if (!finished) {
        fprintf(stderr, "driver: the session did not complete\n");
        return 1;
    }
    return 0;
}
