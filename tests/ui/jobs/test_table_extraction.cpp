// "Extract table" end to end (issue #23, chart → table), through the real MainWindow, its Tools
// menu action, TableExtractor, EngineWorker and TableDialog, with a scripted model behind the
// ChatBackend interface (a server that takes images: the request it receives is the real one,
// built by the worker). The chart image selected in the Documents pane goes with the strict
// table instruction; a valid table is shown cell by cell, copied as TSV and exported as CSV (read
// back and compared) and Markdown; a ragged table and prose are reported in words with no cells;
// a backend failure and a model that cannot see images are reported too. A screenshot of the
// extracted table over the workbench is written.
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QThread>
#include <QtTest>

#include "backend/engine_worker.h"
#include "chat/chat_pane.h"
#include "chat/question_images_bar.h"
#include "core/chat/question_image.h"
#include "core/pipeline/token_counter.h"
#include "documents/documents_pane.h"
#include "documents/highlight_pdf_view.h"
#include "jobs/extract_table_action.h"
#include "jobs/table_dialog.h"
#include "jobs/table_extractor.h"
#include "jobs/table_request.h"
#include "main_window.h"
#include "support/test_support.h"

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

using namespace folio;
using namespace folio::ui;

#include "ui/jobs/table_extraction_script.h"

class TestTableExtraction : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;
    ScriptedBackend* backend_ = nullptr; // owned by the worker
    std::string answer_ = kValid;
    QString chart_;

    ExtractTableAction* extractAction() const { return window_->findChild<ExtractTableAction*>(); }

    void useScript(bool acceptsImages) {
        auto* backend = new ScriptedBackend([this](const Request&) { return answer_; });
        backend_ = backend;
        EngineWorker* worker = window_->engineWorker();
        ModelFactsQ facts;
        facts.name = QStringLiteral("scripted-vl");
        facts.contextLimit = 8192;
        facts.remote = true;
        facts.acceptsImages = acceptsImages;
        // Queued to this thread after the window's own receivers (connected earlier), so once
        // it arrives they have all seen the new facts.
        int announced = 0;
        const QMetaObject::Connection c =
            connect(worker, &EngineWorker::modelLoaded, this, [&announced] { ++announced; });
        QMetaObject::invokeMethod(
            worker,
            [worker, backend, facts] {
                worker->setBackend(std::unique_ptr<ChatBackend>(backend), facts);
            },
            Qt::BlockingQueuedConnection);
        QTRY_COMPARE(announced, 1);
        disconnect(c);
        QVERIFY(window_->modelReady());
    }

    // Triggers the menu action on the selected image and waits for the dialog's outcome.
    TableDialog* extract(const std::string& answer) {
        answer_ = answer;
        QAction* action = window_->findChild<QAction*>(QStringLiteral("actionExtractTable"));
        if (!action)
            return nullptr;
        action->trigger();
        TableDialog* dialog = extractAction()->dialog();
        if (!dialog)
            return nullptr;
        TableExtractor* extractor = extractAction()->extractor();
        const bool done = QTest::qWaitFor([extractor] { return !extractor->isRunning(); }, 20000);
        return done ? dialog : nullptr;
    }

private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("table-extraction-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_table_extraction"));
        chart_ = sample(QStringLiteral("revenue-chart.png"));
        QVERIFY2(QFile::exists(chart_), qPrintable(chart_));
        window_ = std::make_unique<MainWindow>();
        window_->resize(1400, 860);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(extractAction());

        // The action is in the Tools menu and needs a selected image.
        QAction* action = window_->findChild<QAction*>(QStringLiteral("actionExtractTable"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled());
        window_->openDocuments({sample(QStringLiteral("sample-report.pdf")), chart_});
        QTRY_COMPARE_WITH_TIMEOUT(window_->documentsPane()->pendingLoads(), 0, 20000);
        auto* list =
            window_->documentsPane()->findChild<QListWidget*>(QStringLiteral("documentList"));
        QVERIFY(list);
        list->setCurrentRow(0); // the PDF: not an image
        QVERIFY(extractAction()->selectedImage().isEmpty());
        list->setCurrentRow(1);
        QCOMPARE(extractAction()->selectedImage(), chart_);
        QMenu* tools = nullptr;
        for (QAction* a : window_->menuBar()->actions())
            if (a->menu() && a->menu()->actions().contains(action))
                tools = a->menu();
        QVERIFY(tools);
        QCOMPARE(tools->title(), QStringLiteral("&Tools"));
        Q_EMIT tools->aboutToShow(); // the enabled state follows the selection when it opens
        QVERIFY(action->isEnabled());
    }

    void cleanupTestCase() { window_.reset(); }

    // Before a model: refused with a reason, nothing sent.
    void refusedWithoutAModel() {
        TableDialog* d = extract(kValid);
        QVERIFY(d);
        QVERIFY(!d->hasTable());
        QVERIFY2(d->statusText().contains(QStringLiteral("No model")), qPrintable(d->statusText()));
        d->hide();
    }

    // A server that does not take images: refused, and the request never reaches it.
    void refusedWhenTheModelCannotSeeImages() {
        useScript(false);
        TableDialog* d = extract(kValid);
        QVERIFY(d);
        QVERIFY(!d->hasTable());
        QVERIFY2(d->statusText().contains(QStringLiteral("cannot see images")),
                 qPrintable(d->statusText()));
        QVERIFY(backend_->requests().empty());
        d->hide();
    }

    void validTableRoundTrip() {
        useScript(true);
        TableDialog* d = extract(kValid);
        QVERIFY(d);
        QVERIFY2(d->hasTable(), qPrintable(d->statusText()));
        QVERIFY(d->isVisible());

        // What the model received: the instruction and the chart on the user turn.
        const std::vector<Request> sent = backend_->requests();
        QCOMPARE(sent.size(), size_t(1));
        const Message& user = sent[0].messages.back();
        QCOMPARE(user.role, std::string("user"));
        QCOMPARE(QString::fromStdString(user.content), tableExtractionInstruction());
        QCOMPARE(user.images.size(), size_t(1));
        QCOMPARE(QString::fromStdString(user.images[0].path), chart_);
        QCOMPARE(sent[0].sampling.temperature, 0.0f);
        QVERIFY(QString::fromStdString(user.content).contains(QStringLiteral("| --- | --- |")));

        // The view: 4 rows × 4 columns, the cells as the reply had them.
        QStandardItemModel* m = d->model();
        QCOMPARE(m->columnCount(), 4);
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(m->horizontalHeaderItem(1)->text(), QStringLiteral("FY2024 revenue ($m)"));
        QCOMPARE(m->horizontalHeaderItem(3)->text(), QStringLiteral("Growth, \"YoY\" (%)"));
        QCOMPARE(m->item(0, 0)->text(), QStringLiteral("Q1"));
        QCOMPARE(m->item(2, 2)->text(), QStringLiteral("1135"));
        QCOMPARE(m->item(3, 1)->text(), QStringLiteral("1108"));
        QCOMPARE(m->item(3, 3)->text(), QStringLiteral("7.0"));
        QVERIFY(d->findChild<QTableView*>(QStringLiteral("tableView"))->isVisible());
        QVERIFY2(d->statusText().contains(QStringLiteral("4 rows × 4 columns")),
                 qPrintable(d->statusText()));

        // Copy: TSV on the clipboard.
        d->copyToClipboard();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("Quarter\tFY2024 revenue ($m)\tFY2025 revenue ($m)\tGrowth, "
                                "\"YoY\" (%)\nQ1\t1002\t1071\t6.9\nQ2\t1031\t1108\t7.5\n"
                                "Q3\t1049\t1135\t8.2\nQ4\t1108\t1186\t7.0\n"));

        // Export CSV, read back cell by cell against the reply's cells (written out by hand).
        const QString dir = folio::test::scratchDir(QStringLiteral("table-export"));
        QCOMPARE(d->exportCsv(dir + QStringLiteral("/revenue.csv")), QString());
        const QList<QStringList> expected = {
            {"Quarter", "FY2024 revenue ($m)", "FY2025 revenue ($m)", "Growth, \"YoY\" (%)"},
            {"Q1", "1002", "1071", "6.9"},
            {"Q2", "1031", "1108", "7.5"},
            {"Q3", "1049", "1135", "8.2"},
            {"Q4", "1108", "1186", "7.0"}};
        const QString csv = readText(dir + QStringLiteral("/revenue.csv"));
        QVERIFY(csv.startsWith(QStringLiteral("Quarter,FY2024 revenue ($m),FY2025 revenue ($m),"
                                              "\"Growth, \"\"YoY\"\" (%)\"\r\nQ1,1002,")));
        const QList<QStringList> back = readCsv(csv);
        QCOMPARE(back.size(), expected.size());
        for (int r = 0; r < expected.size(); ++r) {
            QCOMPARE(back[r].size(), expected[r].size());
            for (int c = 0; c < expected[r].size(); ++c)
                QCOMPARE(back[r][c], expected[r][c]);
        }
        // Export Markdown: a clean pipe table.
        QCOMPARE(d->exportMarkdown(dir + QStringLiteral("/revenue.md")), QString());
        QCOMPARE(readText(dir + QStringLiteral("/revenue.md")).section(QLatin1Char('\n'), 0, 2),
                 QStringLiteral("| Quarter | FY2024 revenue ($m) | FY2025 revenue ($m) | Growth, "
                                "\"YoY\" (%) |\n| --- | --- | --- | --- |\n"
                                "| Q1 | 1002 | 1071 | 6.9 |"));
        // A write that cannot happen is a message, and the earlier file stays.
        const QString bad = d->exportCsv(dir + QStringLiteral("/no-such-dir/revenue.csv"));
        QVERIFY2(bad.contains(QStringLiteral("revenue.csv")), qPrintable(bad));

        // Screenshot: the extracted table over the workbench.
        QTest::qWait(50);
        QImage shot = window_->grab().toImage();
        {
            QPainter p(&shot);
            const QPixmap dialog = d->grab();
            p.drawPixmap((shot.width() - dialog.width()) / 2, (shot.height() - dialog.height()) / 2,
                         dialog);
        }
        const QString shotPath =
            folio::test::scratchDir(QStringLiteral("table-shot")) + QStringLiteral("/table.png");
        QVERIFY(shot.save(shotPath));
        qInfo("screenshot: %s", qPrintable(shotPath));
        if (const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR"); !shots.isEmpty())
            QVERIFY(shot.save(shots + QStringLiteral("/extracted-table.png")));
    }

    void raggedTableIsReportedNotShown() {
        TableDialog* d = extract(kRagged);
        QVERIFY(d);
        QVERIFY(!d->hasTable());
        QVERIFY2(d->statusText().contains(QStringLiteral("ragged")) &&
                     d->statusText().contains(QStringLiteral("row 3 has 1 cells")),
                 qPrintable(d->statusText()));
        QCOMPARE(d->model()->rowCount(), 0);
        QVERIFY(!d->findChild<QTableView*>(QStringLiteral("tableView"))->isVisible());
        // the model's text is there to read, as text
        auto* reply = d->findChild<QPlainTextEdit*>(QStringLiteral("tableReply"));
        QVERIFY(reply->isVisible());
        QCOMPARE(reply->toPlainText(), QString::fromUtf8(kRagged));
        QVERIFY(!d->exportCsv(folio::test::scratchDir(QStringLiteral("table-ragged")) +
                              QStringLiteral("/x.csv"))
                     .isEmpty());
    }

    void proseIsNotATable() {
        TableDialog* d = extract(kProse);
        QVERIFY(d);
        QVERIFY(!d->hasTable());
        // Issue #48 §13: in the user's words, the Markdown rule in a details line, and Retry.
        QCOMPARE(d->statusText(), QStringLiteral("The model's answer did not contain a table. Try "
                                                 "again, or choose another image."));
        QVERIFY2(d->detailText().contains(QStringLiteral("separator row (| --- |)")),
                 qPrintable(d->detailText()));
        QCOMPARE(d->model()->rowCount(), 0);
        QCOMPARE(d->model()->columnCount(), 0);
        QPushButton* retry = d->retryButton();
        QVERIFY(retry->isVisible());
        // Retry asks about the same image again; this time the model writes the table.
        const size_t before = backend_->requests().size();
        answer_ = kValid;
        retry->click();
        TableExtractor* extractor = extractAction()->extractor();
        QVERIFY(QTest::qWaitFor([extractor] { return !extractor->isRunning(); }, 20000));
        QCOMPARE(backend_->requests().size(), before + 1);
        QCOMPARE(QString::fromStdString(backend_->requests().back().messages.back().images[0].path),
                 chart_);
        QVERIFY2(d->hasTable(), qPrintable(d->statusText()));
        QVERIFY(!retry->isVisible());
        QVERIFY(d->detailText().isEmpty());
    }

    void csvExportSaysWhereItWent() {
        // Issue #48 §13: a CSV export said nothing. It says "Saved the table to PATH" in the
        // dialog and in the window's status bar, and the file is written whole (QSaveFile).
        TableDialog* d = extract(kValid);
        QVERIFY(d);
        QVERIFY(d->hasTable());
        const QString path =
            folio::test::scratchDir(QStringLiteral("table-csv-saved")) + QStringLiteral("/t.csv");
        QCOMPARE(d->exportTo(path, true), QString());
        const QString said =
            QStringLiteral("Saved the table to %1").arg(QDir::toNativeSeparators(path));
        QCOMPARE(d->statusText(), said);
        QCOMPARE(window_->statusBar()->currentMessage(), said);
        QVERIFY(readText(path).startsWith(QStringLiteral("Quarter,")));
        QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::Files), QStringList{"t.csv"});
    }

    // Extract table from an image attached to the question (a chart or a part of a page cut
    // around one): the chip's "Extract table" sends that image.
    void fromAnAttachedImage() {
        if (!backend_) // run alone
            useScript(true);
        const QString dir = folio::test::scratchDir(QStringLiteral("table-from-chip"));
        QImage crop(320, 200, QImage::Format_RGB888);
        crop.fill(Qt::white);
        const StoredImage stored = storeImage(crop, dir);
        QVERIFY2(stored.ok(), qPrintable(stored.error));
        QuestionImage image;
        image.kind = QuestionImage::Kind::Crop;
        image.source = QStringLiteral("/r/report.pdf");
        image.page = 4;
        image.region = QRectF(0.1, 0.1, 0.8, 0.4);
        image.file = stored.file;
        QuestionImagesBar* bar = window_->chatPane()->questionImages();
        bar->add(image);
        const size_t before = backend_->requests().size();
        answer_ = kValid;
        Q_EMIT bar->extractTableRequested(image);
        TableExtractor* extractor = extractAction()->extractor();
        QVERIFY(extractor);
        QVERIFY(QTest::qWaitFor([extractor] { return !extractor->isRunning(); }, 20000));
        TableDialog* d = extractAction()->dialog();
        QVERIFY(d && d->hasTable());
        QCOMPARE(d->model()->rowCount(), 4);
        const std::vector<Request> sent = backend_->requests();
        QCOMPARE(sent.size(), before + 1);
        QCOMPARE(QString::fromStdString(sent.back().messages.back().images.at(0).path),
                 stored.file);
        bar->clear();
    }

    // A table read from a PDF's page (issue #46 §2): with the report selected, the action reads
    // the page shown (page 3, the financial highlights, rendered and sent as one image), and
    // the cells' figures are checked against that page's text — the model's reply plants a
    // wrong figure (521 for 512), a figure only in page 4's chart image (1,108) and one on page
    // 4's text ($1,186 million). Each cell's mark, tooltip and the count line; the CSV carries
    // the cells without marks.
    void figuresOfATableFromAPage() {
        if (!backend_) // run alone
            useScript(true);
        auto* list =
            window_->documentsPane()->findChild<QListWidget*>(QStringLiteral("documentList"));
        QVERIFY(list);
        list->setCurrentRow(0);
        QVERIFY(window_->documentsPane()->showPage(0, 3));
        QAction* action = window_->findChild<QAction*>(QStringLiteral("actionExtractTable"));
        QVERIFY(action);
        for (QAction* a : window_->menuBar()->actions())
            if (a->menu() && a->menu()->actions().contains(action))
                Q_EMIT a->menu()->aboutToShow();
        QVERIFY(action->isEnabled());
        QCOMPARE(action->text(), QStringLiteral("Extract &table from page 3"));
        const size_t before = backend_->requests().size();
        answer_ = "| Metric | 2024 | 2025 |\n| --- | ---: | ---: |\n"
                  "| Revenue | 4,190 | 4,500 |\n| Operating income | 595 | 711 |\n"
                  "| Net income | 457 | 521 |\n| Free cash flow | 538 | 603 |\n"
                  "| Employees | 11,020 | 11,400 |\n| Q4 revenue | 1,108 | 1,186 |\n";
        action->trigger();
        TableDialog* d = extractAction()->dialog();
        QVERIFY(d);
        QTRY_VERIFY_WITH_TIMEOUT(d->hasTable() && !d->figuresText().isEmpty(), 30000);
        QCOMPARE(extractAction()->figureChecksRunning(), 0);
        const std::vector<Request> sent = backend_->requests();
        QCOMPARE(sent.size(), before + 1);
        QCOMPARE(sent.back().messages.back().images.size(), size_t(1));
        QVERIFY2(d->statusText().contains(QStringLiteral("page 3")), qPrintable(d->statusText()));

        QCOMPARE(d->figuresText(),
                 QStringLiteral("Figures: 9 verified · 1 on another page · 2 not found"));
        QVERIFY(d->findChild<QLabel*>(QStringLiteral("tableFigures"))->isVisible());
        using State = CheckedFigure::State;
        QCOMPARE(d->cellFigureStates(0, 0), QList<State>{});
        QCOMPARE(d->cellFigureStates(0, 2), QList<State>{State::Verified});
        QCOMPARE(d->cellFigureStates(2, 2), QList<State>{State::NotFound});
        QCOMPARE(d->cellFigureStates(5, 1), QList<State>{State::NotFound});
        QCOMPARE(d->cellFigureStates(5, 2), QList<State>{State::OtherPage});
        QStandardItemModel* m = d->model();
        QCOMPARE(m->item(0, 2)->text(), QStringLiteral("4,500 ✓"));
        QCOMPARE(m->item(2, 2)->text(), QStringLiteral("521 ✗"));
        QCOMPARE(m->item(5, 2)->text(), QStringLiteral("1,186 ⚠"));
        QCOMPARE(m->item(0, 0)->text(), QStringLiteral("Revenue"));
        QVERIFY2(m->item(0, 2)->toolTip().contains(QStringLiteral("Revenue 3,902 4,190 4,500")),
                 qPrintable(m->item(0, 2)->toolTip()));
        QVERIFY2(m->item(5, 2)->toolTip().contains(QStringLiteral("$1,186 million")),
                 qPrintable(m->item(5, 2)->toolTip()));
        QCOMPARE(m->item(2, 2)->data(TableDialog::kFigureStatesRole).toList(),
                 QVariantList{int(State::NotFound)});
        // The mark's colour is the palette's tone for its state (a not-found cell differs from a
        // verified one).
        QVERIFY(m->item(2, 2)->foreground().color() != m->item(0, 2)->foreground().color());

        // The CSV is the model's cells, without marks.
        const QString dir = folio::test::scratchDir(QStringLiteral("table-figures"));
        QCOMPARE(d->exportCsv(dir + QStringLiteral("/highlights.csv")), QString());
        const QList<QStringList> back = readCsv(readText(dir + QStringLiteral("/highlights.csv")));
        QCOMPARE(back.size(), 7);
        QCOMPARE(back[3], (QStringList{"Net income", "457", "521"}));
        QCOMPARE(back[6], (QStringList{"Q4 revenue", "1,108", "1,186"}));

        // Double-clicking the figure on another page opens that page in the preview.
        QSignalSpy opened(d, &TableDialog::figurePageRequested);
        auto* view = d->findChild<QTableView*>(QStringLiteral("tableView"));
        Q_EMIT view->doubleClicked(m->index(5, 2));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened[0][0].toInt(), 4);
        QCOMPARE(opened[0][1].toString(), QStringLiteral("$1,186 million"));
        QCOMPARE(window_->documentsPane()->previewPage(), 4);
        // …with the page's figure highlighted there (page 4 is index 3).
        QTRY_COMPARE(window_->documentsPane()->pdfView()->highlightPage(), 3);
        QVERIFY(!window_->documentsPane()->pdfView()->highlightBoxes().isEmpty());

        QTest::qWait(50);
        const QString shots = qEnvironmentVariable("FOLIO_SHOTS_DIR");
        const QString shotPath =
            (shots.isEmpty() ? folio::test::scratchDir(QStringLiteral("table-figures-shot"))
                             : shots) +
            QStringLiteral("/table-figures.png");
        QVERIFY(d->grab().save(shotPath));
        qInfo("screenshot: %s", qPrintable(shotPath));
        list->setCurrentRow(1); // the chart again, for the tests after this one
    }

    void backendErrorIsReported() {
        const size_t before = backend_->requests().size();
        TableDialog* d = extract("<error>");
        QVERIFY(d);
        QVERIFY(!d->hasTable());
        QVERIFY2(d->statusText().contains(QStringLiteral("server said 400")),
                 qPrintable(d->statusText()));
        // and the next extraction works again
        d = extract(kValid);
        QVERIFY(d->hasTable());
        QCOMPARE(backend_->requests().size(), before + 2);
    }

    // The real path: the embedded engine with the conformance Kimi-VL pair (a tiny random model,
    // so its answer is no table) reads the chart through EngineWorker, the answer is reported
    // in words, and the prompt it ran holds the image: prompt_tokens equals the exact count of
    // the same turns (TokenCounter, through Engine::count_tokens) and exceeds the count without
    // the image by at least the chart's 48 image rows (conformance README §3).
    void embeddedEngineWithProjector() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        QThread thread;
        auto* worker = new EngineWorker;
        worker->moveToThread(&thread);
        thread.start();
        TokenCounter counter;
        RequestStatsQ stats;
        int loaded = 0, finished = 0;
        connect(worker, &EngineWorker::modelLoaded, this, [&loaded] { ++loaded; });
        connect(worker, &EngineWorker::counterChanged, this,
                [&counter](const TokenCounter& c) { counter = c; });
        connect(worker, &EngineWorker::finished, this, [&](qint64, const RequestStatsQ& s) {
            stats = s;
            ++finished;
        });
        LoadOptions load;
        load.model = dir + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        load.mmproj = dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        load.threads = 2;
        load.speculation = false;
        QMetaObject::invokeMethod(worker, [worker, load] { worker->loadModel(load); });
        QTRY_COMPARE_WITH_TIMEOUT(loaded, 1, 30000);
        QTRY_VERIFY(counter.exact());

        const QString chart = dir + QStringLiteral("/models/chart.png");
        TableExtractor extractor(worker);
        QSignalSpy extracted(&extractor, &TableExtractor::extracted);
        QSignalSpy failedSpy(&extractor, &TableExtractor::failed);
        extractor.extract(chart);
        QTRY_VERIFY_WITH_TIMEOUT(extracted.size() + failedSpy.size() == 1, 120000);
        QTRY_COMPARE(finished, 1);
        QVERIFY2(failedSpy.isEmpty(),
                 failedSpy.isEmpty() ? "" : qPrintable(failedSpy.first().at(0).toString()));
        const TableParse parse = extracted.first().at(0).value<TableParse>();
        const QString reply = extracted.first().at(1).toString();
        qInfo("embedded answer: %lld prompt tokens, %lld generated, status %d: %s",
              static_cast<long long>(stats.promptTokens),
              static_cast<long long>(stats.generatedTokens), int(parse.status),
              qPrintable(parse.message));
        if (!parse.ok()) { // reported in words, no cells
            QVERIFY(!parse.message.isEmpty());
            QVERIFY(parse.table.rows.isEmpty());
        }
        const QList<ChatTurn> turns = tableExtractionTurns(chart);
        QCOMPARE(stats.promptTokens, counter.prompt(turns));
        QList<ChatTurn> textOnly = turns;
        textOnly.last().images.clear();
        QVERIFY2(
            stats.promptTokens >= counter.prompt(textOnly) + 48,
            qPrintable(
                QStringLiteral("%1 vs %2").arg(stats.promptTokens).arg(counter.prompt(textOnly))));

        QMetaObject::invokeMethod(
            worker, [worker] { delete worker; }, Qt::BlockingQueuedConnection);
        thread.quit();
        thread.wait();
    }
};

QTEST_MAIN(TestTableExtraction)
#include "test_table_extraction.moc"
