// File → Reports… in the real window (issue #49 §6) with a scripted backend behind its
// EngineWorker: the equity note of the sample report made section by section through the jobs'
// lane (the chat is not busy meanwhile), its outline flagging the section with a figure not
// found, the report reopened from its file, a section edited by hand and another made again
// (only that one asked), and the export read back. A screenshot of the dialog is written to the
// test's scratch folder (reports-window/dialog.png) for a person to look at.
#include <QAction>
#include <QLabel>
#include <QListWidget>
#include <QPdfDocument>
#include <QSignalSpy>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_pane.h"
#include "core/chat/message_figures.h"
#include "main_window.h"
#include "reports/reports_dialog.h"
#include "support/test_support.h"
#include "ui/window_fixture.h"

#include <mutex>
#include <thread>
#include <vector>

using namespace folio;
using namespace folio::ui;

namespace {

// The section a request asks for: 'Write the section "X" of the report'.
std::string headingOf(const Request& r) {
    const std::string& ask = r.messages.back().content;
    const size_t at = ask.find("Write the section \"");
    if (at == std::string::npos)
        return {};
    const size_t from = at + 19;
    return ask.substr(from, ask.find('"', from) - from);
}

// Planted figures on the sample report (see tests/core/report/test_report_generator.cpp).
std::string answerFor(const std::string& heading) {
    if (heading == "Investment summary")
        return "Northwind's revenue rose 7.4% to $4.5 billion in 2025 [p. 2]. Free cash flow "
               "was $640 million [p. 2].";
    if (heading == "Financial performance")
        return "| Metric | 2025 | 2024 |\n| --- | --- | --- |\n"
               "| Net income | $512 million [p. 3] | $457 million [p. 3] |\n";
    if (heading == "Risks")
        return "- The order book stood at $2.31 billion [p. 4].";
    return "- Steady operations [p. 2].";
}

class ScriptedBackend : public ChatBackend {
public:
    ~ScriptedBackend() override {
        for (auto& t : threads_)
            t.join();
    }
    RequestId submit(Request r) override {
        std::lock_guard lk(m_);
        const RequestId id = RequestId(asked_.size()) + 1;
        asked_.push_back(headingOf(r));
        threads_.emplace_back([r = std::move(r)] {
            RequestStats st;
            st.text = answerFor(headingOf(r));
            r.callbacks.on_token(st.text, -1);
            st.stop_reason = "eos";
            r.callbacks.on_done(st);
        });
        return id;
    }
    void cancel(RequestId) override {}
    void cancel_all() override {}
    void wait(RequestId) override {}
    ChatBackendStatus status() const override {
        ChatBackendStatus s;
        s.kind = "scripted";
        return s;
    }
    std::vector<std::string> asked() const {
        std::lock_guard lk(m_);
        return asked_;
    }

private:
    mutable std::mutex m_;
    std::vector<std::string> asked_;
    std::vector<std::thread> threads_;
};

} // namespace

class TestReportsWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;
    ScriptedBackend* backend_ = nullptr; // owned by the worker
    QString dir_;

    ReportsDialog* openDialog() {
        QAction* action = window_->findChild<QAction*>(QStringLiteral("actionReports"));
        if (!action)
            return nullptr;
        action->trigger();
        return window_->findChild<ReportsDialog*>(QStringLiteral("reportsDialog"));
    }

private slots:
    void initTestCase() {
        const QString report = folio::test::builtProgram("generated/samples/sample-report.pdf");
        if (!QFile::exists(report)) {
            if (folio::test::isCi())
                QFAIL("the sample report is missing and CI=true (target folio_samples)");
            QSKIP("build the folio_samples target");
        }
        dir_ = folio::test::scratchDir(QStringLiteral("reports-window"));
        qputenv("XDG_CONFIG_HOME", (dir_ + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (dir_ + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (dir_ + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_reports_window"));
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 900);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        backend_ = new ScriptedBackend;
        folio::test::useWindowBackend(*window_, backend_, folio::test::scriptedFacts());
        folio::test::newChatWith(*window_, report);
    }

    void cleanupTestCase() {
        window_->chatPane()->waitForSaves();
        window_.reset();
    }

    void theEquityNoteIsMadeSectionBySection() {
        ReportsDialog* dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        auto* outline = dialog->findChild<QListWidget*>(QStringLiteral("reportOutline"));
        QVERIFY(outline);
        QCOMPARE(outline->count(), 7); // the equity note's outline before anything is made
        QVERIFY(outline->item(2)->text().contains("Financial performance"));

        QSignalSpy finished(dialog, &ReportsDialog::runFinished);
        const QString chatId = window_->chatPane()->currentChat().id;
        dialog->makeReport();
        // The sections go through the jobs' lane: the chat itself is not busy.
        QVERIFY(!window_->chatPane()->library()->isBusy(chatId));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY2(finished.first().at(0).toBool(),
                 qPrintable(dialog->findChild<QLabel*>(QStringLiteral("reportProgress"))->text()));
        QCOMPARE(backend_->asked().size(), size_t(6));
        QCOMPARE(backend_->asked()[2], std::string("Financial performance"));

        const Report& report = dialog->report();
        QVERIFY(report.finished());
        QCOMPARE(tallyFigures(report.sections[0].figures).verified, 2);
        QCOMPARE(tallyFigures(report.sections[0].figures).notFound, 1);
        QCOMPARE(tallyFigures(report.sections[2].figures).verified, 2);
        QCOMPARE(tallyFigures(report.sections[4].figures).otherPage, 1);
        QVERIFY2(outline->item(0)->text().startsWith("✓ 1. Investment summary — figures not "
                                                     "found"),
                 qPrintable(outline->item(0)->text()));
        QVERIFY(outline->item(2)->text().startsWith("✓ 3. Financial performance"));
        QVERIFY(!outline->item(2)->text().contains("not found"));
        QVERIFY(QFile::exists(ReportsDialog::reportPath(chatId)));

        outline->setCurrentRow(2);
        QTest::qWait(50);
        QVERIFY(dialog->grab().save(dir_ + QStringLiteral("/dialog.png")));
        dialog->close();
    }

    void theReportReopensEditsStayAndOneSectionIsMadeAgain() {
        ReportsDialog* dialog = openDialog();
        QVERIFY(dialog);
        QVERIFY(dialog->report().finished());
        dialog->editSection(1, QStringLiteral("Our own words on the segments."));
        QCOMPARE(dialog->report().sections[1].state, ReportSection::State::Edited);

        QSignalSpy finished(dialog, &ReportsDialog::runFinished);
        const size_t before = backend_->asked().size();
        dialog->makeSectionAgain(4);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(backend_->asked().size(), before + 1);
        QCOMPARE(backend_->asked().back(), std::string("Risks"));
        QCOMPARE(dialog->report().sections[1].text,
                 QStringLiteral("Our own words on the segments."));

        const QString pdf = dir_ + QStringLiteral("/note.pdf");
        QCOMPARE(dialog->exportTo(pdf), QString());
        QPdfDocument doc;
        QCOMPARE(doc.load(pdf), QPdfDocument::Error::None);
        QString text;
        for (int i = 0; i < doc.pageCount(); ++i)
            text += doc.getAllText(i).text();
        QVERIFY(text.contains("Our own words on the segments."));
        QVERIFY(text.contains("Figures checked"));
    }
};

QTEST_MAIN(TestReportsWindow)
#include "test_reports_window.moc"
