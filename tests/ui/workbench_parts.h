#pragma once
// For the suites of the workbench's pieces (test_workbench_parts, test_chat_prompt,
// test_app_settings, test_devices_pane): a sample chat, and each suite's own settings folders.

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include "core/chat/chat_session.h"
#include "support/test_support.h"

namespace folio::test {

inline ui::ChatMessage message(ui::ChatMessage::Role role, const QString& text) {
    ui::ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    return m;
}

inline ui::ChatSession sampleChat() {
    ui::ChatSession c = ui::ChatSession::create();
    c.systemPrompt = QStringLiteral("Be brief.");
    c.settings.temperature = 0.2;
    c.settings.maxTokens = 77;
    c.settings.seed = 42;
    ui::ChatMessage q = message(ui::ChatMessage::Role::User, QStringLiteral("What was revenue?"));
    q.attachments = {QStringLiteral("report.pdf")};
    ui::ChatMessage a = message(ui::ChatMessage::Role::Assistant,
                                QStringLiteral("Revenue was **$4.5 billion** [p. 2].\n\n"
                                               "| year | revenue |\n|---|---|\n| 2025 | 4,500 |\n\n"
                                               "营业收入 grew, see [page 5]."));
    a.stats.promptTokens = 1200;
    a.stats.generatedTokens = 40;
    a.stats.decodeTps = 55.5;
    a.stats.prefillTps = 800;
    a.stats.ttftMs = 120;
    a.stats.stopReason = QStringLiteral("eos");
    c.messages = {q, a};
    return c;
}

// Settings, data and cache under the scratch folder `xdg`, QSettings as FolioTests/`app`, and
// the English locale ("4,096").
inline void useScratchSettings(const QString& xdg, const QString& app) {
    const QString dir = scratchDir(xdg);
    qputenv("XDG_CONFIG_HOME", (dir + QStringLiteral("/config")).toUtf8());
    qputenv("XDG_DATA_HOME", (dir + QStringLiteral("/data")).toUtf8());
    qputenv("XDG_CACHE_HOME", (dir + QStringLiteral("/cache")).toUtf8());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "4,096"
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
    QCoreApplication::setApplicationName(app);
}

} // namespace folio::test
