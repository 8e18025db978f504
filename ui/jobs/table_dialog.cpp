#include "jobs/table_dialog.h"

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
    stop_ = new QPushButton(tr("&Stop"), this);
    stop_->setObjectName(QStringLiteral("stopTableButton"));
    auto* close = new QPushButton(tr("Close"), this);
    connect(copy_, &QPushButton::clicked, this, &TableDialog::copyToClipboard);
    connect(exportCsv_, &QPushButton::clicked, this, [this] { chooseAndExport(true); });
    connect(exportMarkdown_, &QPushButton::clicked, this, [this] { chooseAndExport(false); });
    connect(stop_, &QPushButton::clicked, this, &TableDialog::stopRequested);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(copy_);
    buttons->addWidget(exportCsv_);
    buttons->addWidget(exportMarkdown_);
    buttons->addStretch(1);
    buttons->addWidget(stop_);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addWidget(busy_);
    layout->addWidget(view_, 3);
    layout->addWidget(reply_, 1);
    layout->addLayout(buttons);
    showError(QString());
}

void TableDialog::setTableVisible(bool visible) {
    view_->setVisible(visible);
    copy_->setEnabled(visible);
    exportCsv_->setEnabled(visible);
    exportMarkdown_->setEnabled(visible);
}

void TableDialog::showWaiting(const QString& imageTitle) {
    imageTitle_ = imageTitle;
    hasTable_ = false;
    table_ = {};
    model_->clear();
    reply_->clear();
    reply_->hide();
    status_->setText(tr("Reading the table in %1…").arg(imageTitle));
    busy_->show();
    stop_->setEnabled(true);
    setTableVisible(false);
}

void TableDialog::showResult(const TableParse& parse, const QString& reply) {
    busy_->hide();
    stop_->setEnabled(false);
    reply_->setPlainText(reply);
    model_->clear();
    hasTable_ = parse.ok();
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

void TableDialog::showError(const QString& message) {
    busy_->hide();
    stop_->setEnabled(false);
    hasTable_ = false;
    table_ = {};
    model_->clear();
    reply_->hide();
    status_->setText(message);
    setTableVisible(false);
}

QString TableDialog::statusText() const {
    return status_->text();
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
    const QString error = csv ? exportCsv(path) : exportMarkdown(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export failed"),
                             tr("Could not write the table: %1").arg(error));
        return;
    }
    // Said where the table went (issue #48 §13: an export without a word looked like nothing).
    status_->setText(tr("Saved the table to %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace folio::ui
