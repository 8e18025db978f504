// Chats survive a kill -9 at any moment: a helper process saves growing chats through ChatStore
// in a loop and is killed at random instants, 40 times; after every kill each chat file reads
// back whole (every message of the round its title names), nothing is reported unreadable, and
// no temporary file is left in the folder.
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include "core/chat/chat_store.h"
#include "support/test_support.h"

#include <random>

using namespace folio::ui;

class TestChatCrash : public QObject {
    Q_OBJECT
private slots:
    void chatsSurviveKillNineWhileSaving() {
        const QString dir = folio::test::scratchDir(QStringLiteral("chat-crash"));
        const QString program = folio::test::builtProgram(QStringLiteral("tests/chat_save_loop"));
        QVERIFY2(QFileInfo::exists(program), qPrintable(program));
        std::mt19937 rng(5);
        int savesSeen = 0, tempFilesSeen = 0;
        for (int run = 0; run < 40; ++run) {
            QProcess p;
            p.start(program, {dir});
            QVERIFY(p.waitForStarted(10000));
            // Wait until each of the three chats has been saved once (a loaded machine may
            // report the first save alone), then a random moment more.
            QByteArray saves;
            while (saves.count('\n') < 3) {
                QVERIFY(p.waitForReadyRead(20000));
                saves += p.readAllStandardOutput();
            }
            QTest::qWait(static_cast<int>(rng() % 40));
            p.kill(); // SIGKILL
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
            saves += p.readAllStandardOutput();
            const QStringList lines = QString::fromLatin1(saves).split('\n', Qt::SkipEmptyParts);
            savesSeen += static_cast<int>(lines.size());

            QStringList errors;
            const QList<ChatSession> chats = ChatStore(dir).loadAll(&errors);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
            QCOMPARE(chats.size(), qsizetype(3));
            for (const ChatSession& chat : chats) {
                const int round = chat.title.mid(6).toInt();
                const int n = 1 + round % 150;
                QCOMPARE(chat.messages.size(), qsizetype(n));
                for (int i = 0; i < n; ++i)
                    QVERIFY(chat.messages[i].text.startsWith(
                        QStringLiteral("round %1 message %2 of %3 ").arg(round).arg(i).arg(n)));
            }
            // Only the chats, and the temporary file of a save the kill cut short.
            const QStringList files = QDir(dir).entryList(QDir::Files | QDir::Hidden);
            const QRegularExpression chatFile(QStringLiteral("^chat[0-2]\\.json$"));
            const QRegularExpression tempFile(QStringLiteral("^chat[0-2]\\.json\\.\\w{6}$"));
            for (const QString& f : files) {
                QVERIFY2(chatFile.match(f).hasMatch() || tempFile.match(f).hasMatch(),
                         qPrintable(QStringLiteral("unexpected file: ") + f));
                tempFilesSeen += tempFile.match(f).hasMatch() ? 1 : 0;
            }
        }
        qInfo("40 kills, %d saves completed in all, %d leftover temporary files seen", savesSeen,
              tempFilesSeen);
        QVERIFY(savesSeen >= 40);
        // Leftovers of cut-short saves are removed by the next start once they are stale.
        QTest::qWait((ChatStore::kStaleTempSeconds + 1) * 1000);
        QStringList errors;
        QCOMPARE(ChatStore(dir).loadAll(&errors).size(), qsizetype(3));
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).size(), qsizetype(3));
    }
};

QTEST_GUILESS_MAIN(TestChatCrash)
#include "test_chat_crash.moc"
