// A QXmpp client (Debian's libqxmpp-dev, the library Kaidan is built on) that
// plays the sender of the scripted session without a person: QXmppClient logs
// in (SASL, bind; on its own it gets the roster and sends its presence), sends
// the iqs of driver/scenario.py, each stress body as a chat message to the
// echoer (waiting for the echo of each), `bye`, an unavailable presence, and
// ends the stream.
//
// Its log is QXmppLogger's with QXmppLogger::FileLogging, every message type:
// src/base/QXmppLogger.cpp, `formatted()`, writes each line as
// `QDateTime::currentDateTime().toString() + " " + typeName(type) + " " + text`
// (`Sat Nov 28 04:05:12 2026 SENT <iq …>`), and src/base/QXmppStream.cpp logs
// the data of each `sendData()` (SENT) and the buffer of bytes received once it
// parses (RECEIVED: one read or more, several stanzas at a time).
//
// The iqs and bodies come from scenario.py (the recording script passes them
// as a file of `iq XML` and `chat SUFFIX BODY` lines, newlines and tabs written
// as \n and \t, so this program has no copy of them).
//
//   qxmpp_client JID PASSWORD PORT PEER SCRIPT LOGFILE
#include <QCoreApplication>
#include <QDomElement>
#include <QFile>
#include <QTimer>
#include <QTextStream>

#include <QXmppClient.h>
#include <QXmppConfiguration.h>
#include <QXmppLogger.h>
#include <QXmppMessage.h>
#include <QXmppOutgoingClient.h>

#include <cstdio>

struct Step { bool chat; QString id; QString payload; };

static QString unescape(const QString &text)
{
    QString out;
    for (int i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            QChar c = text[++i];
            out += c == 'n' ? QChar('\n') : c == 't' ? QChar('\t') : c;
        } else {
            out += text[i];
        }
    }
    return out;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 7) {
        fprintf(stderr, "usage: qxmpp_client JID PASSWORD PORT PEER SCRIPT LOGFILE\n");
        return 2;
    }
    const QString jid = argv[1], password = argv[2], peer = argv[4];
    const QString user = jid.section('@', 0, 0);

    QList<Step> steps;
    QFile script(argv[5]);
    if (!script.open(QIODevice::ReadOnly)) return 2;
    for (const QString &line : QString::fromUtf8(script.readAll()).split('\n', Qt::SkipEmptyParts)) {
        if (line.startsWith("iq ")) steps.append({false, QString(), line.mid(3)});
        else if (line.startsWith("chat ")) {
            const QString rest = line.mid(5);
            steps.append({true, user + "-" + rest.section(' ', 0, 0), unescape(rest.section(' ', 1))});
        }
    }

    QXmppLogger logger;
    logger.setLoggingType(QXmppLogger::FileLogging);
    logger.setLogFilePath(argv[6]);
    logger.setMessageTypes(QXmppLogger::AnyMessage);

    QXmppClient client;
    client.setLogger(&logger);
    QXmppConfiguration config;
    config.setJid(jid);
    config.setPassword(password);
    config.setResource("qxmpp");
    config.setHost("127.0.0.1");
    config.setPort(QString(argv[3]).toInt());
    config.setStreamSecurityMode(QXmppConfiguration::TLSDisabled);
    config.setIgnoreSslErrors(true);

    int next = 0;
    int status = 1;
    QString waitingFor;            // the id of the iq answer or the echo awaited
    auto stream = [&client]() { return client.findChild<QXmppOutgoingClient *>(); };

    std::function<void()> step = [&]() {
        if (next == steps.size()) {
            QXmppMessage bye(QString(), peer, "bye");
            bye.setType(QXmppMessage::Chat);
            bye.setId(user + "-bye");
            client.sendPacket(bye);
            // The end: an unavailable presence, and once the server has
            // answered it, the end of the stream. (QXmppClient::disconnectFromServer
            // closes the socket at once, before the server's answer to its own
            // unavailable presence: that answer was on the wire and not in the log.)
            waitingFor = "presence-unavailable";
            QTimer::singleShot(1000, &client, [&]() {
                stream()->sendData("<presence type='unavailable'/>");
            });
            return;
        }
        const Step &s = steps[next++];
        if (s.chat) {
            QXmppMessage message(QString(), peer, s.payload);
            message.setType(QXmppMessage::Chat);
            message.setId(s.id);
            waitingFor = "echo-" + s.id;
            client.sendPacket(message);
        } else {
            const int at = s.payload.indexOf(" id='") + 5;
            waitingFor = s.payload.mid(at, s.payload.indexOf('\'', at) - at);
            stream()->sendData(s.payload.toUtf8());
        }
    };

    QObject::connect(&client, &QXmppClient::connected, step);
    QObject::connect(&client, &QXmppClient::messageReceived, [&](const QXmppMessage &message) {
        if (message.id() == waitingFor) step();
    });
    // (QXmppClient::iqReceived leaves out the answers to iqs it did not send
    // itself: the stream's elements are looked at instead.)
    QObject::connect(stream(), &QXmppOutgoingClient::elementReceived, [&](const QDomElement &element, bool &) {
        if (element.tagName() == "iq" && element.attribute("id") == waitingFor)
            QTimer::singleShot(0, &client, step);
        if (element.tagName() == "presence" && element.attribute("type") == "unavailable"
            && waitingFor == "presence-unavailable") {
            status = 0;
            QTimer::singleShot(0, &client, [&]() { stream()->disconnectFromHost(); });
        }
    });
    QObject::connect(&client, &QXmppClient::disconnected, &app, &QCoreApplication::quit);
    QTimer::singleShot(90000, &app, &QCoreApplication::quit);

    client.connectToServer(config);
    app.exec();
    return status;
}
