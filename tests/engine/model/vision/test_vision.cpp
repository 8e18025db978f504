// The kimivl vision path (issue 8): image decoding and its refusals, llama.cpp's preprocessing
// sizes (tools/mtmd), the encoder against llama.cpp's golden projector output
// (the conformance data's vision pair), thread independence, and the mmproj generator's layout.
#include <QtTest>

#include "gguf/gguf_file.h"
#include "model/vision/image_io.h"
#include "model/vision/image_preprocess.h"
#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"
#include "models/kimivl_mmproj.h"
#include "support/test_support.h"

#include <stb/stb_image_write.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace folio;
using namespace folio::vision;

namespace {

std::vector<uint8_t> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

std::string scratch(const char* name) {
    return test::scratchDir(QString::fromLatin1(name)).toStdString();
}

// A synthetic RGB test picture: gradients plus a few hard edges.
RgbImage testPicture(int w, int h) {
    RgbImage img;
    img.width = w;
    img.height = h;
    img.rgb.resize(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            uint8_t* p = img.rgb.data() + (static_cast<size_t>(y) * w + x) * 3;
            p[0] = static_cast<uint8_t>(x * 255 / std::max(1, w - 1));
            p[1] = static_cast<uint8_t>(y * 255 / std::max(1, h - 1));
            p[2] = static_cast<uint8_t>(((x / 7 + y / 5) % 2) ? 200 : 30);
        }
    return img;
}

void appendToVector(void* ctx, void* data, int size) {
    auto* v = static_cast<std::vector<uint8_t>*>(ctx);
    const auto* b = static_cast<const uint8_t*>(data);
    v->insert(v->end(), b, b + size);
}

enum class Enc { Png, Jpeg, Bmp };
std::vector<uint8_t> encode(const RgbImage& img, Enc enc) {
    std::vector<uint8_t> out;
    if (enc == Enc::Png)
        stbi_write_png_to_func(appendToVector, &out, img.width, img.height, 3, img.rgb.data(),
                               img.width * 3);
    else if (enc == Enc::Jpeg)
        stbi_write_jpg_to_func(appendToVector, &out, img.width, img.height, 3, img.rgb.data(), 90);
    else
        stbi_write_bmp_to_func(appendToVector, &out, img.width, img.height, 3, img.rgb.data());
    return out;
}

// A 1x1 GIF89a (2-colour palette, one LZW-coded pixel, trailer).
std::vector<uint8_t> tinyGif() {
    const uint8_t g[] = {'G',  'I',  'F',  '8',  '9',  'a',  0x01, 0x00, 0x01, 0x00, 0x80, 0x00,
                         0x00, 0x10, 0x20, 0x30, 0xFF, 0xFF, 0xFF, 0x2C, 0x00, 0x00, 0x00, 0x00,
                         0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B};
    return std::vector<uint8_t>(std::begin(g), std::end(g));
}

uint32_t crc32(const uint8_t* p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

void putBe32(std::vector<uint8_t>& v, uint32_t x) {
    for (int s = 24; s >= 0; s -= 8)
        v.push_back(static_cast<uint8_t>(x >> s));
}

void pngChunk(std::vector<uint8_t>& v, const char* type, const std::vector<uint8_t>& data) {
    putBe32(v, static_cast<uint32_t>(data.size()));
    std::vector<uint8_t> body(type, type + 4);
    body.insert(body.end(), data.begin(), data.end());
    v.insert(v.end(), body.begin(), body.end());
    putBe32(v, crc32(body.data(), body.size()));
}

// A PNG header claiming width x height pixels with no pixel data (IHDR, empty IDAT, IEND).
std::vector<uint8_t> hugePngHeader(uint32_t width, uint32_t height) {
    std::vector<uint8_t> v = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    std::vector<uint8_t> ihdr;
    putBe32(ihdr, width);
    putBe32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8-bit RGB, deflate, no filter, no interlace
    pngChunk(v, "IHDR", ihdr);
    pngChunk(v, "IDAT", {});
    pngChunk(v, "IEND", {});
    return v;
}

std::string makeTinyMmproj(const std::string& dir, uint64_t seed = 3) {
    const std::string path = dir + "/tiny-mmproj.gguf";
    Status s = tools::make_kimivl_mmproj("tiny", 128, seed, path);
    if (!s)
        qWarning("%s", s.error().to_string().c_str());
    return s ? path : std::string();
}

} // namespace

class TestVision : public QObject {
    Q_OBJECT
private slots:
    // llama.cpp's kimivl target size with a = 28, min 8·28² = 6272, max 1024·28² = 802816 pixels.
    void targetSizes_data() {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("tw");
        QTest::addColumn<int>("th");
        // The golden image: round(230/28 = 8.21) = 8 → 224, round(170/28 = 6.07) = 6 → 168;
        // 224·168 = 37632 is within the limits.
        QTest::newRow("230x170 golden") << 230 << 170 << 224 << 168;
        // Exact multiples inside the limits stay as they are.
        QTest::newRow("448x336 exact") << 448 << 336 << 448 << 336;
        QTest::newRow("280x280 exact") << 280 << 280 << 280 << 280;
        // 1x1: both round to 0 → max(28, 0) = 28; 784 < 6272 → β = sqrt(6272/1) = 79.196,
        // ceil(79.196/28 = 2.83) = 3 → 84 on both sides.
        QTest::newRow("1x1") << 1 << 1 << 84 << 84;
        // 28x28 (exact multiple, but only one token): β = sqrt(6272/784) = 2.83 → 3·28 = 84.
        QTest::newRow("28x28 below min") << 28 << 28 << 84 << 84;
        // 10000x10: h̄ = max(28, round(0.36)·28 = 0) = 28, w̄ = round(357.14) = 357 → 9996;
        // 9996·28 = 279888 is within the limits (357 tokens).
        QTest::newRow("10000x10") << 10000 << 10 << 9996 << 28;
        QTest::newRow("10x10000") << 10 << 10000 << 28 << 9996;
        // 1280x720: rounds to 1288x728 = 937664 > 802816 → β = sqrt(921600/802816) = 15/14;
        // w̄ = floor(1280·14/15/28 = 42.67) = 42 → 1176, h̄ = floor(720·14/15/28 = 24) = 24 → 672.
        QTest::newRow("1280x720") << 1280 << 720 << 1176 << 672;
        // 4000x3000: 4004x2996 too big → β = sqrt(12e6/802816) = 3.8662; floor(36.95) = 36 →
        // 1008, floor(27.71) = 27 → 756 (972 tokens).
        QTest::newRow("4000x3000") << 4000 << 3000 << 1008 << 756;
        // 64000x10: llama.cpp's rule gives 71680x28 = 2560 tokens > 1024; we cap the long side at
        // 1024 tokens: 1024·28 = 28672 (documented deviation).
        QTest::newRow("64000x10 capped") << 64000 << 10 << 28672 << 28;
    }
    void targetSizes() {
        QFETCH(int, w);
        QFETCH(int, h);
        QFETCH(int, tw);
        QFETCH(int, th);
        auto size = target_size(w, h, PreprocessParams{});
        QVERIFY(size.has_value());
        QCOMPARE(size->width, tw);
        QCOMPARE(size->height, th);
        const int tokens = (size->width / 28) * (size->height / 28);
        QVERIFY(tokens >= 8 && tokens <= 1024);
    }

    void letterboxLayout() {
        // Golden: scale = min(224/230, 168/170) = 0.97391; content = (min(ceil(224.0), 224),
        // ceil(165.57) = 166), offset ((224 − 224)/2, (168 − 166)/2) = (0, 1).
        Letterbox l = letterbox_layout({230, 170}, {224, 168});
        QCOMPARE(l.content, (ImageSize{224, 166}));
        QCOMPARE(l.offset_x, 0);
        QCOMPARE(l.offset_y, 1);
        // 10000x10 on 9996x28: scale = min(0.9996, 2.8) → content 9996x10, offset y = 9.
        l = letterbox_layout({10000, 10}, {9996, 28});
        QCOMPARE(l.content, (ImageSize{9996, 10}));
        QCOMPARE(l.offset_y, 9);
        // Same size: no resize at all.
        l = letterbox_layout({448, 336}, {448, 336});
        QVERIFY(!l.resized);
        QCOMPARE(l.content, (ImageSize{448, 336}));
    }

    void preprocessEdgeCases() {
        // 1x1 (llama.cpp asserts on it): every canvas pixel is the single source pixel.
        RgbImage one;
        one.width = one.height = 1;
        one.rgb = {255, 0, 51};
        auto pre = preprocess_image(one, PreprocessParams{});
        QVERIFY(pre.has_value());
        QCOMPARE(pre->layout.canvas, (ImageSize{84, 84}));
        const size_t plane = 84 * 84;
        QCOMPARE(pre->planar.size(), 3 * plane);
        for (size_t i = 0; i < plane; ++i) {
            QCOMPARE(pre->planar[i], 1.0f);          // (1 − 0.5)/0.5
            QCOMPARE(pre->planar[plane + i], -1.0f); // (0 − 0.5)/0.5
            QCOMPARE(pre->planar[2 * plane + i], (51.0f / 255.0f - 0.5f) / 0.5f);
        }
        // 10000x10: black letterbox rows above and below the content.
        auto wide = preprocess_image(testPicture(10000, 10), PreprocessParams{});
        QVERIFY(wide.has_value());
        QCOMPARE(wide->layout.canvas, (ImageSize{9996, 28}));
        QCOMPARE(wide->planar[0], -1.0f);                              // row 0 is padding
        QCOMPARE(wide->planar[static_cast<size_t>(9996) * 27], -1.0f); // row 27 too
        // Exact multiple: pixels copied untouched.
        const RgbImage exact = testPicture(448, 336);
        auto same = preprocess_image(exact, PreprocessParams{});
        QVERIFY(same.has_value());
        QCOMPARE(same->planar[5], (static_cast<float>(exact.rgb[15]) / 255.0f - 0.5f) / 0.5f);
        // Bilinear downscale of a constant image stays constant.
        RgbImage flat = testPicture(300, 200);
        std::fill(flat.rgb.begin(), flat.rgb.end(), uint8_t{77});
        const RgbImage small = resize_bilinear(flat, 97, 61);
        QVERIFY(std::all_of(small.rgb.begin(), small.rgb.end(), [](uint8_t v) { return v == 77; }));
    }

    void decodesAllFormats() {
        const RgbImage pic = testPicture(37, 23);
        for (Enc enc : {Enc::Png, Enc::Jpeg, Enc::Bmp}) {
            auto img = decode_image(encode(pic, enc), "pic");
            QVERIFY2(img.has_value(), img ? "" : img.error().to_string().c_str());
            QCOMPARE(img->width, 37);
            QCOMPARE(img->height, 23);
            if (enc != Enc::Jpeg)
                QVERIFY(img->rgb == pic.rgb); // lossless formats round-trip
        }
        auto gif = decode_image(tinyGif(), "tiny.gif");
        QVERIFY2(gif.has_value(), gif ? "" : gif.error().to_string().c_str());
        QCOMPARE(gif->width, 1);
        QCOMPARE(gif->height, 1);

        // From a file, and raw RGB with a row stride.
        const std::string dir = scratch("vision-decode");
        writeBytes(dir + "/pic.png", encode(pic, Enc::Png));
        auto file = load_image_file(dir + "/pic.png");
        QVERIFY(file.has_value());
        QVERIFY(file->rgb == pic.rgb);
        std::vector<uint8_t> padded(static_cast<size_t>(23) * 120, 0xEE);
        for (int y = 0; y < 23; ++y)
            std::memcpy(padded.data() + y * 120, pic.rgb.data() + y * 111, 111);
        auto raw = image_from_rgb8(37, 23, padded, 120);
        QVERIFY(raw.has_value());
        QVERIFY(raw->rgb == pic.rgb);
    }

    void refusesBadImages() {
        const std::string dir = scratch("vision-bad");
        auto expectError = [](const Expected<RgbImage>& r, const std::string& name,
                              const char* needle) {
            QVERIFY(!r.has_value());
            const std::string msg = r.error().to_string();
            QVERIFY2(msg.find(name) != std::string::npos, msg.c_str());
            QVERIFY2(msg.find(needle) != std::string::npos, msg.c_str());
        };
        // Zero bytes, missing file, not an image.
        writeBytes(dir + "/empty.png", {});
        expectError(load_image_file(dir + "/empty.png"), "empty.png", "0 bytes");
        expectError(load_image_file(dir + "/missing.png"), "missing.png", "cannot open");
        const std::string text = "hello, this is not an image";
        writeBytes(dir + "/note.png", std::vector<uint8_t>(text.begin(), text.end()));
        expectError(load_image_file(dir + "/note.png"), "note.png", "not a PNG");

        // Huge: refused from the header (100000 x 100000 = 10^10 pixels), before decoding.
        writeBytes(dir + "/huge.png", hugePngHeader(100000, 100000));
        expectError(load_image_file(dir + "/huge.png"), "huge.png", "over the limit");
        expectError(decode_image(hugePngHeader(9000, 8000), "screen.png"), "screen.png",
                    "over the limit"); // 72 MP > 64 MP
        // A lower limit applies too.
        expectError(decode_image(encode(testPicture(40, 30), Enc::Png), "x.png", 1000), "x.png",
                    "over the limit");

        // Corrupt: valid PNG header and IHDR, garbage after it.
        std::vector<uint8_t> png = encode(testPicture(64, 48), Enc::Png);
        std::vector<uint8_t> corrupt = png;
        for (size_t i = 40; i < corrupt.size(); ++i)
            corrupt[i] = static_cast<uint8_t>(i * 131 + 7);
        writeBytes(dir + "/corrupt.png", corrupt);
        expectError(load_image_file(dir + "/corrupt.png"), "corrupt.png", "corrupt PNG");

        // Truncated PNG, JPEG, BMP, GIF.
        std::vector<uint8_t> cut(png.begin(), png.begin() + static_cast<long>(png.size() / 2));
        writeBytes(dir + "/cut.png", cut);
        expectError(load_image_file(dir + "/cut.png"), "cut.png", "PNG");
        const std::vector<uint8_t> jpg = encode(testPicture(64, 48), Enc::Jpeg);
        expectError(decode_image(std::vector<uint8_t>(jpg.begin(), jpg.end() - 200), "cut.jpg"),
                    "cut.jpg", "truncated JPEG");
        const std::vector<uint8_t> bmp = encode(testPicture(64, 48), Enc::Bmp);
        expectError(decode_image(std::vector<uint8_t>(bmp.begin(), bmp.end() - 100), "cut.bmp"),
                    "cut.bmp", "truncated BMP");
        const std::vector<uint8_t> gif = tinyGif();
        expectError(decode_image(std::vector<uint8_t>(gif.begin(), gif.end() - 3), "cut.gif"),
                    "cut.gif", "truncated GIF");

        // Raw buffers that do not match their size.
        QVERIFY(!image_from_rgb8(10, 10, std::vector<uint8_t>(299)).has_value());
        QVERIFY(!image_from_rgb8(0, 10, std::vector<uint8_t>(30)).has_value());
        QVERIFY(!image_from_rgb8(10, 10, std::vector<uint8_t>(400), 20).has_value());
    }

    void goldenImageEmbedding() {
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const std::string models = (conf + QStringLiteral("/models/")).toStdString();
        auto model = load_vision_model(models + "kimivl-mmproj-f32.gguf");
        QVERIFY2(model.has_value(), model ? "" : model.error().to_string().c_str());
        auto image = load_image_file(models + "chart.png");
        QVERIFY2(image.has_value(), image ? "" : image.error().to_string().c_str());
        QCOMPARE(image->width, 230);
        QCOMPARE(image->height, 170);

        KernelContext ctx;
        ctx.n_threads = 2;
        EncodeInfo info;
        int n_tokens = 0;
        auto embd = encode_image(*model, *image, ctx, &n_tokens, &info);
        QVERIFY2(embd.has_value(), embd ? "" : embd.error().to_string().c_str());
        QCOMPARE(info.layout.canvas, (ImageSize{224, 168}));
        QCOMPARE(info.layout.content, (ImageSize{224, 166}));
        QCOMPARE(info.layout.offset_y, 1);
        QCOMPARE(n_tokens, 48);

        const std::vector<uint8_t> raw =
            readBytes((conf + QStringLiteral("/goldens/vision.image-embd.f32")).toStdString());
        QCOMPARE(raw.size(), size_t{48 * 128 * 4});
        QCOMPARE(embd->size(), size_t{48 * 128});
        std::vector<float> golden(48 * 128);
        std::memcpy(golden.data(), raw.data(), raw.size());
        double max_diff = 0, max_abs = 0;
        for (size_t i = 0; i < golden.size(); ++i) {
            max_diff = std::max(max_diff, std::fabs(static_cast<double>((*embd)[i]) - golden[i]));
            max_abs = std::max(max_abs, std::fabs(static_cast<double>(golden[i])));
        }
        qInfo("vision golden: max |ours - llama.cpp| = %.3g (max |golden| = %.3g)", max_diff,
              max_abs);
        QVERIFY2(max_diff <= 1e-3, qPrintable(QString::number(max_diff)));
    }

    void sameOutputWithOneAndTwoThreads() {
        const std::string dir = scratch("vision-threads");
        const std::string path = makeTinyMmproj(dir);
        QVERIFY(!path.empty());
        auto model = load_vision_model(path);
        QVERIFY2(model.has_value(), model ? "" : model.error().to_string().c_str());
        const RgbImage pic = testPicture(500, 330);
        KernelContext one, two;
        one.n_threads = 1;
        two.n_threads = 2;
        int n1 = 0, n2 = 0;
        auto a = encode_image(*model, pic, one, &n1);
        auto b = encode_image(*model, pic, two, &n2);
        QVERIFY(a.has_value() && b.has_value());
        QCOMPARE(n1, n2);
        QCOMPARE(a->size(), static_cast<size_t>(n1) * 128);
        QVERIFY(std::memcmp(a->data(), b->data(), a->size() * sizeof(float)) == 0);
        for (float v : *a)
            QVERIFY(std::isfinite(v));
        // Extreme shapes go through the whole encoder.
        for (const RgbImage& img : {testPicture(1, 1), testPicture(2000, 10)}) {
            int n = 0;
            auto e = encode_image(*model, img, two, &n);
            QVERIFY2(e.has_value(), e ? "" : e.error().to_string().c_str());
            QVERIFY(n >= 8 && n <= 1024);
        }
    }

    void generatorMatchesConformanceLayout() {
        FOLIO_REQUIRE_CONFORMANCE(conf);
        const std::string dir = scratch("vision-generator");
        const std::string path = makeTinyMmproj(dir);
        QVERIFY(!path.empty());
        auto ours = gguf::File::open(path);
        auto ref = gguf::File::open(
            (conf + QStringLiteral("/models/kimivl-mmproj-f32.gguf")).toStdString());
        QVERIFY(ours.has_value() && ref.has_value());
        const gguf::File& o = **ours;
        const gguf::File& r = **ref;
        // Same keys in the same order, same types, same values (projection_dim 128 like the
        // conformance pair).
        QCOMPARE(o.metadata().size(), r.metadata().size());
        for (size_t i = 0; i < r.metadata().size(); ++i) {
            const gguf::KeyValue& rk = r.metadata()[i];
            const gguf::KeyValue& ok = o.metadata()[i];
            QCOMPARE(ok.key, rk.key);
            QCOMPARE(ok.value.type, rk.value.type);
            QCOMPARE(ok.value.i, rk.value.i);
            QCOMPARE(ok.value.f, rk.value.f);
            QCOMPARE(ok.value.s, rk.value.s);
            if (rk.value.array) {
                QVERIFY(ok.value.array);
                QCOMPARE(ok.value.array->element_type, rk.value.array->element_type);
                QVERIFY(ok.value.array->floats == rk.value.array->floats);
            }
        }
        // Same tensors in the same order with the same shapes and types.
        QCOMPARE(o.tensors().size(), r.tensors().size());
        for (size_t i = 0; i < r.tensors().size(); ++i) {
            const gguf::TensorInfo& rt = r.tensors()[i];
            const gguf::TensorInfo& ot = o.tensors()[i];
            QCOMPARE(ot.name, rt.name);
            QCOMPARE(ot.n_dims, rt.n_dims);
            QVERIFY2(ot.ne == rt.ne, rt.name.c_str());
            QCOMPARE(ot.type, rt.type);
            QCOMPARE(ot.offset, rt.offset);
        }
        QCOMPARE(o.file_size(), r.file_size());
        // Deterministic: same seed, same bytes.
        const std::string again = makeTinyMmproj(scratch("vision-generator-2"));
        QVERIFY(readBytes(again) == readBytes(path));
    }

    void loaderRejectsOtherFiles() {
        const std::string dir = scratch("vision-loader");
        auto missing = load_vision_model(dir + "/nope.gguf");
        QVERIFY(!missing.has_value());
        FOLIO_REQUIRE_CONFORMANCE(conf);
        auto text =
            load_vision_model((conf + QStringLiteral("/models/ds2-lite-f32.gguf")).toStdString());
        QVERIFY(!text.has_value());
        const std::string msg = text.error().to_string();
        QVERIFY2(msg.find("clip") != std::string::npos, msg.c_str());
    }
};

QTEST_GUILESS_MAIN(TestVision)
#include "test_vision.moc"
