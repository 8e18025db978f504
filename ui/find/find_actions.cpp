#include "find/find_actions.h"

#include "find/find_bar.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QPdfView>
#include <QTextBrowser>

namespace folio::ui {

FindActions::FindActions(QMenu* edit, QTextBrowser* transcript, QPdfView* pdf, QWidget* scope,
                         QObject* parent)
    : QObject(parent), scope_(scope) {
    transcriptFind_ = new FindBar(transcript, transcriptSearcher(transcript));
    transcriptFind_->setObjectName(QStringLiteral("transcriptFindBar"));
    if (pdf) {
        pdfFind_ = new FindBar(pdf, pdfSearcher(pdf));
        pdfFind_->setObjectName(QStringLiteral("pdfFindBar"));
    }
    QAction* findAction = edit->addAction(tr("&Find…"), this, &FindActions::find);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setObjectName(QStringLiteral("actionFind"));
    QAction* findNext = edit->addAction(tr("Find &next"), this, [this] {
        if (pdfFind_ && pdfFind_->isVisible())
            pdfFind_->findNext();
        else
            transcriptFind_->findNext();
    });
    findNext->setShortcut(QKeySequence::FindNext);
}

void FindActions::find() {
    QWidget* focus = QApplication::focusWidget();
    const bool inScope = focus && (focus == scope_ || scope_->isAncestorOf(focus));
    if (pdfFind_ && inScope && pdfFind_->parentWidget()->isVisible())
        pdfFind_->open();
    else
        transcriptFind_->open();
}

} // namespace folio::ui
