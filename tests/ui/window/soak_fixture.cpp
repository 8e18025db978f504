// test_soak's helpers (scratch files, the heap and RSS, the demo model's path) and the checks
// of SoakFixture: the window at rest, the exports, memory samples and the chat files.
#include "soak_fixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPdfWriter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include "agent/json_value.h"
#include "chat/chat_pane.h"
#include "core/chat/chat_json.h"
#include "core/chat/chat_store.h"
#include "devices/devices_pane.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "settings/app_settings.h"
#include "support/server_process.h"
#include "support/test_support.h"

#include <cstdio>
#include <functional>
#include <map>
#include <random>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FOLIO_SOAK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FOLIO_SOAK_ASAN 1
#endif
#ifdef FOLIO_SOAK_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

namespace folio::ui::soak {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

qint64 envSeconds(const char* name, qint64 fallback) {
    bool ok = false;
    const qint64 v = qEnvironmentVariable(name).toLongLong(&ok);
    return ok && v > 0 ? v : fallback;
}

// Live heap bytes: ASan's allocator in the asan build, glibc's arenas otherwise.
qint64 heapBytes() {
#ifdef FOLIO_SOAK_ASAN
    return qint64(__sanitizer_get_current_allocated_bytes());
#else
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd);
#endif
}

// A "Vm…:" line of /proc/self/status in bytes.
qint64 procStatusBytes(const char* key) {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(qstrlen(key)).trimmed().split(' ').first().toLongLong() * 1024;
    return 0;
}

QString mib(qint64 bytes) {
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

void writePdf(const QString& path, const QString& title, int pages) {
    QPdfWriter writer(path);
    writer.setTitle(title);
    QPainter p(&writer);
    for (int i = 1; i <= pages; ++i) {
        if (i > 1)
            writer.newPage();
        p.setFont(QFont(QStringLiteral("Sans"), 12));
        for (int line = 0; line < 6; ++line)
            p.drawText(QRect(200, 200 + line * 300, 9000, 280),
                       QStringLiteral("%1, page %2, line %3: sales grew %4 percent.")
                           .arg(title)
                           .arg(i)
                           .arg(line + 1)
                           .arg((i * 11 + line * 5) % 30));
    }
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A chat as JSON without its "updated" time (compared between the window and its file).
QJsonObject comparable(QJsonObject json) {
    json.remove(QStringLiteral("updated"));
    return json;
}

bool worthAFile(const ChatSession& c) {
    return !c.messages.isEmpty() || !c.documents.isEmpty() || !c.dataSources.isEmpty();
}

// The failure an answer ended with: the answer's interruption, else the last notice (digits
// masked, so the same failure counts once).
QString SoakFixture::lastProblem() const {
    const auto& messages = w_->chatPane()->messages();
    QString text;
    for (auto it = messages.crbegin(); it != messages.crend() && text.isEmpty(); ++it) {
        if (it->role == ChatMessage::Role::Assistant && !it->interrupted.isEmpty())
            text = it->interrupted;
        else if (it->role == ChatMessage::Role::Notice)
            text = it->text;
    }
    text.replace(QRegularExpression(QStringLiteral("[0-9]+")), QStringLiteral("N"));
    return text.left(160);
}

// What the window is doing, for a failure message.
QString SoakFixture::stateLine() const {
    int exporting = 0;
    for (const auto& e : exports_)
        exporting += e.second.isFinished() ? 0 : 1;
    auto label = [this](const char* name) {
        auto* l = w_->findChild<QLabel*>(QLatin1String(name));
        return l ? l->text() : QString();
    };
    return QStringLiteral("generating %1, waiting %2 (chats at work: %9), busy %3 (documents "
                          "loading %4), model ready %5, exports running %6, status \"%7\" \"%8\"")
        .arg(w_->chatPane()->isGenerating())
        .arg(w_->chatPane()->isWaiting())
        .arg(w_->isBusy())
        .arg(w_->documentsPane()->pendingLoads())
        .arg(w_->modelReady())
        .arg(exporting)
        .arg(label("statusModel"), label("statusState"))
        .arg(w_->chatPane()->library()->busyChats().size());
}

// Stops what runs and waits until nothing does: no answer, no load, no export, no save.
bool SoakFixture::quiesce(int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (answering() && button("stopButton")->isEnabled())
            button("stopButton")->click();
        for (const QString& id : w_->chatPane()->library()->busyChats()) // in other chats
            Q_EMIT w_->chatPane()->stopRequested(id);
        bool exporting = false;
        for (const auto& e : exports_)
            exporting = exporting || !e.second.isFinished();
        if (!workingAnywhere() && !w_->isBusy() && !exporting) {
            w_->chatPane()->waitForSaves();
            QTest::qWait(300); // late queued signals of a stopped request
            if (!workingAnywhere() && !w_->isBusy())
                return true;
        }
        QTest::qWait(50);
    }
    qWarning("soak: not at rest after %d ms: %s", timeoutMs, qPrintable(stateLine()));
    qWarning("soak: the last actions:\n  %s", qPrintable(trail_.join(QStringLiteral("\n  "))));
    return false;
}

// Checks the finished exports (every one must have succeeded and written its file).
void SoakFixture::checkExports() {
    for (qsizetype i = 0; i < exports_.size();) {
        if (!exports_[i].second.isFinished()) {
            ++i;
            continue;
        }
        const QString path = exports_[i].first;
        const QString error = exports_[i].second.result();
        QVERIFY2(error.isEmpty(), qPrintable(path + QStringLiteral(": ") + error));
        QVERIFY2(QFileInfo(path).size() > 0, qPrintable(path));
        QFile::remove(path);
        ++exportsChecked_;
        exports_.removeAt(i);
    }
}

// A memory sample at rest, in the same state each time: the demo model just loaded by the
// engine (whose caches are bounded by their budgets and go with it), an empty chat shown (no
// documents open, no transcript), so what differs between two samples is what was kept.
SoakFixture::MemSample SoakFixture::memSample(const QString& when, double seconds) {
    w_->useBackend(BackendConfig{});
    w_->openModel(demoModel());
    for (int i = 0; i < 2400 && (w_->isBusy() || !w_->modelReady()); ++i)
        QTest::qWait(50);
    w_->chatPane()->newChat();
    for (int i = 0; i < 600 && !w_->documentsPane()->documents().isEmpty(); ++i)
        QTest::qWait(50);
    QTest::qWait(500); // deferred deletes, the worker's last statistics
    MemSample s{when, seconds, actions_, heapBytes(), procStatusBytes("VmRSS:")};
    qInfo("soak: memory %s after %.0f s, %d actions: heap %s, RSS %s", qPrintable(when), seconds,
          actions_, qPrintable(mib(s.heap)), qPrintable(mib(s.rss)));
    return s;
}

// Every chat file is valid (Qt's reader, the engine's strict reader, the chat loader) and
// whole (equal to the chat the window held); no temporary file is left behind.
void SoakFixture::checkChatFiles(const QHash<QString, QJsonObject>& held) {
    const QDir dir(ChatStore::defaultDir());
    const QStringList all = dir.entryList(QDir::Files | QDir::Hidden);
    QStringList files;
    for (const QString& name : all) {
        QVERIFY2(name.endsWith(QStringLiteral(".json")), qPrintable(name + " left behind"));
        files << name;
    }
    for (const QString& name : files) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QJsonParseError qtError;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &qtError);
        QVERIFY2(qtError.error == QJsonParseError::NoError && doc.isObject(),
                 qPrintable(name + QStringLiteral(": ") + qtError.errorString()));
        const auto strict = folio::agent::parse_json(std::string_view(bytes.data(), bytes.size()));
        if (!strict.has_value())
            QFAIL(qPrintable(name + QStringLiteral(": ") +
                             QString::fromStdString(strict.error().message)));
        QCOMPARE(strict->kind, folio::agent::JsonValue::Kind::Object);
        const folio::agent::JsonValue* format = strict->find("format");
        QVERIFY(format && format->string == "folio-chat");
        const folio::agent::JsonValue* messages = strict->find("messages");
        QVERIFY(messages && messages->kind == folio::agent::JsonValue::Kind::Array);
        QCOMPARE(qsizetype(messages->array.size()),
                 doc.object().value(QStringLiteral("messages")).toArray().size());
        ChatSession chat;
        QString error;
        QVERIFY2(chatFromJson(doc.object(), chat, &error), qPrintable(name + ": " + error));
        QCOMPARE(chat.id + QStringLiteral(".json"), name);
        QVERIFY2(held.contains(chat.id), qPrintable(name + " is a chat the window deleted"));
        QVERIFY2(held.value(chat.id) == comparable(doc.object()),
                 qPrintable(name + " differs from the chat the window held"));
    }
    for (auto it = held.cbegin(); it != held.cend(); ++it)
        QVERIFY2(files.contains(it.key() + QStringLiteral(".json")),
                 qPrintable(it.key() + " has no file"));
    QStringList errors;
    const QList<ChatSession> loaded = ChatStore(dir.path()).loadAll(&errors);
    QCOMPARE(errors, QStringList());
    QCOMPARE(loaded.size(), files.size());
    qInfo("soak: %d chat files, all valid and whole", int(files.size()));
}

} // namespace folio::ui::soak
