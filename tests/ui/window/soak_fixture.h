#pragma once
// test_soak's monkey (issue #25): what it keeps between actions, the actions, and the checks
// that are no test function of their own. TestSoak (test_soak.cpp) derives from SoakFixture;
// soak_fixture.cpp holds the helpers and the checks, soak_actions.cpp the actions.

#include <QDialog>
#include <QFuture>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QPushButton>
#include <QString>
#include <QStringList>
#include <QTimer>

#include "chat/chat_pane.h"
#include "core/chat/chat_session.h"
#include "main_window.h"
#include "support/server_process.h"

#include <functional>
#include <map>
#include <random>

namespace folio::ui::soak {

QString demoModel();
QString sample(const QString& name);
qint64 envSeconds(const char* name, qint64 fallback);
// Live heap bytes: ASan's allocator in the asan build, glibc's arenas otherwise.
qint64 heapBytes();
// A "Vm…:" line of /proc/self/status in bytes.
qint64 procStatusBytes(const char* key);
QString mib(qint64 bytes);
void writePdf(const QString& path, const QString& title, int pages);
bool writeBytes(const QString& path, const QByteArray& bytes);
// A chat as JSON without its "updated" time (compared between the window and its file).
QJsonObject comparable(QJsonObject json);
bool worthAFile(const ChatSession& c);

class SoakFixture {
protected:
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

    // The failure an answer ended with: the answer's interruption, else the last notice (digits
    // masked, so the same failure counts once).
    QString lastProblem() const;

    // What the window is doing, for a failure message.
    QString stateLine() const;

    // The chat shown is answered (or its question waits its turn).
    bool answering() const { return w_->chatPane()->isGenerating() || w_->chatPane()->isWaiting(); }
    // Some chat is answered, summarized or waits (the user may be in another one).
    bool workingAnywhere() const { return !w_->chatPane()->library()->busyChats().isEmpty(); }

    // Stops what runs and waits until nothing does: no answer, no load, no export, no save.
    bool quiesce(int timeoutMs);

    // Checks the finished exports (every one must have succeeded and written its file).
    void checkExports();

    // A memory sample at rest, in the same state each time: the demo model just loaded by the
    // engine (whose caches are bounded by their budgets and go with it), an empty chat shown (no
    // documents open, no transcript), so what differs between two samples is what was kept.
    MemSample memSample(const QString& when, double seconds);

    // Every chat file is valid (Qt's reader, the engine's strict reader, the chat loader) and
    // whole (equal to the chat the window held); no temporary file is left behind.
    void checkChatFiles(const QHash<QString, QJsonObject>& held);

    // ---- the actions; each returns whether it did something (else it did not apply) ----

    bool ask(quint64 r);
    bool stop(quint64 r);
    bool regenerate(quint64);
    bool edit(quint64 r);
    bool openDocument(quint64 r);
    bool removeDocument(quint64 r);
    bool editDocuments(quint64 r);

    // The changing PDF: rewritten (another fingerprint), removed, written again; chats that
    // hold it get a problem line, and "Locate…" (by path: no file dialog) finds it again.
    bool changeFile(quint64 r);
    bool locate(quint64 r);
    bool newChat(quint64 r);
    bool switchChat(quint64 r);
    bool deleteChat(quint64 r);
    bool renameChat(quint64 r);
    bool exportChat(quint64 r);
    bool chatSettings(quint64 r);

    // Settings → the backend and the engine's options, through the dialog; OK reloads the model
    // or connects to the server.
    bool appSettings(quint64 r);

    // Straight to the server or back to the engine (as at start with saved settings).
    bool switchBackend(quint64 r);

    // Waits for the answer or loads in flight to end (up to 20 s), as a user reading.
    bool waitForIdle(quint64);
};

} // namespace folio::ui::soak
