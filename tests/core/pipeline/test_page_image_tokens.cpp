// A rendered PDF page in the prompt costs what Engine::count_tokens says (issue #23 §1, the
// exact sizes of scanned pages): the sample report's scanned page, rendered on the projector's
// canvas (pipeline/page_render), sits on the engine's own canvas (kimivl preprocessing keeps it
// unresized); a request carrying it counts exactly the prompt_tokens the engine reports when
// the same request runs (max_tokens 1) with the conformance Kimi-VL pair; and the image's share
// of the count is its canvas cells, checked on two budgets (hand-computed for A4).
#include <QtTest>

#include "core/documents/document_loader.h"
#include "core/pipeline/page_render.h"
#include "folio/engine.h"
#include "model/vision/image_preprocess.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

using namespace folio;
using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

ImageInput imageOf(const RenderedPage& page) {
    return ImageInput{std::string(), page.width, page.height, page.rgb};
}

Request pageQuestion(const std::vector<ImageInput>& images) {
    Request r;
    r.messages.push_back(Message{"system", "You read scanned report pages.", {}, {}});
    r.messages.push_back(
        Message{"user", "[page 8]\nWho signed this statement, and on what date?", images, {}});
    r.max_tokens = 1;
    r.sampling.temperature = 0;
    return r;
}

} // namespace

class TestPageImageTokens : public QObject {
    Q_OBJECT
    std::unique_ptr<Engine> engine_;
    SessionId session_ = 0;
    RenderedPage page1024_, page256_;

    // Runs `r` to the end and returns what the engine reports.
    RequestStats run(Request r, test::Collected& out) {
        Request req = test::makeRequest({}, 1, out);
        req.messages = std::move(r.messages);
        engine_->reset_session(session_); // count every position, none reused
        engine_->wait(engine_->submit(session_, std::move(req)));
        std::lock_guard lk(out.m);
        return out.stats;
    }

private slots:
    void initTestCase() {
        FOLIO_REQUIRE_CONFORMANCE(dir);
        const QString path = sample(QStringLiteral("sample-report.pdf"));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        const Document doc = loadDocument(path);
        const QList<int> scanned = pagesWithoutTextLayer(doc);
        QVERIFY2(!scanned.isEmpty(), "the sample report should have a scanned page");
        PageRenderParams params;
        page1024_ = renderPdfPageAsync(path, scanned.first(), params).result();
        QVERIFY2(page1024_.ok(), qPrintable(page1024_.error));
        params.maxTokens = 256;
        page256_ = renderPdfPageAsync(path, scanned.first(), params).result();
        QVERIFY2(page256_.ok(), qPrintable(page256_.error));

        engine_ = std::make_unique<Engine>();
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

    // The render is the canvas the projector would choose for it: no resize, no letterbox.
    void renderIsTheProjectorsCanvas() {
        for (const RenderedPage* p : {&page1024_, &page256_}) {
            vision::PreprocessParams kimi;
            kimi.max_tokens = p == &page1024_ ? 1024 : 256;
            auto canvas = vision::target_size(p->width, p->height, kimi);
            QVERIFY(canvas);
            QCOMPARE(canvas->width, p->width);
            QCOMPARE(canvas->height, p->height);
            QVERIFY(!vision::letterbox_layout({p->width, p->height}, *canvas).resized);
        }
    }

    void countEqualsPromptTokensOfTheRun() {
        const Request withPage = pageQuestion({imageOf(page1024_)});
        auto counted = engine_->count_tokens(withPage);
        QVERIFY2(counted, counted ? "" : counted.error().to_string().c_str());
        test::Collected out;
        const RequestStats stats = run(withPage, out);
        QVERIFY2(out.errors.empty(), out.errors.empty() ? "" : out.errors.front().c_str());
        qInfo("page %dx%d: count_tokens %lld, prompt_tokens of the run %lld", page1024_.width,
              page1024_.height, static_cast<long long>(*counted),
              static_cast<long long>(stats.prompt_tokens));
        QCOMPARE(stats.prompt_tokens, *counted);
        QCOMPARE(stats.reused_tokens, int64_t(0));
        QCOMPARE(stats.generated_tokens, int64_t(1));

        // The same question without the page: the difference is the page's rows plus the
        // media markers around them; the markers cancel between two page sizes.
        auto textOnly = engine_->count_tokens(pageQuestion({}));
        auto smaller = engine_->count_tokens(pageQuestion({imageOf(page256_)}));
        QVERIFY(textOnly && smaller);
        const int64_t cells1024 = (page1024_.width / 28) * (page1024_.height / 28);
        const int64_t cells256 = (page256_.width / 28) * (page256_.height / 28);
        QVERIFY(*counted - *textOnly >= cells1024);
        QCOMPARE(*counted - *smaller, cells1024 - cells256);
        if (page1024_.width == 728 && page1024_.height == 1064) // A4: 26 × 38 and 13 × 19 cells
            QCOMPARE(*counted - *smaller, int64_t(26 * 38 - 13 * 19));

        // and the smaller page runs to its count too
        test::Collected out2;
        const RequestStats small = run(pageQuestion({imageOf(page256_)}), out2);
        QVERIFY(out2.errors.empty());
        QCOMPARE(small.prompt_tokens, *smaller);
    }
};

QTEST_MAIN(TestPageImageTokens)
#include "test_page_image_tokens.moc"
