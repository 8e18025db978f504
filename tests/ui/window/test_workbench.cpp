// Acceptance of the workbench (issue #10), driving the real MainWindow: open the sample report
// and wait for its text, ask the demo model and receive streamed tokens, stop a generation
// (Esc), follow a citation to its page, export to every format and read the files back, restart
// on the same app-data folder and find the chat again; three broken inputs each reported while
// the rest keeps working; the folio binary's --mmproj and --quit-after-answer.
#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QPdfDocument>
#include <QPdfSelection>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "core/export/pdf_export.h"
#include "core/export/transcript_export.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "notifications/notification_area.h"
#include "settings/app_settings.h"
#include "support/test_support.h"
#include "ui/transcript_probe.h"

using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool chatMentions(MainWindow& w, const QString& text) {
    for (const ChatMessage& m : w.chatPane()->messages())
        if (m.text.contains(text) || m.interrupted.contains(text))
            return true;
    return false;
}

// Shown in the notification area, with what to do.
bool notified(MainWindow& w, const QString& text) {
    for (const QString& t : w.chatPane()->notifications()->texts())
        if (t.contains(text) && t.contains(QStringLiteral("File → Open document")))
            return true;
    return false;
}

} // namespace

class TestWorkbench : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Settings, chats and caches of this test live in its own folders.
        const QString xdg = folio::test::scratchDir(QStringLiteral("workbench-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "4,096"
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench"));
        QVERIFY2(QFile::exists(sample(QStringLiteral("sample-report.pdf"))), "no sample report");
        QVERIFY2(QFile::exists(demoModel()), "no demo model");
    }

    void askStopCiteExportRestart() {
        QString chatId;
        qsizetype messageCount = 0;
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-export"));
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QSignalSpy idle(&w, &MainWindow::idle);
            w.openDocuments({sample(QStringLiteral("sample-report.pdf"))});
            w.openModel(demoModel());
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
            QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 30000);

            // The document's text is there, and it goes with the question as a chip.
            const Document& doc = w.documentsPane()->documents().first();
            QCOMPARE(doc.state, Document::State::Ready);
            QVERIFY(doc.pageTexts[1].contains(QStringLiteral("Revenue rose 7.4%")));
            QVERIFY(!doc.thumbnail.isNull());
            const auto chips = w.findChildren<QLabel*>(QStringLiteral("attachmentChip"));
            QCOMPARE(chips.size(), 1);
            // A widget added to a shown layout is shown by a queued call (QLayout::addChildWidget):
            // under ASan the checks above could come first.
            QTRY_VERIFY_WITH_TIMEOUT(chips.first()->isVisible(), 10000);

            // Ask: tokens stream into the last message, then the answer's stats are recorded.
            QSignalSpy streamed(w.chatPane(), &ChatPane::streamed);
            QSignalSpy done(&w, &MainWindow::answerFinished);
            w.ask(QStringLiteral("What was revenue in 2025?"));
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 60000);
            QVERIFY(streamed.size() >= 1);
            const ChatMessage answer = w.chatPane()->messages().last();
            QCOMPARE(answer.role, ChatMessage::Role::Assistant);
            QVERIFY(!answer.text.isEmpty());
            QVERIFY(answer.stats.generatedTokens > 0);
            QVERIFY(answer.stats.promptTokens > 500); // the document is in the prompt
            QVERIFY(answer.stats.decodeTps > 0 && answer.stats.ttftMs > 0);
            // The documents' token estimate now uses the model's measured characters per token.
            const double estimate = double(w.documentsPane()->estimatedTokens());
            QVERIFY2(estimate > 0.7 * answer.stats.promptTokens &&
                         estimate < 1.3 * answer.stats.promptTokens,
                     qPrintable(
                         QStringLiteral("%1 vs %2").arg(estimate).arg(answer.stats.promptTokens)));
            auto* gauge = w.findChild<QProgressBar*>(QStringLiteral("contextGauge"));
            QVERIFY2(gauge->text().contains(QStringLiteral("/ 4,096 tokens")),
                     qPrintable(gauge->text()));
            const ChatMessage question =
                w.chatPane()->messages().at(w.chatPane()->messages().size() - 2);
            QCOMPARE(question.attachments,
                     QStringList{QStringLiteral("Northwind Instruments plc - Annual Report 2025")});

            // Stop with Esc: the request is cancelled and the window is ready again.
            w.activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(&w));
            auto* input = w.findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
            auto* send = w.findChild<QPushButton*>(QStringLiteral("sendButton"));
            input->setFocus();
            input->setPlainText(QStringLiteral("And the operating margin?"));
            done.clear();
            send->click();
            QVERIFY(w.chatPane()->isGenerating());
            QTest::keyClick(input, Qt::Key_Escape);
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 30000);
            QCOMPARE(done.first().first().toString(), QStringLiteral("cancelled"));
            QCOMPARE(w.chatPane()->messages().last().stats.stopReason, QStringLiteral("cancelled"));
            QVERIFY(send->isEnabled());

            // A citation in an answer opens the document at that page.
            w.chatPane()->appendMessage(ChatMessage::Role::Assistant,
                                        QStringLiteral("Revenue was $4.5 billion [p. 3]; see "
                                                       "also [page 5]."));
            TranscriptView* view = w.chatPane()->transcript();
            const int pos =
                folio::test::anchorPosition(view->document(), QStringLiteral("folio:cite/0/3"));
            QVERIFY(pos >= 0);
            QTextCursor cursor(view->document());
            cursor.setPosition(pos + 2);
            view->ensureCursorVisible();
            view->setTextCursor(cursor);
            view->ensureCursorVisible();
            const QPoint at = view->cursorRect(cursor).center();
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
            QTRY_COMPARE(w.documentsPane()->previewPage(), 3);

            // Export to every format.
            for (const char* ext : {"md", "html", "pdf", "json"}) {
                QFuture<QString> written =
                    w.exportTo(dir + QStringLiteral("/summary.") + QLatin1String(ext));
                QTRY_VERIFY_WITH_TIMEOUT(written.isFinished(), 30000);
                QCOMPARE(written.result(), QString());
            }
            const QString md = readAll(dir + QStringLiteral("/summary.md"));
            QVERIFY(md.contains(QStringLiteral("What was revenue in 2025?")));
            QVERIFY(md.contains(QStringLiteral("[p. 3]")));
            const QString html = readAll(dir + QStringLiteral("/summary.html"));
            QVERIFY(html.contains(QStringLiteral("sample-report.pdf#page=3")));
            const QJsonObject json =
                QJsonDocument::fromJson(readAll(dir + QStringLiteral("/summary.json")).toUtf8())
                    .object();
            QCOMPARE(json.value(QStringLiteral("messages")).toArray().size(),
                     w.chatPane()->messages().size());
            QVERIFY(json.value(QStringLiteral("settings"))
                        .toObject()
                        .contains(QStringLiteral("temperature")));
            QPdfDocument pdf;
            QCOMPARE(pdf.load(dir + QStringLiteral("/summary.pdf")), QPdfDocument::Error::None);
            ExportContext ctx;
            ctx.title = w.chatPane()->currentChat().displayTitle();
            ctx.documentPath = w.documentsPane()->documents().first().path;
            ctx.documents = {w.documentsPane()->documents().first().title};
            const PdfExportResult again =
                writeHtmlAsPdf(dir + QStringLiteral("/again.pdf"), ctx.title,
                               transcriptToHtml(w.chatPane()->currentChat(), ctx));
            QCOMPARE(pdf.pageCount(), again.pages);
            QString pdfText;
            for (int i = 0; i < pdf.pageCount(); ++i)
                pdfText += pdf.getAllText(i).text();
            QVERIFY(pdfText.contains(QStringLiteral("What was revenue in 2025?")));
            QVERIFY(pdfText.contains(QStringLiteral("[p. 3]")));

            chatId = w.chatPane()->currentChat().id;
            messageCount = w.chatPane()->messages().size();
            w.close();
        }

        // Restart: a new window on the same app-data folder shows the chat again.
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.chatPane()->currentChat().id, chatId);
        QCOMPARE(again.chatPane()->messages().size(), messageCount);
        const auto& msgs = again.chatPane()->messages();
        QCOMPARE(msgs.first().text, QStringLiteral("What was revenue in 2025?"));
        QVERIFY(msgs.at(1).stats.generatedTokens > 0);
        auto* list = again.findChild<QListWidget*>(QStringLiteral("chatList"));
        QVERIFY(list->count() >= 1);
        QVERIFY(list->item(0)->text().contains(QStringLiteral("What was revenue")));
        QVERIFY(again.chatPane()->transcript()->toPlainText().contains(
            QStringLiteral("What was revenue in 2025?")));
    }

    void brokenInputsAreReportedAndTheRestWorks() {
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-broken"));
        QFile corrupt(dir + QStringLiteral("/corrupt.pdf"));
        QVERIFY(corrupt.open(QIODevice::WriteOnly));
        corrupt.write("%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage garbage\n%%EOF\n");
        corrupt.close();
        QFile empty(dir + QStringLiteral("/empty.png"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();

        MainWindow w;
        w.show();
        w.chatPane()->newChat(); // the chat of the test before keeps its documents
        w.openDocuments({dir + QStringLiteral("/corrupt.pdf"), dir + QStringLiteral("/missing.pdf"),
                         dir + QStringLiteral("/empty.png"),
                         sample(QStringLiteral("sample-report.pdf"))});
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
        const auto& docs = w.documentsPane()->documents();
        QCOMPARE(docs.size(), 4);
        auto* list = w.findChild<QListWidget*>(QStringLiteral("documentList"));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(docs[i].state, Document::State::Failed);
            QVERIFY2(list->item(i)->text().contains(docs[i].error), qPrintable(docs[i].error));
        }
        QVERIFY(docs[0].error.contains(QStringLiteral("corrupt.pdf")));
        QVERIFY(docs[1].error.contains(QStringLiteral("not found")));
        QVERIFY(docs[2].error.contains(QStringLiteral("empty.png")));
        // Said in the notification area (what happened, what to do), not saved in the chat.
        QVERIFY(notified(w, QStringLiteral("corrupt.pdf")));
        QVERIFY(notified(w, QStringLiteral("missing.pdf")));
        QVERIFY(notified(w, QStringLiteral("empty.png")));
        QVERIFY(w.chatPane()->notifications()->isVisible());
        QVERIFY(!chatMentions(w, QStringLiteral("corrupt.pdf")));
        QVERIFY(!chatMentions(w, QStringLiteral("missing.pdf")));
        QVERIFY(!chatMentions(w, QStringLiteral("empty.png")));
        // The good document is ready, and opening more still works.
        QCOMPARE(docs[3].state, Document::State::Ready);
        QCOMPARE(docs[3].pageCount, 8);
        QVERIFY(w.documentsPane()->showPage(8));
        // Dropping a file on the Documents pane opens it.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(sample(QStringLiteral("revenue-chart.png")))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QCoreApplication::sendEvent(w.documentsPane(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, {});
        QCoreApplication::sendEvent(w.documentsPane(), &drop);
        QCOMPARE(w.documentsPane()->documents().size(), 5);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 30000);
        QCOMPARE(w.documentsPane()->documents().last().state, Document::State::Ready);
        // The pane's Recent button offers what was opened.
        auto* recent = w.findChild<QToolButton*>(QStringLiteral("recentDocumentsButton"));
        QVERIFY(recent && recent->isEnabled());
        QVERIFY(recent->menu()->actions().size() >= 2);
        QCOMPARE(recent->menu()->actions().first()->text(), QStringLiteral("revenue-chart.png"));
    }

    void firstRunOffersTheDemoModel() {
        MainWindow w;
        w.show();
        auto* notice = w.findChild<QLabel*>(QStringLiteral("chatModelNotice"));
        QVERIFY(notice->isVisible());
        QVERIFY2(notice->text().contains(QStringLiteral("folio:demo")), qPrintable(notice->text()));
        QVERIFY(notice->text().contains(QStringLiteral("GGUF")));
        Q_EMIT notice->linkActivated(QStringLiteral("folio:demo"));
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 30000);
        QVERIFY(!notice->isVisible());
        QCOMPARE(AppSettings::load().modelPath, QFileInfo(demoModel()).canonicalFilePath());
    }

    void chartGoesWithTheQuestionWithAVisionProjector() {
        FOLIO_REQUIRE_CONFORMANCE(conformance);
        const QString models = conformance + QStringLiteral("/models");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString home = folio::test::scratchDir(QStringLiteral("workbench-vision"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        p.setProcessEnvironment(env);
        p.start(folio::test::builtProgram(QStringLiteral("app/folio")),
                {sample(QStringLiteral("revenue-chart.png")), QStringLiteral("--model"),
                 models + QStringLiteral("/ds2-vl-text-f32.gguf"), QStringLiteral("--mmproj"),
                 models + QStringLiteral("/kimivl-mmproj-f32.gguf"), QStringLiteral("--ask"),
                 QStringLiteral("What does the chart show?"),
                 QStringLiteral("--quit-after-answer")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QDir chats(home + QStringLiteral("/data/Folio/folio/chats"));
        const QStringList files = chats.entryList(QDir::Files);
        QCOMPARE(files.size(), 1);
        const QJsonObject chat =
            QJsonDocument::fromJson(readAll(chats.filePath(files.first())).toUtf8()).object();
        const QJsonArray messages = chat.value(QStringLiteral("messages")).toArray();
        QCOMPARE(messages.size(), 2);
        const QJsonObject stats = messages[1].toObject().value(QStringLiteral("stats")).toObject();
        // The question alone is a few dozen tokens; the chart adds hundreds of image rows.
        QVERIFY2(stats.value(QStringLiteral("prompt_tokens")).toInt() > 300,
                 qPrintable(QString::number(stats.value(QStringLiteral("prompt_tokens")).toInt())));
        QCOMPARE(messages[0].toObject().value(QStringLiteral("attachments")).toArray().first(),
                 QJsonValue(QStringLiteral("revenue-chart.png")));
    }

    void commandLineAsksAndQuits() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString home = folio::test::scratchDir(QStringLiteral("workbench-cli"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        p.setProcessEnvironment(env);
        const QString folio = folio::test::builtProgram(QStringLiteral("app/folio"));
        p.start(folio, {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(30000));
        const QString help = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY(help.contains(QStringLiteral("--mmproj")));
        QVERIFY(help.contains(QStringLiteral("--quit-after-answer")));

        p.start(folio, {sample(QStringLiteral("sample-report.pdf")), QStringLiteral("--model"),
                        demoModel(), QStringLiteral("--ask"), QStringLiteral("Summarize."),
                        QStringLiteral("--quit-after-answer")});
        QVERIFY(p.waitForFinished(90000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        // The answer was kept as a chat in the app-data folder.
        const QStringList chats =
            QDir(home + QStringLiteral("/data/Folio/folio/chats")).entryList(QDir::Files);
        QCOMPARE(chats.size(), 1);

        p.start(folio, {QStringLiteral("--quit-after-answer")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
    }
};

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"
