#pragma once
// The extracted table: a QTableView over a QStandardItemModel, with Copy (TSV to the
// clipboard), Export CSV and Export Markdown (written atomically, then "Saved the table to
// PATH"). While the model reads the image it says so; an answer that is not a table (or a
// ragged one) is reported in the user's words, the technical reason in a details line, the
// model's text below it, never laid out as cells; Retry asks again (issue #48 §13). A table
// read from a document's page has its figures checked against that page (issue #46 §2): a mark
// after each cell's figures (message_figures' glyphs, tooltips quoting the page's line) and the
// count line "Figures: 7 verified · 1 on another page · 2 not found". Copy and the exports
// carry the cells as the model wrote them, without marks.

#include "core/chat/table_figures.h"
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
    // No answer (backend error, stopped, no vision); `retry`: offer Retry.
    void showError(const QString& message, bool retry = true);
    // The shown table's figures as checked against `documentTitle`'s pages `pages`.
    void showFigures(const QList<CellFigure>& figures, const QString& documentTitle,
                     const QList<int>& pages);

    // The item data role holding a cell's figure states (QVariantList of int(State)).
    static constexpr int kFigureStatesRole = Qt::UserRole + 1;
    const QList<CellFigure>& figures() const { return figures_; }
    // The count line ("" when no figures were checked).
    QString figuresText() const;
    // The states of the figures of cell (row, column), in the cell's order.
    QList<CheckedFigure::State> cellFigureStates(int row, int column) const;

    bool hasTable() const { return hasTable_; }
    const MarkdownTable& table() const { return table_; }
    QStandardItemModel* model() const { return model_; }
    QString statusText() const;
    QString detailText() const;
    QPushButton* retryButton() const { return retry_; }

    // The table as TSV on the clipboard.
    void copyToClipboard() const;
    // Write the table; "" on success, else a message for the user naming the file.
    QString exportCsv(const QString& path) const;
    QString exportMarkdown(const QString& path) const;
    // Writes the table to `path` (CSV or Markdown) and says so: "Saved the table to PATH" in
    // the dialog and through `saved` (the status bar); "" on success, else the message.
    QString exportTo(const QString& path, bool csv);

Q_SIGNALS:
    void stopRequested();
    // A marked cell was double-clicked: open page `page` of the checked document with `match`
    // (the page's figure, as the page writes it) highlighted.
    void figurePageRequested(int page, const QString& match);
    // Retry: the same image again.
    void retryRequested();
    // The table was written: a line for the status bar.
    void saved(const QString& message);

private:
    void chooseAndExport(bool csv);
    void setTableVisible(bool visible);
    void clearFigures();
    void onCellActivated(const QModelIndex& index);

    QLabel* status_ = nullptr;
    QLabel* details_ = nullptr;
    QLabel* figuresLabel_ = nullptr;
    QPushButton* retry_ = nullptr;
    QProgressBar* busy_ = nullptr;
    QTableView* view_ = nullptr;
    QStandardItemModel* model_ = nullptr;
    QPlainTextEdit* reply_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    QPushButton* exportMarkdown_ = nullptr;
    QPushButton* stop_ = nullptr;
    MarkdownTable table_;
    QList<CellFigure> figures_;
    bool hasTable_ = false;
    QString imageTitle_;
};

} // namespace folio::ui
