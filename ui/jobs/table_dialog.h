#pragma once
// The extracted table: a QTableView over a QStandardItemModel, with Copy (TSV to the
// clipboard), Export CSV and Export Markdown (written atomically). While the model reads the
// image it says so; an answer that is not a table (or a ragged one) is reported in words with
// the model's text below it, never laid out as cells.

#include "core/pipeline/markdown_table.h"

#include <QDialog>
#include <QString>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace folio::ui {

class TableDialog : public QDialog {
    Q_OBJECT
public:
    explicit TableDialog(QWidget* parent = nullptr);

    // The request for `imageTitle` is running.
    void showWaiting(const QString& imageTitle);
    // The model answered: a table, or why the answer is not one.
    void showResult(const TableParse& parse, const QString& reply);
    // No answer (backend error, stopped, no vision).
    void showError(const QString& message);

    bool hasTable() const { return hasTable_; }
    const MarkdownTable& table() const { return table_; }
    QStandardItemModel* model() const { return model_; }
    QString statusText() const;

    // The table as TSV on the clipboard.
    void copyToClipboard() const;
    // Write the table; "" on success, else a message for the user naming the file.
    QString exportCsv(const QString& path) const;
    QString exportMarkdown(const QString& path) const;

Q_SIGNALS:
    void stopRequested();

private:
    void chooseAndExport(bool csv);
    void setTableVisible(bool visible);

    QLabel* status_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QTableView* view_ = nullptr;
    QStandardItemModel* model_ = nullptr;
    QPlainTextEdit* reply_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    QPushButton* exportMarkdown_ = nullptr;
    QPushButton* stop_ = nullptr;
    MarkdownTable table_;
    bool hasTable_ = false;
    QString imageTitle_;
};

} // namespace folio::ui
