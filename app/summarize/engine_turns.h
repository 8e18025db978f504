#pragma once
// What folio-cli's Qt-linked jobs (summarize, report) share: the application object QtPdf needs,
// the workbench's turns as an engine Request, and exact token counts with the loaded model.

#include "core/pipeline/chat_turn.h"
#include "core/pipeline/token_counter.h"

#include "folio/engine.h"

#include <QCoreApplication>

#include <memory>

namespace folio::jobs {

// A QGuiApplication (offscreen) when there is no application yet (QtPdf and OCR's page
// rendering need one); null when one exists.
std::unique_ptr<QCoreApplication> ensureApplication();

// The turns as messages; images attached when `withImages` (a vision projector is loaded).
Request toRequest(const QList<folio::ui::ChatTurn>& turns, bool withImages);

// Exact counts with the loaded model's tokenizer and chat template (Engine::count_tokens).
folio::ui::TokenCounter exactCounter(const Engine& engine, bool withImages);

} // namespace folio::jobs
