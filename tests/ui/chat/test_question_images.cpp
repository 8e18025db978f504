// Images per question (issue #23 §2): a part of a page selected with the mouse on the page
// preview's crop dialog becomes a chip, goes with that question only — into the prompt as an
// image whose rows the model counts (the engine's own count with and without it differs by the
// canvas cells, computed here from the page size) — and the question keeps it across a restart.
// Also: only attached images go (an open image document does not), a model without vision
// names them as left out, and the store keeps files by content and refuses what is not an image.
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfDocument>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "ask_when_idle.h"
#include "chat/chat_controller.h"
#include "chat/chat_pane.h"
#include "chat/conversation_prompt.h"
#include "chat/question_image_attacher.h"
#include "chat/question_images_bar.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/question_image.h"
#include "documents/documents_pane.h"
#include "documents/page_crop_dialog.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString sampleReport() {
    return folio::test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
}

bool near(double a, double b, double tolerance) {
    return std::abs(a - b) <= tolerance;
}

} // namespace

class TestQuestionImages : public QObject {
    Q_OBJECT
    QString conformance_;

private Q_SLOTS:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("question-images-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_question_images"));
        FOLIO_REQUIRE_CONFORMANCE(dir);
        conformance_ = dir;
        QVERIFY2(QFile::exists(sampleReport()), qPrintable(sampleReport()));
    }

    void cropFromThePreviewIsAskedAndSurvivesARestart() {
        const QString model = conformance_ + QStringLiteral("/models/ds2-vl-text-f32.gguf");
        const QString mmproj = conformance_ + QStringLiteral("/models/kimivl-mmproj-f32.gguf");
        QString chatId, stored;
        QRectF region;
        const QString label = QStringLiteral("sample-report.pdf p. 1 (part)");
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.chatPane()->newChat();
            chatId = w.chatPane()->currentChat().id;
            w.openDocuments({sampleReport()});
            w.setMmproj(mmproj);
            w.openModel(model);
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 60000);
            // The crop dialog, dragged with the mouse from (0.1, 0.2) to (0.6, 0.5) of the page.
            PageCropDialog* dialog = w.documentsPane()->attachPartOfPage(0, 1);
            QVERIFY(dialog);
            QTRY_VERIFY_WITH_TIMEOUT(dialog->isRendered(), 30000);
            PageSelectionView* view = dialog->view();
            QVERIFY(view->hasPage());
            auto* attach = dialog->findChild<QPushButton*>(QStringLiteral("attachSelection"));
            QVERIFY(attach);
            QVERIFY(!attach->isEnabled()); // nothing selected yet
            const QRect r = view->pageRect();
            auto at = [&r](double fx, double fy) {
                return QPoint(r.x() + int(std::lround(fx * r.width())),
                              r.y() + int(std::lround(fy * r.height())));
            };
            QTest::mousePress(view, Qt::LeftButton, {}, at(0.1, 0.2));
            QMouseEvent move(QEvent::MouseMove, at(0.4, 0.35), view->mapToGlobal(at(0.4, 0.35)),
                             Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(view, &move);
            QTest::mouseRelease(view, Qt::LeftButton, {}, at(0.6, 0.5));
            region = dialog->region();
            const double pixel = 1.5 / std::min(r.width(), r.height());
            QVERIFY2(near(region.x(), 0.1, pixel) && near(region.y(), 0.2, pixel) &&
                         near(region.width(), 0.5, pixel) && near(region.height(), 0.3, pixel),
                     qPrintable(QStringLiteral("%1 %2 %3 %4")
                                    .arg(region.x())
                                    .arg(region.y())
                                    .arg(region.width())
                                    .arg(region.height())));
            QVERIFY(attach->isEnabled());
            QTest::mouseClick(attach, Qt::LeftButton);

            // The chip, and the stored image on the canvas of the part's own size.
            QuestionImagesBar* bar = w.chatPane()->questionImages();
            QTRY_COMPARE_WITH_TIMEOUT(bar->labels(), QStringList{label}, 30000);
            QVERIFY(bar->isVisible());
            stored = bar->images().first().file;
            QPdfDocument pdf;
            QCOMPARE(pdf.load(sampleReport()), QPdfDocument::Error::None);
            const QSizeF page = pdf.pagePointSize(0);
            const QSize canvas = pageCanvasSize(
                QSizeF(page.width() * region.width(), page.height() * region.height()),
                PageRenderParams{});
            QCOMPARE(QImageReader(stored).size(), canvas);
            const qint64 cells = (canvas.width() / 28) * (canvas.height() / 28);

            // Asked: the question takes the chip; its prompt carries the image.
            QSignalSpy done(&w, &MainWindow::answerFinished);
            w.ask(QStringLiteral("What does this part of the cover show?"));
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 180000);
            QVERIFY(bar->images().isEmpty());
            QVERIFY(!bar->isVisible());
            const QList<ChatMessage>& messages = w.chatPane()->messages();
            QCOMPARE(messages.last().role, ChatMessage::Role::Assistant);
            const ChatMessage& question = messages[messages.size() - 2];
            QCOMPARE(question.role, ChatMessage::Role::User);
            QCOMPARE(question.images.size(), 1);
            QCOMPARE(question.images.first().file, stored);
            QCOMPARE(question.images.first().kind, QuestionImage::Kind::Crop);
            auto* controller = w.findChild<ChatController*>();
            QVERIFY(controller);
            const PromptPlan& plan = controller->lastPlan();
            QCOMPARE(plan.turns.last().images, QStringList{stored});
            const qint64 withImage = messages.last().stats.promptTokens;
            QCOMPARE(withImage, plan.promptTokens); // what the engine ran is what was planned
            QList<ChatTurn> textOnly = plan.turns;
            textOnly.last().images.clear();
            const qint64 withoutImage = controller->counter().prompt(textOnly);
            qInfo("crop %dx%d (%lld cells): prompt %lld tokens with it, %lld without",
                  canvas.width(), canvas.height(), static_cast<long long>(cells),
                  static_cast<long long>(withImage), static_cast<long long>(withoutImage));
            // Its rows plus the few tokens that wrap an image in the Kimi-VL template.
            QVERIFY2(withImage - withoutImage >= cells && withImage - withoutImage <= cells + 4,
                     qPrintable(QString::number(withImage - withoutImage)));
            QVERIFY(w.chatPane()->transcript()->toPlainText().contains(label));
            w.close();
            w.chatPane()->waitForSaves();
        }

        // The chat file keeps it (read independently of the app's loader).
        QFile file(ChatStore::defaultDir() + QLatin1Char('/') + chatId + QStringLiteral(".json"));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        const QJsonArray saved = QJsonDocument::fromJson(file.readAll())
                                     .object()
                                     .value(QStringLiteral("messages"))
                                     .toArray();
        bool found = false;
        for (const QJsonValue& m : saved)
            for (const QJsonValue& i : m.toObject().value(QStringLiteral("images")).toArray())
                found = found || (i.toObject().value(QStringLiteral("file")).toString() == stored &&
                                  i.toObject().value(QStringLiteral("kind")).toString() ==
                                      QLatin1String("crop") &&
                                  i.toObject().value(QStringLiteral("page")).toInt() == 1);
        QVERIFY(found);

        // Restart: the question still has its image, and the transcript shows it.
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        for (int i = 0; i < again.chatPane()->chats().size(); ++i)
            if (again.chatPane()->chats()[i].id == chatId)
                again.chatPane()->selectChat(i);
        QCOMPARE(again.chatPane()->currentChat().id, chatId);
        const QList<ChatMessage>& messages = again.chatPane()->messages();
        QVERIFY(messages.size() >= 2);
        const ChatMessage& question = messages[messages.size() - 2];
        QCOMPARE(question.images.size(), 1);
        QCOMPARE(question.images.first().file, stored);
        QVERIFY(near(question.images.first().region.width(), region.width(), 1e-9));
        QVERIFY(QFile::exists(stored));
        QVERIFY(again.chatPane()->transcript()->toPlainText().contains(label));
        QVERIFY(again.chatPane()->questionImages()->images().isEmpty()); // it went with that one
    }

    // folio --ask (AskWhenIdle): the window going idle while the question's image is still
    // being read makes the question wait for it, then go with it. (The --ask code held its retry
    // by a weak pointer that the single-shot connection had already dropped: under load the
    // question was never asked and `folio --quit-after-answer` ran forever.)
    void askedOnceIdleWaitsForTheQuestionsImage() {
        const QString dir = folio::test::scratchDir(QStringLiteral("question-images-ask"));
        // Large enough that reading and storing it outlasts the queued idle handler.
        QImage big(2400, 1800, QImage::Format_RGB888);
        for (int y = 0; y < big.height(); ++y)
            for (int x = 0; x < big.width(); ++x)
                big.setPixel(x, y, qRgb(x * 7 % 256, y * 13 % 256, (x ^ y) % 256));
        const QString chart = dir + QStringLiteral("/chart.png");
        QVERIFY(big.save(chart));
        MainWindow w;
        w.chatPane()->newChat();
        w.setMmproj(conformance_ + QStringLiteral("/models/kimivl-mmproj-f32.gguf"));
        w.openModel(conformance_ + QStringLiteral("/models/ds2-vl-text-f32.gguf"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && w.modelReady(), 60000);
        auto* asker = new AskWhenIdle(&w, QStringLiteral("What does the chart show?"));
        QSignalSpy asked(asker, &AskWhenIdle::asked);
        QSignalSpy noModel(asker, &AskWhenIdle::noModel);
        QSignalSpy finished(&w, &MainWindow::answerFinished);
        w.imageAttacher()->attachFile(chart);
        QCOMPARE(w.imageAttacher()->pending(), 1);
        Q_EMIT w.idle();
        QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 1, 30000);
        QCOMPARE(noModel.size(), 0);
        QCOMPARE(w.imageAttacher()->pending(), 0);
        const auto& messages = w.chatPane()->currentChat().messages;
        QVERIFY(!messages.isEmpty());
        QCOMPARE(messages.first().text, QStringLiteral("What does the chart show?"));
        QCOMPARE(messages.first().images.size(), 1);
        QCOMPARE(messages.first().images.first().source, chart);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(finished.first().first().toString() != QStringLiteral("error"));
        // Idle again later: the question is not asked twice.
        Q_EMIT w.idle();
        QTest::qWait(200);
        QCOMPARE(asked.size(), 1);
    }

    void onlyAttachedImagesGoWithAQuestion() {
        const QString dir = folio::test::scratchDir(QStringLiteral("question-images-plan"));
        QImage chartImage(64, 48, QImage::Format_RGB888);
        chartImage.fill(Qt::blue);
        const StoredImage stored = storeImage(chartImage, dir);
        QVERIFY2(stored.ok(), qPrintable(stored.error));
        QuestionImage attached;
        attached.source = dir + QStringLiteral("/chart.png");
        attached.file = stored.file;
        ChatSession chat;
        chat.systemPrompt = QStringLiteral("Be brief.");
        ChatMessage first;
        first.role = ChatMessage::Role::User;
        first.text = QStringLiteral("What is in the chart?");
        first.images = {attached};
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = QStringLiteral("Bars.");
        ChatMessage second;
        second.role = ChatMessage::Role::User;
        second.text = QStringLiteral("And the trend?");
        chat.messages = {first, answer, second};
        Document openImage; // an image document open in the pane goes with no question by itself
        openImage.path = dir + QStringLiteral("/other.png");
        openImage.kind = Document::Kind::Image;
        openImage.state = Document::State::Ready;
        const TokenCounter estimates;
        PageTokenCache cache;
        PromptInput in;
        in.chat = chat;
        in.question = second.text;
        in.documents = {openImage};
        PromptPlan plan = planPrompt(in, estimates, cache);
        QCOMPARE(plan.turns.size(), 4);
        for (const ChatTurn& t : plan.turns)
            QVERIFY2(t.images.isEmpty(), qPrintable(t.content)); // the earlier image stays back
        // The same question with the image attached to it.
        in.chat.messages.last().images = {attached};
        plan = planPrompt(in, estimates, cache);
        QCOMPARE(plan.turns.last().images, QStringList{stored.file});
        QCOMPARE(plan.turns[1].images, QStringList());
        QVERIFY(plan.contextNote.isEmpty());
        // A model that cannot see images: left out, and the question says so.
        in.acceptsImages = false;
        plan = planPrompt(in, estimates, cache);
        QVERIFY(plan.turns.last().images.isEmpty());
        QCOMPARE(plan.contextNote,
                 QStringLiteral("the attached image left out: the model cannot see images"));
    }

    void storeKeepsFilesByContentAndRefusesNonImages() {
        const QString dir = folio::test::scratchDir(QStringLiteral("question-images-store"));
        QImage a(30, 20, QImage::Format_RGB888);
        a.fill(Qt::red);
        const StoredImage one = storeImage(a, dir), two = storeImage(a, dir);
        QVERIFY(one.ok() && two.ok());
        QCOMPARE(one.file, two.file); // the same picture is kept once
        QCOMPARE(QDir(dir).entryList(QDir::Files).size(), 1);
        a.setPixel(0, 0, qRgb(0, 0, 0));
        QVERIFY(storeImage(a, dir).file != one.file);

        const QString text = dir + QStringLiteral("/notes.png");
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is a text file with a .png name\n");
        f.close();
        const StoredImage refused = storeImageFile(text, dir);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.contains(QStringLiteral("notes.png is not an image")),
                 qPrintable(refused.error));

        // A crop survives the chat file's round trip; an entry this Folio cannot read is skipped
        // and the chat is kept.
        QuestionImage crop;
        crop.kind = QuestionImage::Kind::Crop;
        crop.source = QStringLiteral("/r/report.pdf");
        crop.page = 12;
        crop.region = QRectF(0.125, 0.25, 0.5, 0.375);
        crop.file = one.file;
        ChatSession chat;
        chat.id = QStringLiteral("c1");
        ChatDocument report;
        report.path = QStringLiteral("/r/report.pdf");
        report.readScannedPages = false; // the per-document switch is kept with the chat
        chat.documents = {report};
        ChatMessage q;
        q.role = ChatMessage::Role::User;
        q.text = QStringLiteral("Q");
        q.images = {crop};
        chat.messages = {q};
        QJsonObject json = chatToJson(chat);
        ChatSession back;
        QVERIFY(chatFromJson(json, back, nullptr));
        QCOMPARE(back.messages.first().images.size(), 1);
        QVERIFY(back.messages.first().images.first() == crop);
        QCOMPARE(back.documents.size(), 1);
        QVERIFY(!back.documents.first().readScannedPages);
        QCOMPARE(back.messages.first().images.first().label(),
                 QStringLiteral("report.pdf p. 12 (part)"));
        QJsonArray messages = json.value(QStringLiteral("messages")).toArray();
        QJsonObject m = messages[0].toObject();
        QJsonArray images = m.value(QStringLiteral("images")).toArray();
        images.append(QJsonObject{{QStringLiteral("kind"), QStringLiteral("hologram")}});
        m.insert(QStringLiteral("images"), images);
        messages[0] = m;
        json.insert(QStringLiteral("messages"), messages);
        QVERIFY(chatFromJson(json, back, nullptr));
        QCOMPARE(back.messages.first().images.size(), 1);
    }
};

QTEST_MAIN(TestQuestionImages)
#include "test_question_images.moc"
