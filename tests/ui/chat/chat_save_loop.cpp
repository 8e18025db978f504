// Test helper for test_chat_crash: saves three growing chats through ChatStore (the app's own
// save path) as fast as it can, forever, until it is killed. Each save of chat k at round n
// holds n messages whose texts say which round and message they are, so a reader can tell a
// whole file from a torn one.
#include "core/chat/chat_store.h"

#include <QCoreApplication>
#include <QDateTime>

#include <cstdio>

using namespace folio::ui;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: chat_save_loop DIR\n");
        return 2;
    }
    ChatStore store(QString::fromLocal8Bit(argv[1]));
    const QString filler(2000, QLatin1Char('x')); // ~0.3 MB per file after 150 messages
    for (int round = 1;; ++round) {
        const int n = 1 + round % 150;
        ChatSession chat;
        chat.id = QStringLiteral("chat%1").arg(round % 3);
        chat.title = QStringLiteral("round %1").arg(round);
        chat.created = chat.updated = QDateTime::currentDateTimeUtc();
        for (int i = 0; i < n; ++i) {
            ChatMessage m;
            m.role = i % 2 == 0 ? ChatMessage::Role::User : ChatMessage::Role::Assistant;
            m.text = QStringLiteral("round %1 message %2 of %3 ").arg(round).arg(i).arg(n) + filler;
            m.time = chat.created;
            chat.messages.append(m);
        }
        const QString error = store.save(chat);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "save failed: %s\n", qPrintable(error));
            return 1;
        }
        std::printf("%d\n", round);
        std::fflush(stdout);
    }
}
