// The monkey's actions (test_soak, issue #25): each returns whether it did something (else it
// did not apply).
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

namespace folio::ui::soak {

bool SoakFixture::ask(quint64 r) {
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

bool SoakFixture::stop(quint64 r) {
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

bool SoakFixture::regenerate(quint64) {
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

bool SoakFixture::edit(quint64 r) {
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

bool SoakFixture::openDocument(quint64 r) {
    if (w_->documentsPane()->documents().size() >= 5)
        return removeDocument(r);
    w_->openDocuments({pool_[int(r % pool_.size())]});
    return true;
}

bool SoakFixture::removeDocument(quint64 r) {
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

bool SoakFixture::editDocuments(quint64 r) {
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
bool SoakFixture::changeFile(quint64 r) {
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

bool SoakFixture::locate(quint64 r) {
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

// While a chat is answered too (issue #48 §7): its answer goes on in it.
bool SoakFixture::newChat(quint64 r) {
    ChatPane* pane = w_->chatPane();
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

bool SoakFixture::switchChat(quint64 r) {
    ChatPane* pane = w_->chatPane();
    const int n = int(pane->chats().size());
    if (n < 2)
        return false;
    const int to = int(r % n);
    auto* list = w_->findChild<QListWidget*>(QStringLiteral("chatList"));
    if ((r >> 8) % 2 == 0 && list->isEnabled())
        list->setCurrentRow(to);
    else
        pane->selectChat(to);
    return true;
}

// A chat being answered, too: its answer stops.
bool SoakFixture::deleteChat(quint64 r) {
    ChatPane* pane = w_->chatPane();
    // The oldest of a long list, else any.
    const int n = int(pane->chats().size());
    pane->deleteChat(n >= 8 ? n - 1 : int(r % n));
    return true;
}

bool SoakFixture::renameChat(quint64 r) {
    ChatPane* pane = w_->chatPane();
    pane->renameChat(int(r % pane->chats().size()),
                     QStringLiteral("Soak chat %1 — «ü»").arg(r % 1000));
    return true;
}

bool SoakFixture::exportChat(quint64 r) {
    static const char* const suffixes[] = {"md", "html", "pdf", "json"};
    const QString path =
        dir_ +
        QStringLiteral("/export-%1.%2").arg(++exportCounter_).arg(QLatin1String(suffixes[r % 4]));
    exports_.append({path, w_->exportTo(path)});
    return true;
}

bool SoakFixture::chatSettings(quint64 r) {
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
bool SoakFixture::appSettings(quint64 r) {
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
    const QString url =
        backend == 3 ? QString::fromStdString(server_.url()) : QStringLiteral("http://127.0.0.1:9");
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
bool SoakFixture::switchBackend(quint64 r) {
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
bool SoakFixture::waitForIdle(quint64) {
    QElapsedTimer t;
    t.start();
    while ((workingAnywhere() || w_->isBusy()) && t.elapsed() < 20000)
        QTest::qWait(50);
    return true;
}

} // namespace folio::ui::soak
