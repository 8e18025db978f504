#pragma once
// Chat → Reports… (issue #49 §6): a report of the current chat's documents from a template. Pick
// a built-in template (in the UI's language) or a template file, see its outline, make it (the
// sections fill in as they are made, with the time left; the chat stays usable), stop, make one
// section again, edit one by hand (it stays edited), and export it (PDF, ODT, HTML, Markdown).
// Each chat has one report, saved beside the chats (<AppData>/reports/<chat id>.folio-report):
// reopening the dialog shows it, and "Make report" resumes at the first section not made.

#include "core/documents/document.h"
#include "core/report/report.h"
#include "core/report/report_generator.h"

#include <QDialog>
#include <QList>
#include <QString>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace folio::ui {

class ReportRunner;

class ReportsDialog : public QDialog {
    Q_OBJECT
public:
    // `documents`: the chat's documents (PDFs are read; images are the charts).
    ReportsDialog(ReportRunner* runner, const QString& chatId, const QList<Document>& documents,
                  QWidget* parent = nullptr);

    // Where the chat's report is kept.
    static QString reportPath(const QString& chatId);

    const Report& report() const { return report_; }
    // Starts (or resumes) the report of the chosen template (the buttons' work; tests call it).
    void makeReport();
    void makeSectionAgain(int section);
    // Replaces a section's text with the user's (kept as edited) and saves.
    void editSection(int section, const QString& text);
    // "" on success, else a message for the user.
    QString exportTo(const QString& path);

Q_SIGNALS:
    void runFinished(bool ok);

private:
    void chooseTemplateFile();
    void templateChosen();
    void showReport(const Report& report);
    void showSection();
    void updateButtons();
    bool prepare(QString* error); // report_ matches the template and documents; inputs ready
    void start(const ReportRunOptions& options);

    ReportRunner* runner_;
    QString chatId_;
    QList<Document> documents_;
    Report report_;
    QString templateText_, templateName_;
    ReportTemplate shape_;
    ReportInputs inputs_;

    QComboBox* templates_;
    QLabel* sources_;
    QListWidget* outline_;
    QTextBrowser* section_;
    QLabel* progress_;
    QPushButton* make_;
    QPushButton* stop_;
    QPushButton* again_;
    QPushButton* edit_;
    QPushButton* export_;
};

} // namespace folio::ui
