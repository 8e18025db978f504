// Projector outputs cached by image content (issue #23): on disk across cache instances (a new
// process), bit-identical and without running the encoder; truncated, corrupt and other
// projectors' files re-encoded; the folder bounded by its budget; and the engine reporting the
// prompt's images as they are ready (cached ones at once), with the conformance Kimi-VL pair.
#include <QtTest>

#include "folio/engine.h"
#include "model/vision/vision_model.h"
#include "runtime/image_embedding_cache.h"
#include "support/engine_helpers.h"
#include "support/test_support.h"

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace folio;
namespace fs = std::filesystem;

namespace {

// A deterministic picture of `w` × `h` pixels, different per `seed`.
ImageInput picture(int w, int h, int seed) {
    ImageInput img;
    img.width = w;
    img.height = h;
    img.rgb.resize(static_cast<size_t>(w) * h * 3);
    for (size_t i = 0; i < img.rgb.size(); ++i)
        img.rgb[i] = static_cast<uint8_t>((i * 7 + seed * 31 + (i / 3) % w) & 0xff);
    return img;
}

std::vector<fs::path> entries(const std::string& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".emb")
            out.push_back(e.path());
    return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
}

} // namespace

class TestImageEmbeddings : public QObject {
    Q_OBJECT
    std::shared_ptr<vision::VisionModel> projector_;
    std::string models_;

    ImageEmbeddingCache cacheOver(const std::string& dir, const std::string& id = "proj-a",
                                  int64_t budget = int64_t{64} << 20) {
        ImageEmbeddingCache c;
        c.reset(projector_, {dir, id, budget});
        return c;
    }

private slots:
    void initTestCase() {
        FOLIO_REQUIRE_CONFORMANCE(conf);
        models_ = (conf + QStringLiteral("/models/")).toStdString();
        auto model = vision::load_vision_model(models_ + "kimivl-mmproj-f32.gguf");
        QVERIFY2(model.has_value(), model ? "" : model.error().to_string().c_str());
        projector_ = std::make_shared<vision::VisionModel>(std::move(*model));
    }

    void rowsComeFromDiskInANewCache() {
        const std::string dir = test::scratchDir(QStringLiteral("emb-disk")).toStdString();
        const ImageInput chart{models_ + "chart.png", 0, 0, {}};
        ImageEmbeddingCache first = cacheOver(dir);
        auto a = first.embed(chart, 2);
        QVERIFY2(a, a ? "" : a.error().to_string().c_str());
        QCOMPARE(first.encodes(), int64_t(1));
        QCOMPARE(a->rows->size(), size_t{48 * 128}); // chart.png: 48 tokens of width 128
        QCOMPARE(entries(dir).size(), size_t{1});
        const uint64_t bytes = fs::file_size(entries(dir).front());
        QCOMPARE(bytes, uint64_t{32 + 48 * 128 * 4 + 8});

        // A new instance (as after a restart) over the same folder: no encoding, same bits.
        ImageEmbeddingCache second = cacheOver(dir);
        auto b = second.embed(chart, 2);
        QVERIFY(b);
        QCOMPARE(second.encodes(), int64_t(0));
        QCOMPARE(b->hash, a->hash);
        QVERIFY(sameBits(*a->rows, *b->rows));

        // Another projector's cache does not see these rows.
        ImageEmbeddingCache other = cacheOver(dir, "proj-b");
        QVERIFY(other.embed(chart, 2));
        QCOMPARE(other.encodes(), int64_t(1));
        QCOMPARE(entries(dir).size(), size_t{2});
    }

    void truncatedOrCorruptFilesAreEncodedAgain() {
        const std::string dir = test::scratchDir(QStringLiteral("emb-corrupt")).toStdString();
        const ImageInput chart{models_ + "chart.png", 0, 0, {}};
        ImageEmbeddingCache first = cacheOver(dir);
        auto a = first.embed(chart, 2);
        QVERIFY(a);
        const fs::path file = entries(dir).front();
        const uint64_t size = fs::file_size(file);

        fs::resize_file(file, size / 2); // truncated (a crash mid-copy, a full disk)
        ImageEmbeddingCache second = cacheOver(dir);
        auto b = second.embed(chart, 2);
        QVERIFY2(b, b ? "" : b.error().to_string().c_str());
        QCOMPARE(second.encodes(), int64_t(1));
        QVERIFY(sameBits(*a->rows, *b->rows));
        QCOMPARE(fs::file_size(file), size); // written again, whole

        { // one flipped byte among the rows: same size, the checksum tells
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(1000);
            char c = 0;
            f.seekg(1000);
            f.read(&c, 1);
            c = static_cast<char>(c ^ 0x5a);
            f.seekp(1000);
            f.write(&c, 1);
        }
        ImageEmbeddingCache third = cacheOver(dir);
        auto c = third.embed(chart, 2);
        QVERIFY(c);
        QCOMPARE(third.encodes(), int64_t(1));
        QVERIFY(sameBits(*a->rows, *c->rows));
        ImageEmbeddingCache fourth = cacheOver(dir); // and the rewritten file is good again
        QVERIFY(fourth.embed(chart, 2));
        QCOMPARE(fourth.encodes(), int64_t(0));
    }

    void folderStaysWithinItsBudget() {
        const std::string dir = test::scratchDir(QStringLiteral("emb-budget")).toStdString();
        const ImageInput p1 = picture(56, 56, 1), p2 = picture(56, 56, 2), p3 = picture(56, 56, 3);
        ImageEmbeddingCache probe = cacheOver(dir);
        QVERIFY(probe.embed(p1, 2));
        const uint64_t one = fs::file_size(entries(dir).front());
        fs::remove(entries(dir).front());
        // Room for two files: the third evicts the least recently used.
        ImageEmbeddingCache c = cacheOver(dir, "proj-a", static_cast<int64_t>(2 * one + one / 2));
        QVERIFY(c.embed(p1, 2));
        QTest::qWait(20); // distinct modification times
        QVERIFY(c.embed(p2, 2));
        QTest::qWait(20);
        QVERIFY(c.embed(p3, 2));
        QCOMPARE(c.encodes(), int64_t(3));
        QCOMPARE(entries(dir).size(), size_t{2});
        ImageEmbeddingCache again = cacheOver(dir);
        QVERIFY(again.embed(p3, 2) && again.embed(p2, 2));
        QCOMPARE(again.encodes(), int64_t(0));
        QVERIFY(again.embed(p1, 2)); // the oldest went
        QCOMPARE(again.encodes(), int64_t(1));

        // A temporary file a crash left behind goes at the next write once it is old.
        const fs::path leftover = fs::path(dir) / "proj-a-0000000000000001.emb.tmp-Ab12Cd";
        std::ofstream(leftover) << "half";
        fs::last_write_time(leftover, fs::file_time_type::clock::now() - std::chrono::hours(1));
        const fs::path fresh = fs::path(dir) / "proj-a-0000000000000002.emb.tmp-Ef34Gh";
        std::ofstream(fresh) << "being written";
        QVERIFY(again.embed(picture(56, 56, 7), 2));
        QVERIFY(!fs::exists(leftover));
        QVERIFY(fs::exists(fresh)); // maybe another process's write in progress
    }

    // The engine reports the prompt's images as they are ready: cached ones at once.
    void engineReportsImageProgress() {
        FOLIO_REQUIRE_CONFORMANCE(conf);
        Engine engine;
        ModelSpec spec;
        spec.gguf = models_ + "ds2-vl-text-f32.gguf";
        spec.mmproj = models_ + "kimivl-mmproj-f32.gguf";
        spec.threads = 2;
        spec.context = 4096;
        spec.image_cache_dir = test::scratchDir(QStringLiteral("emb-engine")).toStdString();
        auto facts = engine.load_sync(spec);
        QVERIFY2(facts, facts ? "" : facts.error().to_string().c_str());
        QCOMPARE(facts->projector_fingerprint.size(), size_t{32});
        const SessionId session = engine.create_session();

        auto ask = [&](std::vector<ImageInput> images) {
            test::Collected out;
            Request r = test::makeRequest({}, 1, out);
            r.messages.push_back(Message{"user", "What do these show?", std::move(images), {}});
            std::vector<std::pair<int, int>> calls;
            std::mutex m;
            r.callbacks.on_image_progress = [&](int done, int total) {
                std::lock_guard lk(m);
                calls.emplace_back(done, total);
            };
            engine.reset_session(session);
            engine.wait(engine.submit(session, std::move(r)));
            std::lock_guard lk(out.m);
            if (!out.errors.empty())
                qWarning("%s", out.errors.front().c_str());
            return calls;
        };
        using Calls = std::vector<std::pair<int, int>>;
        const ImageInput chart{models_ + "chart.png", 0, 0, {}};
        const ImageInput a = picture(112, 84, 4), b = picture(84, 112, 5);
        QCOMPARE(ask({chart, a, b}), (Calls{{0, 3}, {1, 3}, {2, 3}, {3, 3}}));
        QCOMPARE(ask({chart, a, b}), (Calls{{3, 3}})); // all cached: done at once
        const ImageInput c = picture(56, 56, 6);
        QCOMPARE(ask({a, c, chart}), (Calls{{2, 3}, {3, 3}}));
        QCOMPARE(ask({}), Calls{}); // no images, no calls
        // After a reload (the memory cache is dropped) the folder still has them.
        QVERIFY(engine.load_sync(spec));
        QCOMPARE(ask({chart, a, b, c}), (Calls{{4, 4}}));
    }
};

QTEST_MAIN(TestImageEmbeddings)
#include "test_image_embeddings.moc"
