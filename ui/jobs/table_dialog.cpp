#include "jobs/table_dialog.h"

#include "chat/figure_marks.h"
#include "core/storage/atomic_write.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace folio::ui {

TableDialog::TableDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("tableDialog"));
    setWindowTitle(tr("Extracted table"));
    resize(640, 480);

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("tableStatus"));
    status_->setWordWrap(true);
    details_ = new QLabel(this);
    details_->setObjectName(QStringLiteral("tableDetails"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->setForegroundRole(QPalette::PlaceholderText);
    figuresLabel_ = new QLabel(this);
    figuresLabel_->setObjectName(QStringLiteral("tableFigures"));
    figuresLabel_->setWordWrap(true);
    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0); // no figures while the model reads: just busy
    busy_->setTextVisible(false);
    model_ = new QStandardItemModel(this);
    view_ = new QTableView(this);
    view_->setObjectName(QStringLiteral("tableView"));
    view_->setModel(model_);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setAlternatingRowColors(true);
    view_->horizontalHeader()->setStretchLastSection(true);
    connect(view_, &QTableView::doubleClicked, this, &TableDialog::onCellActivated);
    reply_ = new QPlainTextEdit(this);
    reply_->setObjectName(QStringLiteral("tableReply"));
    reply_->setReadOnly(true);
    reply_->setPlaceholderText(tr("The model's answer"));

    copy_ = new QPushButton(tr("&Copy"), this);
    copy_->setObjectName(QStringLiteral("copyTableButton"));
    copy_->setToolTip(tr("Copy the table as tab-separated values (pastes into a spreadsheet)"));
    exportCsv_ = new QPushButton(tr("Export &CSV…"), this);
    exportCsv_->setObjectName(QStringLiteral("exportCsvButton"));
    exportMarkdown_ = new QPushButton(tr("Export &Markdown…"), this);
    exportMarkdown_->setObjectName(QStringLiteral("exportMarkdownButton"));
    retry_ = new QPushButton(tr("&Retry"), this);
    retry_->setObjectName(QStringLiteral("retryTableButton"));
    retry_->setToolTip(tr("Ask the model to read the table again"));
    stop_ = new QPushButton(tr("&Stop"), this);
    stop_->setObjectName(QStringLiteral("stopTableButton"));
    auto* close = new QPushButton(tr("Close"), this);
    connect(copy_, &QPushButton::clicked, this, &TableDialog::copyToClipboard);
    connect(exportCsv_, &QPushButton::clicked, this, [this] { chooseAndExport(true); });
    connect(exportMarkdown_, &QPushButton::clicked, this, [this] { chooseAndExport(false); });
    connect(stop_, &QPushButton::clicked, this, &TableDialog::stopRequested);
    connect(retry_, &QPushButton::clicked, this, &TableDialog::retryRequested);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(copy_);
    buttons->addWidget(exportCsv_);
    buttons->addWidget(exportMarkdown_);
    buttons->addStretch(1);
    buttons->addWidget(retry_);
    buttons->addWidget(stop_);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addWidget(details_);
    layout->addWidget(figuresLabel_);
    layout->addWidget(busy_);
    layout->addWidget(view_, 3);
    layout->addWidget(reply_, 1);
    layout->addLayout(buttons);
    showError(QString(), false);
}

void TableDialog::setTableVisible(bool visible) {
    view_->setVisible(visible);
    copy_->setEnabled(visible);
    exportCsv_->setEnabled(visible);
    exportMarkdown_->setEnabled(visible);
}

void TableDialog::clearFigures() {
    figures_.clear();
    figuresLabel_->clear();
    figuresLabel_->setToolTip(QString());
    figuresLabel_->hide();
}

void TableDialog::showWaiting(const QString& imageTitle) {
    clearFigures();
    imageTitle_ = imageTitle;
    hasTable_ = false;
    table_ = {};
    model_->clear();
    reply_->clear();
    reply_->hide();
    status_->setText(tr("Reading the table in %1…").arg(imageTitle));
    details_->clear();
    details_->hide();
    retry_->hide();
    busy_->show();
    stop_->setEnabled(true);
    setTableVisible(false);
}

void TableDialog::showResult(const TableParse& parse, const QString& reply) {
    clearFigures();
    busy_->hide();
    stop_->setEnabled(false);
    reply_->setPlainText(reply);
    model_->clear();
    hasTable_ = parse.ok();
    details_->setText(parse.detail.isEmpty() ? QString() : tr("Details: %1").arg(parse.detail));
    details_->setVisible(!parse.detail.isEmpty());
    retry_->setVisible(!hasTable_);
    if (!hasTable_) {
        table_ = {};
        status_->setText(parse.message);
        reply_->show(); // the answer as text, so the user sees what the model said
        setTableVisible(false);
        return;
    }
    table_ = parse.table;
    model_->setColumnCount(table_.columnCount());
    model_->setHorizontalHeaderLabels(table_.header);
    for (const QStringList& row : table_.rows) {
        QList<QStandardItem*> items;
        for (const QString& cell : row) {
            auto* item = new QStandardItem(cell);
            bool number = false;
            cell.toDouble(&number);
            if (number)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            items << item;
        }
        model_->appendRow(items);
    }
    view_->resizeColumnsToContents();
    status_->setText(tr("%1 rows × %2 columns read from %3.")
                         .arg(table_.rows.size())
                         .arg(table_.columnCount())
                         .arg(imageTitle_));
    reply_->hide();
    setTableVisible(true);
}

void TableDialog::showError(const QString& message, bool retry) {
    clearFigures();
    details_->clear();
    details_->hide();
    retry_->setVisible(retry);
    busy_->hide();
    stop_->setEnabled(false);
    hasTable_ = false;
    table_ = {};
    model_->clear();
    reply_->hide();
    status_->setText(message);
    setTableVisible(false);
}

namespace {

// The state a cell's mark is coloured by: its worst figure's.
int severity(CheckedFigure::State state) {
    switch (state) {
    case CheckedFigure::State::NotFound:
        return 3;
    case CheckedFigure::State::OtherPage:
        return 2;
    case CheckedFigure::State::Verified:
        return 1;
    case CheckedFigure::State::Uncited:
        break;
    }
    return 0;
}

} // namespace

void TableDialog::showFigures(const QList<CellFigure>& figures, const QString& documentTitle,
                              const QList<int>& pages) {
    clearFigures();
    if (!hasTable_ || figures.isEmpty())
        return;
    figures_ = figures;
    for (int r = 0; r < table_.rows.size(); ++r) {
        for (int c = 0; c < table_.rows[r].size(); ++c) {
            const QList<CheckedFigure> cell = figuresOfCell(figures_, r, c);
            QStandardItem* item = model_->item(r, c);
            if (cell.isEmpty() || !item)
                continue;
            QStringList glyphs, tips;
            QVariantList states;
            CheckedFigure::State worst = cell.first().state;
            for (const CheckedFigure& f : cell) {
                glyphs << figureGlyph(f.state);
                tips << figureMarkToolTip(f, documentTitle, 1);
                states << int(f.state);
                if (severity(f.state) > severity(worst))
                    worst = f.state;
            }
            item->setText(table_.rows[r][c] + QLatin1Char(' ') + glyphs.join(QString()));
            item->setToolTip(tips.join(QLatin1Char('\n')));
            item->setForeground(figureMarkColour(palette(), worst));
            item->setData(states, kFigureStatesRole);
        }
    }
    view_->resizeColumnsToContents();
    QStringList pageList;
    for (int p : pages)
        pageList << QString::number(p);
    figuresLabel_->setText(figuresLine(allFigures(figures_)));
    figuresLabel_->setToolTip(
        tr("Each number of the table looked for on page %1 of %2 (a row's own page when the "
           "table names one); double-click a cell to open its page")
            .arg(pageList.join(QStringLiteral(", ")), documentTitle));
    figuresLabel_->show();
}

QString TableDialog::figuresText() const {
    return figuresLabel_->text();
}

QList<CheckedFigure::State> TableDialog::cellFigureStates(int row, int column) const {
    QList<CheckedFigure::State> out;
    for (const CheckedFigure& f : figuresOfCell(figures_, row, column))
        out << f.state;
    return out;
}

void TableDialog::onCellActivated(const QModelIndex& index) {
    const QList<CheckedFigure> cell = figuresOfCell(figures_, index.row(), index.column());
    if (cell.isEmpty())
        return;
    // The first figure that is somewhere in the document, else the page it was looked for on.
    for (const CheckedFigure& f : cell)
        if (f.foundPage > 0) {
            Q_EMIT figurePageRequested(f.foundPage, f.match);
            return;
        }
    if (cell.first().page > 0)
        Q_EMIT figurePageRequested(cell.first().page, QString());
}

QString TableDialog::statusText() const {
    return status_->text();
}

QString TableDialog::detailText() const {
    return details_->text();
}

void TableDialog::copyToClipboard() const {
    if (hasTable_)
        QApplication::clipboard()->setText(tableToTsv(table_));
}

QString TableDialog::exportCsv(const QString& path) const {
    if (!hasTable_)
        return tr("There is no table to export.");
    return writeTextFileAtomic(path, tableToCsv(table_));
}

QString TableDialog::exportMarkdown(const QString& path) const {
    if (!hasTable_)
        return tr("There is no table to export.");
    return writeTextFileAtomic(path, tableToMarkdown(table_));
}

void TableDialog::chooseAndExport(bool csv) {
    const QString base = QFileInfo(imageTitle_).completeBaseName();
    const QString suggested = (base.isEmpty() ? QStringLiteral("table") : base) +
                              (csv ? QStringLiteral(".csv") : QStringLiteral(".md"));
    const QString path = QFileDialog::getSaveFileName(
        this, csv ? tr("Export CSV") : tr("Export Markdown"), suggested,
        csv ? tr("CSV files (*.csv)") : tr("Markdown files (*.md)"));
    if (path.isEmpty())
        return;
    const QString error = exportTo(path, csv);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"),
                             tr("Could not write the table: %1").arg(error));
}

QString TableDialog::exportTo(const QString& path, bool csv) {
    const QString error = csv ? exportCsv(path) : exportMarkdown(path);
    if (!error.isEmpty())
        return error;
    // Said where the table went (issue #48 §13: an export without a word looked like nothing),
    // in the dialog and in the status bar, which stays when the dialog is closed.
    const QString message = tr("Saved the table to %1").arg(QDir::toNativeSeparators(path));
    status_->setText(message);
    Q_EMIT saved(message);
    return {};
}

} // namespace folio::ui
