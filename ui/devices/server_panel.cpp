#include "devices/server_panel.h"

#include "backend/backend_status_q.h"
#include "backend/engine_worker_types.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio::ui {

namespace {
constexpr int kMaxAnswers = 50;
} // namespace

ServerPanel::ServerPanel(QWidget* parent) : QGroupBox(tr("Server"), parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    server_ = new QLabel(this);
    server_->setObjectName(QStringLiteral("serverLabel"));
    server_->setAccessibleName(tr("Server and model"));
    server_->setWordWrap(true);
    server_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(server_);
    status_ = new QLabel(tr("No answer yet."), this);
    status_->setObjectName(QStringLiteral("serverStatusLabel"));
    status_->setAccessibleName(tr("Server status"));
    status_->setWordWrap(true);
    v->addWidget(status_);
    note_ = new QLabel(tr("The server does not report memory or cache figures: the memory "
                          "bars and the KV cache view apply to the embedded engine only. TTFT "
                          "and t/s below are measured by Folio (network included)."),
                       this);
    note_->setObjectName(QStringLiteral("serverNote"));
    note_->setAccessibleName(tr("What the server reports"));
    note_->setWordWrap(true);
    note_->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(note_);
    answers_ = new QTreeWidget(this);
    answers_->setObjectName(QStringLiteral("remoteAnswers"));
    answers_->setAccessibleName(tr("Remote answers: TTFT and decode rate"));
    answers_->setHeaderLabels(
        {tr("Answer"), tr("TTFT"), tr("Decode"), tr("Tokens"), tr("Prompt (cached)"), tr("End")});
    answers_->setRootIsDecorated(false);
    answers_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    answers_->setMinimumHeight(140);
    v->addWidget(answers_);
}

void ServerPanel::setServer(const QString& endpoint, const QString& model, qint64 contextLength) {
    QString text = tr("%1\nmodel %2").arg(endpoint, model);
    if (contextLength > 0)
        text += tr(" · context %L1 tokens").arg(contextLength);
    server_->setText(text);
}

void ServerPanel::setStatus(const BackendStatusQ& s) {
    QString text = s.running > 0 ? tr("requests running: %1").arg(s.running) : tr("idle");
    if (!s.stopReason.isEmpty())
        text += tr("\nlast answer: %L1 prompt tokens (%L2 cached by the server) · %L3 "
                   "generated · TTFT %4 ms · %5 t/s · %6")
                    .arg(s.promptTokens)
                    .arg(s.cachedTokens)
                    .arg(s.generatedTokens)
                    .arg(s.ttftMs, 0, 'f', 0)
                    .arg(s.decodeTps, 0, 'f', 1)
                    .arg(s.stopReason);
    if (s.stopReason.isEmpty() || (s.promptTokens == 0 && s.generatedTokens == 0 &&
                                   s.stopReason != QLatin1String("cancelled")))
        text += tr("\nThe server has not reported token usage.");
    status_->setText(text);
}

void ServerPanel::addAnswer(const RequestStatsQ& st) {
    ++answerCount_;
    auto* item = new QTreeWidgetItem(
        {QString::number(answerCount_),
         st.ttftMs > 0 ? tr("%1 ms").arg(st.ttftMs, 0, 'f', 0) : tr("—"),
         st.decodeTps > 0 ? tr("%1 t/s").arg(st.decodeTps, 0, 'f', 1) : tr("—"),
         QString::number(st.generatedTokens),
         st.promptTokens > 0 ? tr("%L1 (%L2)").arg(st.promptTokens).arg(st.reusedTokens)
                             : tr("not reported"),
         st.stopReason});
    answers_->insertTopLevelItem(0, item);
    while (answers_->topLevelItemCount() > kMaxAnswers)
        delete answers_->takeTopLevelItem(answers_->topLevelItemCount() - 1);
}

void ServerPanel::clearAnswers() {
    answers_->clear();
    answerCount_ = 0;
}

QString ServerPanel::statusText() const {
    return server_->text() + QLatin1Char('\n') + status_->text();
}

QString ServerPanel::noteText() const {
    return note_->text();
}

} // namespace folio::ui
