// The soak test of issue #25: a monkey drives the real MainWindow (offscreen, the demo model,
// a `folio-cli serve` on the same model for the remote backend) with random actions for a
// bounded time — open and remove documents (generated PDFs, the sample report and chart, a
// corrupt, a truncated, an empty, a missing and a changing file), ask, stop, regenerate, edit
// and resend, new / switch / rename / delete chats, export to every format, chat and
// application settings through their dialogs, switch between the engine and the server — and
// then checks: no crash (and no ASan report, in the asan build), the heap after warm-up grew by
// less than a stated bound per action, every chat file parses (Qt's JSON reader, the engine's
// own strict reader and the app's chat loader) and is whole (it equals the chat the window
// held), a restarted window shows the same chats, and the window still answers.
//
// Environment: FOLIO_SOAK_SECONDS (default 20), FOLIO_SOAK_SEED (default: from the clock; the
// seed is printed). One seed gives the same sequence of attempted actions and parameters; what
// they meet (an answer still running, a document still loading) depends on timing.
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
#include "chat/chat_json.h"
#include "chat/chat_pane.h"
#include "chat/chat_store.h"
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

using namespace folio::ui;

namespace {

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

} // namespace

class TestSoak : public QObject {
    Q_OBJECT

    struct Count {
        int tried = 0;
        int done = 0;
    };
    struct MemSample {
        QString when;
        double seconds = 0;
        int actions = 0;
        qint64 heap = 0;
        qint64 rss = 0;
    };

    std::mt19937_64 rng_;
    MainWindow* w_ = nullptr;
    folio::test::ServerProcess server_;
    QString dir_;       // scratch: documents and exports
    QString deadModel_; // a truncated GGUF
    QStringList pool_;  // documents the monkey opens
    QString changing_;  // a PDF rewritten, removed and restored during the run
    int changingState_ = 0;
    std::map<QString, Count> counts_;
    std::map<QString, int> stopReasons_;
    std::map<QString, int> dialogs_;
    std::map<QString, int> errors_; // what the chat said when an answer failed
    QList<QPair<QString, QFuture<QString>>> exports_;
    int exportsChecked_ = 0;
    int exportCounter_ = 0;
    int actions_ = 0;
    QStringList trail_;                           // the last actions, for a failure message
    std::function<void(QDialog*)> dialogHandler_; // for the dialog the current action opens
    QTimer* dialogWatch_ = nullptr;

    quint64 draw() { return rng_(); }

    QPushButton* button(const char* name) const {
        return w_->findChild<QPushButton*>(QLatin1String(name));
    }

    // Answers whatever modal dialog is open: the one the current action expects through its
    // handler, any other (a message box, an input or file dialog) by closing it.
    void answerDialogs() {
        QWidget* modal = QApplication::activeModalWidget();
        auto* dialog = qobject_cast<QDialog*>(modal);
        if (!dialog || dialog->property("soakSeen").toBool())
            return;
        dialog->setProperty("soakSeen", true);
        if (dialogHandler_) {
            const auto handler = std::exchange(dialogHandler_, {});
            handler(dialog);
            return;
        }
        ++dialogs_[QString::fromLatin1(dialog->metaObject()->className()) + QStringLiteral(" ") +
                   dialog->windowTitle()];
        if (auto* box = qobject_cast<QMessageBox*>(dialog)) {
            qInfo("soak: answered a message box: %s", qPrintable(box->text()));
            QTimer::singleShot(0, box, [box] { box->done(QMessageBox::Ok); });
        } else {
            QTimer::singleShot(0, dialog, [dialog] { dialog->reject(); });
        }
    }

    // The failure an answer ended with: the answer's interruption, else the last notice (digits
    // masked, so the same failure counts once).
    QString lastProblem() const {
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
    QString stateLine() const {
        int exporting = 0;
        for (const auto& e : exports_)
            exporting += e.second.isFinished() ? 0 : 1;
        auto label = [this](const char* name) {
            auto* l = w_->findChild<QLabel*>(QLatin1String(name));
            return l ? l->text() : QString();
        };
        return QStringLiteral("generating %1, waiting %2, busy %3 (documents loading %4), model "
                              "ready %5, exports running %6, status \"%7\" \"%8\"")
            .arg(w_->chatPane()->isGenerating())
            .arg(w_->chatPane()->isWaiting())
            .arg(w_->isBusy())
            .arg(w_->documentsPane()->pendingLoads())
            .arg(w_->modelReady())
            .arg(exporting)
            .arg(label("statusModel"), label("statusState"));
    }

    bool answering() const { return w_->chatPane()->isGenerating() || w_->chatPane()->isWaiting(); }

    // Stops what runs and waits until nothing does: no answer, no load, no export, no save.
    bool quiesce(int timeoutMs) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (answering() && button("stopButton")->isEnabled())
                button("stopButton")->click();
            bool exporting = false;
            for (const auto& e : exports_)
                exporting = exporting || !e.second.isFinished();
            if (!answering() && !w_->isBusy() && !exporting) {
                w_->chatPane()->waitForSaves();
                QTest::qWait(300); // late queued signals of a stopped request
                if (!answering() && !w_->isBusy())
                    return true;
            }
            QTest::qWait(50);
        }
        qWarning("soak: not at rest after %d ms: %s", timeoutMs, qPrintable(stateLine()));
        qWarning("soak: the last actions:\n  %s", qPrintable(trail_.join(QStringLiteral("\n  "))));
        return false;
    }

    // Checks the finished exports (every one must have succeeded and written its file).
    void checkExports() {
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
    MemSample memSample(const QString& when, double seconds) {
        w_->useBackend(BackendConfig{});
        w_->openModel(demoModel());
        for (int i = 0; i < 2400 && (w_->isBusy() || !w_->modelReady()); ++i)
            QTest::qWait(50);
        w_->chatPane()->newChat();
        for (int i = 0; i < 600 && !w_->documentsPane()->documents().isEmpty(); ++i)
            QTest::qWait(50);
        QTest::qWait(500); // deferred deletes, the worker's last statistics
        MemSample s{when, seconds, actions_, heapBytes(), procStatusBytes("VmRSS:")};
        qInfo("soak: memory %s after %.0f s, %d actions: heap %s, RSS %s", qPrintable(when),
              seconds, actions_, qPrintable(mib(s.heap)), qPrintable(mib(s.rss)));
        return s;
    }

    // ---- the actions; each returns whether it did something (else it did not apply) ----

    bool ask(quint64 r) {
        ChatPane* pane = w_->chatPane();
        if (answering())
            return false;
        if (pane->messages().size() >= 40)
            pane->newChat(); // keeps the chats' size bounded over a long run
        static const QStringList questions = {
            QStringLiteral("What was revenue in 2025?"),
            QStringLiteral("Summarize page 3 in one sentence."),
            QStringLiteral("Compare the appendix with the report [p. 2]."),
            QStringLiteral("收入是多少？ Ответь кратко. 🙂"),
            QStringLiteral("| a | b |\n|---|---|\n| 1 | 2 |\nWhat is in the table?"),
            QStringLiteral("   "),
            QStringLiteral("Explain every figure in detail. ").repeated(120),
            QStringLiteral("Which pages mention sales?"),
        };
        const QString q = questions[int(r % questions.size())];
        if ((r >> 8) % 2 == 0) {
            w_->ask(q);
        } else {
            auto* input = w_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
            input->setPlainText(q);
            if ((r >> 9) % 2 == 0)
                button("sendButton")->click();
            else
                QTest::keyClick(input, Qt::Key_Return, Qt::ControlModifier);
        }
        return answering();
    }

    bool stop(quint64 r) {
        if (!answering())
            return false;
        if (r % 3 == 0) {
            auto* input = w_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
            input->setFocus();
            QTest::keyClick(input, Qt::Key_Escape);
        } else {
            button("stopButton")->click();
        }
        return true;
    }

    bool regenerate(quint64) {
        if (answering() || !w_->modelReady())
            return false;
        bool hasUser = false;
        for (const ChatMessage& m : w_->chatPane()->messages())
            hasUser = hasUser || m.role == ChatMessage::Role::User;
        if (!hasUser)
            return false;
        w_->chatPane()->regenerate();
        return true;
    }

    bool edit(quint64 r) {
        ChatPane* pane = w_->chatPane();
        if (answering())
            return false;
        QList<int> users;
        for (int i = 0; i < pane->messages().size(); ++i)
            if (pane->messages()[i].role == ChatMessage::Role::User)
                users << i;
        if (users.isEmpty())
            return false;
        pane->editAndResend(users[int(r % users.size())]);
        auto* input = w_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        if ((r >> 8) % 4 != 0) { // else left in the box, as a user who changes their mind
            input->setPlainText(input->toPlainText() + QStringLiteral(" (edited)"));
            button("sendButton")->click();
        }
        return true;
    }

    bool openDocument(quint64 r) {
        if (w_->documentsPane()->documents().size() >= 5)
            return removeDocument(r);
        w_->openDocuments({pool_[int(r % pool_.size())]});
        return true;
    }

    bool removeDocument(quint64 r) {
        const int n = int(w_->documentsPane()->documents().size());
        if (n == 0)
            return false;
        const auto chips = w_->findChildren<QToolButton*>(QStringLiteral("attachmentChipRemove"));
        if ((r >> 8) % 2 == 0 && !chips.isEmpty()) {
            chips[int(r % chips.size())]->click();
        } else {
            w_->documentsPane()->removeDocument(int(r % n));
        }
        return true;
    }

    bool editDocuments(quint64 r) {
        DocumentsPane* docs = w_->documentsPane();
        const int n = int(docs->documents().size());
        if (n == 0)
            return false;
        const int row = int(r % n);
        switch ((r >> 8) % 4) {
        case 0:
            docs->moveDocument(row, (r >> 12) % 2 ? 1 : -1);
            break;
        case 1:
            docs->setPinnedPages(row, QStringLiteral("1"));
            break;
        case 2:
            docs->setPinnedPages(row, QString());
            break;
        default:
            docs->showPage(row, int((r >> 12) % 9) + 1); // as a citation does
            break;
        }
        return true;
    }

    // The changing PDF: rewritten (another fingerprint), removed, written again; chats that
    // hold it get a problem line, and "Locate…" (by path: no file dialog) finds it again.
    bool changeFile(quint64 r) {
        switch (changingState_++ % 3) {
        case 0:
            QFile::remove(changing_);
            writePdf(changing_, QStringLiteral("Changing"), 2 + int(r % 3));
            break;
        case 1:
            QFile::remove(changing_);
            break;
        default:
            writePdf(changing_, QStringLiteral("Changing"), 2);
            break;
        }
        return true;
    }

    bool locate(quint64 r) {
        DocumentsPane* docs = w_->documentsPane();
        for (int i = 0; i < docs->documents().size(); ++i) {
            const int row = int((r + quint64(i)) % quint64(docs->documents().size()));
            if (docs->problem(row) != DocumentsPane::Problem::None) {
                const QString path = docs->documents().at(row).path;
                docs->locateDocument(row, QFileInfo::exists(path) ? path : pool_.first());
                return true;
            }
        }
        return false;
    }

    bool newChat(quint64 r) {
        ChatPane* pane = w_->chatPane();
        if (answering())
            return false;
        if (pane->chats().size() >= 8)
            return deleteChat(r);
        if (r % 2 == 0)
            button("newChatButton")->click();
        else
            pane->newChat();
        if ((r >> 8) % 5 != 0) { // short answers, mostly
            GenerationSettings s = pane->currentChat().settings;
            s.maxTokens = 4 + int((r >> 12) % 60);
            pane->setChatSettings(pane->currentChat().systemPrompt, s);
        }
        return true;
    }

    bool switchChat(quint64 r) {
        ChatPane* pane = w_->chatPane();
        const int n = int(pane->chats().size());
        if (n < 2 || answering())
            return false;
        const int to = int(r % n);
        auto* list = w_->findChild<QListWidget*>(QStringLiteral("chatList"));
        if ((r >> 8) % 2 == 0 && list->isEnabled())
            list->setCurrentRow(to);
        else
            pane->selectChat(to);
        return true;
    }

    bool deleteChat(quint64 r) {
        ChatPane* pane = w_->chatPane();
        if (answering())
            return false;
        // The oldest of a long list, else any.
        const int n = int(pane->chats().size());
        pane->deleteChat(n >= 8 ? n - 1 : int(r % n));
        return true;
    }

    bool renameChat(quint64 r) {
        ChatPane* pane = w_->chatPane();
        pane->renameChat(int(r % pane->chats().size()),
                         QStringLiteral("Soak chat %1 — «ü»").arg(r % 1000));
        return true;
    }

    bool exportChat(quint64 r) {
        static const char* const suffixes[] = {"md", "html", "pdf", "json"};
        const QString path = dir_ + QStringLiteral("/export-%1.%2")
                                        .arg(++exportCounter_)
                                        .arg(QLatin1String(suffixes[r % 4]));
        exports_.append({path, w_->exportTo(path)});
        return true;
    }

    bool chatSettings(quint64 r) {
        ChatPane* pane = w_->chatPane();
        GenerationSettings s = pane->currentChat().settings;
        s.temperature = double(r % 15) / 10.0;
        s.topK = int((r >> 4) % 60);
        s.maxTokens = 4 + int((r >> 10) % 60);
        s.seed = (r >> 16) % 100;
        s.promptLookup = (r >> 24) % 2 == 0;
        static const QStringList prompts = {
            QStringLiteral("You are a careful analyst. Cite pages."),
            QStringLiteral("Answer in one short sentence."),
            QString(),
        };
        const QString prompt = prompts[int((r >> 28) % prompts.size())];
        if ((r >> 32) % 2 == 0) {
            pane->setChatSettings(prompt, s);
            return true;
        }
        // Through the chat's settings dialog, accepted or cancelled.
        const bool accept = (r >> 33) % 4 != 0;
        dialogHandler_ = [=](QDialog* d) {
            if (auto* text = d->findChild<QPlainTextEdit*>(QStringLiteral("systemPromptEdit")))
                text->setPlainText(prompt);
            if (auto* max = d->findChild<QSpinBox*>(QStringLiteral("maxTokensBox")))
                max->setValue(s.maxTokens);
            QTimer::singleShot(int((r >> 40) % 200), d, [d, accept] {
                if (accept)
                    d->accept();
                else
                    d->reject();
            });
        };
        button("chatSettingsButton")->click(); // modal: returns once the handler closed it
        dialogHandler_ = {};
        return true;
    }

    // Settings → the backend and the engine's options, through the dialog; OK reloads the model
    // or connects to the server.
    bool appSettings(quint64 r) {
        const int choice = int(r % 8); // 0-4 the engine, 5-6 the server, 7 a server that is not
        const int backend = choice < 5 ? 0 : choice < 7 ? 3 : 4;
        const int threads = 1 + int((r >> 4) % 2);
        static const int contexts[] = {0, 1024, 2048, 4096};
        const int context = contexts[(r >> 6) % 4];
        const bool deadModel = (r >> 9) % 12 == 0;
        const bool speculation = (r >> 13) % 2 == 0;
        const int kv = int((r >> 14) % 8);
        const bool listModels = (r >> 18) % 3 == 0;
        const bool accept = (r >> 20) % 6 != 0;
        const int delay = int((r >> 24) % 300);
        const QString url = backend == 3 ? QString::fromStdString(server_.url())
                                         : QStringLiteral("http://127.0.0.1:9");
        const QString model = deadModel ? deadModel_ : demoModel();
        dialogHandler_ = [=](QDialog* d) {
            auto* combo = d->findChild<QComboBox*>(QStringLiteral("backendCombo"));
            combo->setCurrentIndex(backend >= 3 ? 1 : 0);
            d->findChild<QLineEdit*>(QStringLiteral("remoteUrlEdit"))->setText(url);
            d->findChild<QComboBox*>(QStringLiteral("remoteModelCombo"))
                ->setCurrentText(backend == 3 && threads == 2 ? QStringLiteral("demo") : QString());
            d->findChild<QComboBox*>(QStringLiteral("modelPathCombo"))->setCurrentText(model);
            d->findChild<QSpinBox*>(QStringLiteral("threadsBox"))->setValue(threads);
            d->findChild<QSpinBox*>(QStringLiteral("contextBox"))->setValue(context);
            d->findChild<QCheckBox*>(QStringLiteral("speculationCheck"))->setChecked(speculation);
            auto* kvCombo = d->findChild<QComboBox*>(QStringLiteral("kvTypeCombo"));
            kvCombo->setCurrentIndex(kv % kvCombo->count());
            if (listModels && backend >= 3)
                d->findChild<QPushButton*>(QStringLiteral("listModelsButton"))->click();
            QTimer::singleShot(delay, d, [d, accept] {
                if (accept)
                    d->accept();
                else
                    d->reject();
            });
        };
        w_->showSettings();
        dialogHandler_ = {};
        return true;
    }

    // Straight to the server or back to the engine (as at start with saved settings).
    bool switchBackend(quint64 r) {
        if (r % 2 == 0) {
            BackendConfig c;
            c.kind = BackendConfig::Kind::Remote;
            c.url = QString::fromStdString(server_.url());
            w_->useBackend(c);
        } else {
            BackendConfig c;
            w_->useBackend(c);
            w_->openModel(demoModel());
        }
        return true;
    }

    // Waits for the answer or loads in flight to end (up to 20 s), as a user reading.
    bool waitForIdle(quint64) {
        QElapsedTimer t;
        t.start();
        while ((answering() || w_->isBusy()) && t.elapsed() < 20000)
            QTest::qWait(50);
        return true;
    }

private Q_SLOTS:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("soak-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_soak"));
        QVERIFY2(QFile::exists(demoModel()), "no demo model (built with the tests)");
        QVERIFY2(QFile::exists(sample(QStringLiteral("sample-report.pdf"))), "no sample report");
        QVERIFY2(QFile::exists(folio::test::builtProgram(QStringLiteral("app/folio-cli"))),
                 "no folio-cli (built with the tests)");

        dir_ = folio::test::scratchDir(QStringLiteral("soak"));
        writePdf(dir_ + QStringLiteral("/one-page.pdf"), QStringLiteral("One Page Memo"), 1);
        writePdf(dir_ + QStringLiteral("/appendix.pdf"), QStringLiteral("Appendix"), 3);
        changing_ = dir_ + QStringLiteral("/changing.pdf");
        writePdf(changing_, QStringLiteral("Changing"), 2);
        QFile report(sample(QStringLiteral("sample-report.pdf")));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QByteArray pdf = report.readAll();
        QVERIFY(writeBytes(dir_ + QStringLiteral("/truncated.pdf"), pdf.left(pdf.size() / 2)));
        QVERIFY(writeBytes(dir_ + QStringLiteral("/corrupt.pdf"),
                           "%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage garbage\n%%EOF\n"));
        QVERIFY(writeBytes(dir_ + QStringLiteral("/empty.png"), QByteArray()));
        QVERIFY(writeBytes(dir_ + QStringLiteral("/text.png"), "not an image\n"));
        QFile model(demoModel());
        QVERIFY(model.open(QIODevice::ReadOnly));
        deadModel_ = dir_ + QStringLiteral("/truncated.gguf");
        QVERIFY(writeBytes(deadModel_, model.read(256 * 1024)));
        pool_ = {sample(QStringLiteral("sample-report.pdf")),
                 dir_ + QStringLiteral("/one-page.pdf"),
                 dir_ + QStringLiteral("/appendix.pdf"),
                 sample(QStringLiteral("revenue-chart.png")),
                 changing_,
                 dir_ + QStringLiteral("/one-page.pdf"),
                 dir_ + QStringLiteral("/corrupt.pdf"),
                 dir_ + QStringLiteral("/truncated.pdf"),
                 dir_ + QStringLiteral("/empty.png"),
                 dir_ + QStringLiteral("/text.png"),
                 dir_ + QStringLiteral("/missing.pdf")};

        QString error;
        QVERIFY2(
            server_.start(demoModel(), {QStringLiteral("--alias"), QStringLiteral("demo")}, &error),
            qPrintable(error));
        // One engine thread: the soak shares the machine with the other suites.
        AppSettings settings = AppSettings::load();
        settings.threads = 1;
        settings.save();
    }

    // Found by the soak (seed 4): a server check superseded by the engine or by another check
    // never reports, and the window stayed "busy" for good.
    void supersededServerCheckEndsTheLoad() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        BackendConfig server;
        server.kind = BackendConfig::Kind::Remote;
        server.url = QString::fromStdString(server_.url());
        w.useBackend(server);
        w.useBackend(BackendConfig{}); // back to the engine before the server answered
        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady() && !w.isBusy(), 60000);
        w.useBackend(server);
        w.useBackend(server); // twice: only the second check reports
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady() && !w.isBusy(), 60000);
        QVERIFY(w.devicesPane()->isRemoteMode());
        w.useBackend(server);
        w.openModel(demoModel()); // a model file supersedes the check as well
        // (A check that ended just before the load reached the worker still reports on its
        // way: the engine's report follows it.)
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady() && !w.isBusy() && !w.devicesPane()->isRemoteMode(),
                                 60000);
    }

    void monkey() {
        const qint64 seconds = envSeconds("FOLIO_SOAK_SECONDS", 20);
        quint64 seed = quint64(QDateTime::currentMSecsSinceEpoch());
        bool seeded = false;
        const quint64 given = qEnvironmentVariable("FOLIO_SOAK_SEED").toULongLong(&seeded);
        if (seeded)
            seed = given;
        rng_.seed(seed);
        qInfo("soak: seed %llu (FOLIO_SOAK_SEED=%llu repeats the actions), %lld s", seed, seed,
              seconds);
        // Warm-up: the caches, the font and glyph caches and the pools reach their size.
        const qint64 warmupMs = qBound(qint64(8000), seconds * 200, qint64(300000));

        MainWindow w;
        w_ = &w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.activateWindow();
        QSignalSpy finished(&w, &MainWindow::answerFinished);
        connect(&w, &MainWindow::answerFinished, this, [this](const QString& reason) {
            ++stopReasons_[reason];
            if (reason == QLatin1String("error"))
                ++errors_[lastProblem()];
        });
        dialogWatch_ = new QTimer(this);
        connect(dialogWatch_, &QTimer::timeout, this, &TestSoak::answerDialogs);
        dialogWatch_->start(30);
        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 120000);

        struct Action {
            const char* name;
            int weight;
            bool (TestSoak::*run)(quint64);
        };
        const Action actions[] = {
            {"ask", 22, &TestSoak::ask},
            {"stop", 8, &TestSoak::stop},
            {"regenerate", 6, &TestSoak::regenerate},
            {"edit", 5, &TestSoak::edit},
            {"open document", 9, &TestSoak::openDocument},
            {"remove document", 5, &TestSoak::removeDocument},
            {"move/pin/show", 3, &TestSoak::editDocuments},
            {"change file", 1, &TestSoak::changeFile},
            {"locate", 1, &TestSoak::locate},
            {"new chat", 6, &TestSoak::newChat},
            {"switch chat", 7, &TestSoak::switchChat},
            {"delete chat", 3, &TestSoak::deleteChat},
            {"rename chat", 2, &TestSoak::renameChat},
            {"export", 4, &TestSoak::exportChat},
            {"chat settings", 4, &TestSoak::chatSettings},
            {"app settings", 2, &TestSoak::appSettings},
            {"switch backend", 2, &TestSoak::switchBackend},
            {"wait", 5, &TestSoak::waitForIdle},
        };
        int total = 0;
        for (const Action& a : actions)
            total += a.weight;

        QList<MemSample> samples;
        QElapsedTimer clock;
        clock.start();
        const qint64 endMs = seconds * 1000;
        bool warm = false;
        int warmActions = 0;
        int readySteps = 0;
        int nextReport = 1;
        while (clock.elapsed() < endMs) {
            if (!warm && clock.elapsed() >= warmupMs) {
                QVERIFY2(quiesce(180000), "the window did not come to rest after the warm-up");
                checkExports();
                samples << memSample(QStringLiteral("after warm-up"), clock.elapsed() / 1000.0);
                warm = true;
                warmActions = actions_;
            }
            if (clock.elapsed() >= nextReport * endMs / 10) {
                ++nextReport;
                qInfo("soak: %.0f s, %d actions, %d chats, %lld answers, heap %s, RSS %s",
                      clock.elapsed() / 1000.0, actions_, int(w.chatPane()->chats().size()),
                      qint64(finished.size()), qPrintable(mib(heapBytes())),
                      qPrintable(mib(procStatusBytes("VmRSS:"))));
            }
            // Every draw happens whatever the state, so a seed repeats the same attempts.
            const quint64 pick = draw() % quint64(total);
            const quint64 param = draw();
            const int pause = int(draw() % 400);
            quint64 acc = 0;
            for (const Action& a : actions) {
                acc += quint64(a.weight);
                if (pick < acc) {
                    Count& c = counts_[QLatin1String(a.name)];
                    ++c.tried;
                    const bool done = (this->*a.run)(param);
                    if (done)
                        ++c.done;
                    trail_.append(QStringLiteral("%1 s: %2%3")
                                      .arg(clock.elapsed() / 1000.0, 0, 'f', 1)
                                      .arg(QLatin1String(a.name))
                                      .arg(done ? QString() : QStringLiteral(" (did not apply)")));
                    if (trail_.size() > 40)
                        trail_.removeFirst();
                    break;
                }
            }
            ++actions_;
            if (w.modelReady())
                ++readySteps;
            QTest::qWait(pause);
            checkExports();
            if (QTest::currentTestFailed())
                return;
        }
        const double soakSeconds = clock.elapsed() / 1000.0;
        QVERIFY2(quiesce(180000), "the window did not come to rest at the end");
        checkExports();
        QVERIFY(exports_.isEmpty());
        samples << memSample(QStringLiteral("at the end"), clock.elapsed() / 1000.0);
        QVERIFY2(server_.process().state() == QProcess::Running, "the server died");

        // The figures.
        qInfo("soak: %d actions in %.0f s (%.2f/s), seed %llu; a model was ready after %d of them",
              actions_, soakSeconds, actions_ / soakSeconds, seed, readySteps);
        for (const auto& [name, c] : counts_)
            qInfo("soak:   %-16s tried %5d  done %5d", qPrintable(name), c.tried, c.done);
        for (const auto& [reason, n] : stopReasons_)
            qInfo("soak:   answers ended %-10s %5d", qPrintable(reason), n);
        for (const auto& [error, n] : errors_)
            qInfo("soak:   failed answer × %d: %s", n, qPrintable(error));
        for (const auto& [dialog, n] : dialogs_)
            qInfo("soak:   other dialogs answered: %s × %d", qPrintable(dialog), n);
        qInfo("soak:   exports checked %d, chats %d, documents in the current chat %d",
              exportsChecked_, int(w.chatPane()->chats().size()),
              int(w.documentsPane()->documents().size()));
        qInfo("soak:   peak RSS %s", qPrintable(mib(procStatusBytes("VmHWM:"))));
        QVERIFY2(finished.size() > 0, "no answer finished during the soak");

        // Memory: after the warm-up the heap stays flat; allowed is a fixed slack (the chats,
        // documents and transcript shown differ between the two moments) plus a little per
        // action. A leak of a few KiB per question or document fails a long run.
        if (warm) {
            constexpr qint64 kSlack = 16ll << 20;
            constexpr qint64 kPerAction = 4 << 10;
            const MemSample& a = samples.first();
            const MemSample& b = samples.last();
            const int measured = b.actions - warmActions;
            const qint64 growth = b.heap - a.heap;
            const qint64 bound = kSlack + kPerAction * measured;
            qInfo("soak: heap %s -> %s (%+lld bytes over %d actions: %+.0f bytes per action; "
                  "bound %s); RSS %s -> %s",
                  qPrintable(mib(a.heap)), qPrintable(mib(b.heap)), growth, measured,
                  measured > 0 ? double(growth) / measured : 0.0, qPrintable(mib(bound)),
                  qPrintable(mib(a.rss)), qPrintable(mib(b.rss)));
            QVERIFY2(growth <= bound, "the heap grew beyond the bound after the warm-up");
        }

        // The window as it ends: what each chat holds must be what its file holds.
        QHash<QString, QJsonObject> held;
        for (const ChatSession& c : w.chatPane()->chats())
            if (worthAFile(c))
                held.insert(c.id, comparable(chatToJson(c)));
        w.close();
        w.chatPane()->waitForSaves();
        dialogWatch_->stop();
        w_ = nullptr;
        checkChatFiles(held);

        // A restarted window shows the same chats and still answers.
        MainWindow again; // reads the chats in its constructor: compared before any event
        w_ = &again;
        QCOMPARE(again.chatPane()->chats().size(), qMax<qsizetype>(1, held.size()));
        for (const ChatSession& c : again.chatPane()->chats())
            if (worthAFile(c))
                QVERIFY2(held.value(c.id) == comparable(chatToJson(c)), qPrintable(c.id));
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        again.useBackend(BackendConfig{});
        again.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(again.modelReady(), 120000);
        again.chatPane()->newChat();
        GenerationSettings s;
        s.maxTokens = 8;
        again.chatPane()->setChatSettings(QString(), s);
        QSignalSpy done(&again, &MainWindow::answerFinished);
        again.ask(QStringLiteral("Still there?"));
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 120000);
        const ChatMessage last = again.chatPane()->messages().last();
        QCOMPARE(last.role, ChatMessage::Role::Assistant);
        QVERIFY2(last.stats.generatedTokens > 0, qPrintable(last.stats.stopReason));
        again.chatPane()->waitForSaves();
        w_ = nullptr;
    }

private:
    // Every chat file is valid (Qt's reader, the engine's strict reader, the chat loader) and
    // whole (equal to the chat the window held); no temporary file is left behind.
    void checkChatFiles(const QHash<QString, QJsonObject>& held) {
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
            const auto strict =
                folio::agent::parse_json(std::string_view(bytes.data(), bytes.size()));
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
};

// As QTEST_MAIN, with QtTest's per-function watchdog (5 minutes) set from the soak's length.
int main(int argc, char** argv) {
    const qint64 seconds = envSeconds("FOLIO_SOAK_SECONDS", 20);
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", QByteArray::number((seconds + 900) * 1000));
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestSoak test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_soak.moc"
