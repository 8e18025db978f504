#pragma once
// For suites that drive the real main window with a backend of their own (test_job_requests,
// test_summary_runner, test_workbench_tools): the backend put in place, and a new chat with a
// document opened in it.

#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_pane.h"
#include "documents/documents_pane.h"
#include "main_window.h"

#include <memory>

namespace folio::test {

// Answers come from `backend` (the worker takes it, on its own thread) with `facts`; returns
// once the window has seen the model ready.
inline void useWindowBackend(ui::MainWindow& window, ChatBackend* backend,
                             const ui::ModelFactsQ& facts) {
    ui::EngineWorker* worker = window.engineWorker();
    QMetaObject::invokeMethod(
        worker,
        [worker, backend, facts] {
            worker->setBackend(std::unique_ptr<ChatBackend>(backend), facts);
        },
        Qt::BlockingQueuedConnection);
    QTRY_VERIFY(window.modelReady());
}

// A scripted model: its name and an 8,192-token context.
inline ui::ModelFactsQ scriptedFacts() {
    ui::ModelFactsQ facts;
    facts.name = QStringLiteral("scripted");
    facts.contextLimit = 8192;
    return facts;
}

// Documents belong to a chat: a new chat with `path` opened in it, waited for.
inline void newChatWith(ui::MainWindow& window, const QString& path) {
    window.chatPane()->newChat();
    QSignalSpy loaded(window.documentsPane(), &ui::DocumentsPane::documentLoaded);
    window.documentsPane()->openFiles({path});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
}

} // namespace folio::test
