// Scanned pages reach the vision model at their place (issue #23 §1): the sample report's
// scanned page, planned with the Kimi-VL pair's exact counter, goes into the system turn as
// "[page K]\n<__media__>\n" with its rendered image; the prompt the engine runs grows by the
// image's rows (checked independently: the same page on a 1024-token and a 256-token canvas
// differs by exactly the canvas cells, 28 × 28 pixels each); without a projector the page's
// image stays out and the question's note names the page.
#include <QImageReader>
#include <QPdfDocument>
#include <QtTest>

#include "backend/request_builder.h"
#include "chat/conversation_prompt.h"
#include "core/documents/document_loader.h"
#include "core/pipeline/page_images.h"
#include "folio/engine.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::ui;

class TestScannedPages : public QObject {
    Q_OBJECT
    std::shared_ptr<Engine> engine_;
    SessionId session_ = 0;
    Document report_;
    int scanned_ = -1; // 0-based

    TokenCounter counter() const {
        std::weak_ptr<Engine> weak = engine_;
        auto prompt = [weak](const QList<ChatTurn>& turns) -> qint64 {
            auto e = weak.lock();
            auto n = e ? e->count_tokens(buildRequest(turns, {}, true, false))
                       : Expected<int64_t>(make_error(ErrorCode::Internal, "gone"));
            return n ? *n : -1;
        };
        auto text = [weak](const QString& t) -> qint64 {
            auto e = weak.lock();
            Request r, one;
            r.prompt_text = t.toStdString();
            one.prompt_text.push_back(' ');
            auto n = e->count_tokens(r);
            auto base = e->count_tokens(one);
            return n && base ? std::max<int64_t>(0, *n - (*base - 1)) : -1;
        };
        return TokenCounter(QStringLiteral("ds2-vl"), text, prompt);
    }

    PromptPlan plan(bool vision, int maxTokens, const QString& dir) {
        PromptInput in;
        in.chat.systemPrompt = defaultSystemPrompt();
        in.question = QStringLiteral("Who signed the auditor's statement?");
        // The tiny model holds 4,096 tokens: the text pages are cut to their first 100
        // characters so the whole report and the page's image fit.
        Document shorter = report_;
        for (QString& text : shorter.pageTexts)
            text = text.left(100);
        in.documents = {shorter};
        in.contextLimit = 4096;
        in.readScannedPages = vision;
        in.renderParams.maxTokens = maxTokens;
        in.pageImageDir = dir;
        PageTokenCache cache;
        return planPrompt(in, counter(), cache);
    }

    qint64 run(const PromptPlan& p) {
        test::Collected out;
        Request r = test::makeRequest({}, 1, out);
        r.messages = buildRequest(p.turns, {}, true, false).messages;
        engine_->reset_session(session_);
        engine_->wait(engine_->submit(session_, std::move(r)));
        std::lock_guard lk(out.m);
        if (!out.errors.empty())
            qWarning("%s", out.errors.front().c_str());
        return out.errors.empty() ? out.stats.prompt_tokens : -1;
    }

private slots:
    void initTestCase() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString path =
            test::builtProgram(QStringLiteral("generated/samples/sample-report.pdf"));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        report_ = loadDocument(path);
        QCOMPARE(report_.state, Document::State::Ready);
        const QList<int> scanned = pagesWithoutTextLayer(report_);
        QCOMPARE(scanned.size(), 1);
        scanned_ = scanned.first();
        engine_ = std::make_shared<Engine>();
        ModelSpec spec;
        spec.gguf = (dir + QStringLiteral("/models/ds2-vl-text-f32.gguf")).toStdString();
        spec.mmproj = (dir + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString();
        spec.threads = 2;
        spec.context = 4096;
        auto facts = engine_->load_sync(spec);
        QVERIFY2(facts, facts ? "" : facts.error().to_string().c_str());
        session_ = engine_->create_session();
    }

    void cleanupTestCase() { engine_.reset(); }

    void scannedPageGoesInAsAnImageAtItsPlace() {
        const QString dir = test::scratchDir(QStringLiteral("scanned-pages"));
        const PromptPlan withImage = plan(true, 1024, dir);
        QVERIFY2(withImage.error.isEmpty(), qPrintable(withImage.error));
        const int page = scanned_ + 1;
        const QString system = withImage.turns.first().content;
        QVERIFY2(system.contains(QStringLiteral("[page %1]\n<__media__>\n").arg(page)),
                 qPrintable(system.right(400)));
        QCOMPARE(withImage.turns.first().images.size(), 1);
        QCOMPARE(withImage.pageImages, 1);
        // The question's note says how the page went in (issue #46 §1).
        QCOMPARE(withImage.contextNote, QStringLiteral("scanned page %1 as an image").arg(page));
        // The file is the page on the projector's canvas.
        QPdfDocument pdf;
        QCOMPARE(pdf.load(report_.path), QPdfDocument::Error::None);
        const QSize canvas = pageCanvasSize(pdf.pagePointSize(scanned_), PageRenderParams{});
        QCOMPARE(QImageReader(withImage.turns.first().images.first()).size(), canvas);

        const PromptPlan without = plan(false, 1024, dir);
        QVERIFY(without.turns.first().images.isEmpty());
        QCOMPARE(
            without.contextNote,
            QStringLiteral("scanned page %1 left out: no vision projector is loaded").arg(page));

        const PromptPlan smaller = plan(true, 256, dir);
        const qint64 big = run(withImage), none = run(without), small = run(smaller);
        qInfo("prompt tokens: page on a %dx%d canvas %lld, on the 256-token canvas %lld, "
              "without it %lld",
              canvas.width(), canvas.height(), static_cast<long long>(big),
              static_cast<long long>(small), static_cast<long long>(none));
        QCOMPARE(big, withImage.promptTokens); // planned exactly
        const qint64 cells = (canvas.width() / 28) * (canvas.height() / 28);
        const QSize canvas256 =
            pageCanvasSize(pdf.pagePointSize(scanned_), PageRenderParams{14, 2, 256});
        const qint64 cells256 = (canvas256.width() / 28) * (canvas256.height() / 28);
        QCOMPARE(big - small, cells - cells256);
        // The page's image rows plus its two media markers, less the page's few characters.
        QVERIFY2(big - none >= cells - 8 && big - none <= cells + 4,
                 qPrintable(QString::number(big - none)));
    }

    // The per-document switch ("Read scanned pages with the vision model", on by default): off,
    // the page's image stays out with a projector loaded, and the note says why.
    void theDocumentSwitchKeepsScannedPagesOut() {
        const QString dir = test::scratchDir(QStringLiteral("scanned-pages-off"));
        PromptInput in;
        in.chat.systemPrompt = defaultSystemPrompt();
        in.question = QStringLiteral("Who signed?");
        Document shorter = report_;
        for (QString& text : shorter.pageTexts)
            text = text.left(100);
        in.documents = {shorter};
        in.contextLimit = 4096;
        in.readScannedPages = true;
        in.pageImageDir = dir;
        in.scannedPagesOff = {report_.path};
        PageTokenCache cache;
        const PromptPlan off = planPrompt(in, counter(), cache);
        QVERIFY2(off.error.isEmpty(), qPrintable(off.error));
        QVERIFY(off.turns.first().images.isEmpty());
        QCOMPARE(off.contextNote, QStringLiteral("scanned page %1 left out: reading scanned pages "
                                                 "as images is off for this document")
                                      .arg(scanned_ + 1));
        in.scannedPagesOff.clear();
        const PromptPlan on = planPrompt(in, counter(), cache);
        QCOMPARE(on.turns.first().images.size(), 1);
        QVERIFY(on.promptTokens > off.promptTokens + 900); // the page's 988 cells
    }
};

QTEST_MAIN(TestScannedPages)
#include "test_scanned_pages.moc"
