#include "find/find_bar.h"

#include "core/documents/ocr_find.h"
#include "documents/highlight_pdf_view.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPdfDocument>
#include <QPdfLink>
#include <QPdfPageNavigator>
#include <QPdfSearchModel>
#include <QPdfView>
#include <QPointer>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>

namespace folio::ui {

namespace {

class TranscriptSearcher : public Searcher {
public:
    explicit TranscriptSearcher(QTextBrowser* view) : view_(view) {}

    int find(const QString& text, int step, int* current) override {
        *current = 0;
        if (!view_ || text.isEmpty())
            return 0;
        QTextDocument* doc = view_->document();
        // Where the search starts: after (before) the selection, or at its start for step 0.
        QTextCursor from = view_->textCursor();
        if (step == 0)
            from.setPosition(from.selectionStart());
        const QTextDocument::FindFlags flags =
            step < 0 ? QTextDocument::FindBackward : QTextDocument::FindFlags();
        QTextCursor match =
            doc->find(text, step < 0 ? from.selectionStart() : from.position(), flags);
        if (match.isNull()) // wrap around
            match = doc->find(text, step < 0 ? doc->characterCount() : 0, flags);
        if (match.isNull())
            return 0;
        view_->setTextCursor(match);
        view_->ensureCursorVisible();
        int count = 0;
        for (QTextCursor c = doc->find(text, 0); !c.isNull(); c = doc->find(text, c)) {
            ++count;
            if (c.selectionStart() == match.selectionStart())
                *current = count;
        }
        return count;
    }

    void clear() override {
        if (!view_)
            return;
        QTextCursor c = view_->textCursor();
        c.clearSelection();
        view_->setTextCursor(c);
    }

private:
    QPointer<QTextBrowser> view_;
};

class PdfSearcher : public Searcher {
public:
    explicit PdfSearcher(QPdfView* view) : view_(view), model_(new QPdfSearchModel(view)) {
        QObject::connect(model_, &QAbstractItemModel::rowsInserted, model_, [this] {
            if (index_ < 0 && resultsChanged)
                resultsChanged();
        });
        QObject::connect(model_, &QAbstractItemModel::modelReset, model_, [this] {
            if (index_ < 0 && resultsChanged)
                resultsChanged();
        });
    }

    int find(const QString& text, int step, int* current) override {
        *current = 0;
        context_.clear();
        if (!view_ || !view_->document() || text.isEmpty())
            return 0;
        if (model_->document() != view_->document())
            model_->setDocument(view_->document());
        if (model_->searchString() != text) {
            model_->setSearchString(text);
            index_ = -1;
        }
        const QList<Hit> all = hits(text);
        const int count = int(all.size());
        if (count == 0)
            return 0;
        if (index_ < 0 || index_ >= count) {
            // The first match on or after the page shown.
            const int page = view_->pageNavigator()->currentPage();
            index_ = 0;
            for (int i = 0; i < count; ++i)
                if (all[i].page >= page) {
                    index_ = i;
                    break;
                }
        } else {
            // The list grows while QtPdf searches page by page: step from the match shown.
            for (int i = 0; i < count; ++i)
                if (all[i].page == shown_.page && all[i].location == shown_.location &&
                    all[i].ocr == shown_.ocr) {
                    index_ = i;
                    break;
                }
            index_ = ((index_ + step) % count + count) % count;
        }
        const Hit& hit = all[index_];
        shown_ = hit;
        view_->pageNavigator()->jump(hit.page, hit.location, view_->zoomFactor());
        // The match shown on the page (issue #46 §2): QtPdf's boxes for the text layer, the
        // words' boxes for OCR text.
        if (auto* highlight = qobject_cast<HighlightPdfView*>(view_.data())) {
            highlight->setHighlight(hit.page, hit.boxes);
            highlight->scrollToHighlight();
        }
        context_ = hit.ocr ? FindBar::tr("p. %1, OCR text: %2").arg(hit.page + 1).arg(hit.context)
                           : FindBar::tr("p. %1: %2").arg(hit.page + 1).arg(hit.context);
        *current = index_ + 1;
        return count;
    }

    void clear() override {
        index_ = -1;
        context_.clear();
        if (auto* highlight = qobject_cast<HighlightPdfView*>(view_.data()))
            highlight->clearHighlight();
    }
    QString context() const override { return context_; }

private:
    struct Hit {
        int page = 0;
        QPointF location; // points on the page
        QString context;
        bool ocr = false;
        QList<QRectF> boxes; // points on the page
    };

    // The text layer's matches (QtPdf) and those in the OCR text of the scanned pages of the
    // document shown (the view's kPreviewDocumentProperty), in page order.
    QList<Hit> hits(const QString& text) const {
        QList<Hit> out;
        const int rows = model_->rowCount(QModelIndex());
        for (int i = 0; i < rows; ++i) {
            const QPdfLink link = model_->resultAtIndex(i);
            out.append({link.page(), link.location(),
                        (link.contextBefore() + link.contextAfter()).simplified(), false,
                        link.rectangles()});
        }
        const QVariant shown = view_->property(kPreviewDocumentProperty);
        if (shown.canConvert<Document>())
            for (const OcrMatch& m : findInOcrText(shown.value<Document>(), text))
                out.append({m.page, m.box.topLeft(), m.context, true, m.boxes});
        std::stable_sort(out.begin(), out.end(),
                         [](const Hit& a, const Hit& b) { return a.page < b.page; });
        return out;
    }

    QPointer<QPdfView> view_;
    QPdfSearchModel* model_;
    int index_ = -1;
    Hit shown_;
    QString context_;
};

} // namespace

std::unique_ptr<Searcher> transcriptSearcher(QTextBrowser* view) {
    return std::make_unique<TranscriptSearcher>(view);
}

std::unique_ptr<Searcher> pdfSearcher(QPdfView* view) {
    return std::make_unique<PdfSearcher>(view);
}

FindBar::FindBar(QWidget* host, std::unique_ptr<Searcher> searcher)
    : QFrame(host), host_(host), searcher_(std::move(searcher)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Window);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    edit_ = new QLineEdit(this);
    edit_->setObjectName(QStringLiteral("findEdit"));
    edit_->setPlaceholderText(tr("Find"));
    edit_->setAccessibleName(tr("Find text"));
    edit_->setClearButtonEnabled(true);
    edit_->setMinimumWidth(160);
    edit_->installEventFilter(this);
    layout->addWidget(edit_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("findStatus"));
    layout->addWidget(status_);
    context_ = new QLabel(this);
    context_->setObjectName(QStringLiteral("findContext"));
    context_->hide();
    layout->addWidget(context_);
    auto button = [this, layout](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        layout->addWidget(b);
        return b;
    };
    button(QStringLiteral("▲"), tr("Previous match (Shift+Enter)"), [this] { search(-1); });
    button(QStringLiteral("▼"), tr("Next match (Enter)"), [this] { search(1); });
    button(QStringLiteral("×"), tr("Close (Esc)"), [this] {
        searcher_->clear();
        hide();
        host_->setFocus();
    });
    connect(edit_, &QLineEdit::textEdited, this, [this] { search(0); });
    searcher_->resultsChanged = [this] {
        if (isVisible())
            search(0);
    };
    host->installEventFilter(this);
    hide();
}

FindBar::~FindBar() = default;

void FindBar::open() {
    place();
    show();
    raise();
    edit_->setFocus(Qt::ShortcutFocusReason);
    edit_->selectAll();
    if (!edit_->text().isEmpty())
        search(0);
}

QString FindBar::status() const {
    return status_->text();
}

QString FindBar::matchContext() const {
    return context_->toolTip();
}

void FindBar::search(int step) {
    int current = 0;
    const int count = searcher_->find(edit_->text(), step, &current);
    if (edit_->text().isEmpty())
        status_->clear();
    else if (count == 0)
        status_->setText(tr("not found"));
    else if (current > 0)
        status_->setText(tr("%1 of %2").arg(current).arg(count));
    else
        status_->setText(count == 1 ? tr("1 match") : tr("%1 matches").arg(count));
    // The match itself, with the words around it (the page's OCR text has no layer to select).
    const QString context = count > 0 ? searcher_->context() : QString();
    context_->setText(fontMetrics().elidedText(context, Qt::ElideRight, kContextWidth));
    context_->setToolTip(context);
    context_->setVisible(!context.isEmpty());
    if (isVisible())
        place();
}

void FindBar::place() {
    adjustSize();
    const int w = qMin(width(), host_->width());
    resize(w, sizeHint().height());
    move(host_->width() - w - 20, 4);
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
    if (watched == host_ && event->type() == QEvent::Resize && isVisible())
        place();
    // Esc closes the bar rather than stopping an answer (the chat's Esc shortcut).
    if (watched == edit_ && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    if (watched == edit_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool shift = key->modifiers().testFlag(Qt::ShiftModifier);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter ||
            key->key() == Qt::Key_F3) {
            search(shift ? -1 : 1);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            searcher_->clear();
            hide();
            host_->setFocus();
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace folio::ui
