// GGUF reader and writer (ggml's docs/gguf.md) on hand-made files: round trips, the
// writer, the malformed corpus and fuzzing, and copying the weights into memory. The
// conformance files, inspect_model and `folio-cli info` are test_gguf_conformance.
#include <QtTest>

#include "gguf_fixtures.h"
#include "gguf_helpers.h"
#include "malformed_corpus.h"
#include "support/test_support.h"

#include "folio/model_info.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "runtime/mapped_residency.h"
#include "runtime/weights_memory.h"

#include <QDir>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace folio;
using namespace folio::test;
using gguf::ValueType;

Q_DECLARE_METATYPE(folio::test::Bytes)

namespace {

const gguf::KeyValue& key(const gguf::File& f, std::string_view k) {
    const gguf::KeyValue* kv = f.find_key(k);
    if (kv == nullptr)
        qFatal("missing key %s", std::string(k).c_str());
    return *kv;
}

struct TensorCase {
    std::string name;
    std::vector<int64_t> ne;
    DType type;
};

// Every supported type (dtype.h), 1-D .. 4-D shapes with ne[0] a multiple of the block size.
std::vector<TensorCase> round_trip_tensors() {
    return {
        {"f32.1d", {7}, DType::F32},
        {"f16.2d", {5, 3}, DType::F16},
        {"bf16.3d", {3, 2, 2}, DType::BF16},
        {"q8_0.4d", {64, 2, 3, 2}, DType::Q8_0},
        {"q4_0.2d", {32, 3}, DType::Q4_0},
        {"q4_k.2d", {256, 2}, DType::Q4_K},
        {"q6_k.3d", {512, 1, 2}, DType::Q6_K},
        {"mxfp4.3d", {32, 4, 3}, DType::MXFP4},
        {"q5_k.2d", {256, 1}, DType::Q5_K},
        {"f32.trailing_ones", {4, 1, 1, 1}, DType::F32},
        {"f32.inner_one", {4, 1, 3}, DType::F32},
        {"f32.empty", {0, 5}, DType::F32},
        // Known but not computed by Folio: loads fine, the model code decides.
        {"iq2_xxs.not_computed", {256, 1}, DType::IQ2_XXS},
        {"i32.not_computed", {3}, DType::I32},
    };
}

uint64_t payload_size(const TensorCase& c) {
    DTypeTraits t = dtype_traits(c.type);
    uint64_t n = static_cast<uint64_t>(c.ne[0]) / t.block_size * t.block_bytes;
    for (size_t d = 1; d < c.ne.size(); ++d)
        n *= static_cast<uint64_t>(c.ne[d]);
    return n;
}

} // namespace

class TestGguf : public QObject {
    Q_OBJECT
private slots:
    void roundTripMetadataAndTensors();
    void getterStrictness();
    void writerMatchesHandAssembly();
    void streamingWriterMatchesWrite();
    void writerRejectsBadInput();
    void writerReportsIoErrors();
    void readsVersion2();
    void openReportsMissingFile();
    void malformedFile_data();
    void malformedFile();
    void fuzzFlipsAndTruncations();
    void copyIntoMemoryKeepsAddressesAndBytes();
    void copyIntoMemoryCancelledKeepsTheMapping();
};

void TestGguf::roundTripMetadataAndTensors() {
    const std::string dir = scratch("round_trip");
    gguf::Writer w;
    w.set_string("general.architecture", "roundtrip");
    w.set_u8("t.u8", 255);
    w.set_i8("t.i8", -128);
    w.set_u16("t.u16", 65535);
    w.set_i16("t.i16", -32768);
    w.set_u32("t.u32", 0xFFFFFFFFu);
    w.set_i32("t.i32", std::numeric_limits<int32_t>::min());
    w.set_u64("t.u64", std::numeric_limits<uint64_t>::max());
    w.set_i64("t.i64", std::numeric_limits<int64_t>::min());
    w.set_f32("t.f32", 1.5e-7f);
    w.set_f64("t.f64", M_PI);
    w.set_bool("t.true", true);
    w.set_bool("t.false", false);
    const std::string utf8 = "Grüße, 世界 🙂\n\"quoted\"";
    w.set_string("t.utf8", utf8);
    w.set_string("t.empty", "");
    w.set_int_array("t.arr.u8", ValueType::U8, {0, 1, 255});
    w.set_int_array("t.arr.i8", ValueType::I8, {-128, 0, 127});
    w.set_int_array("t.arr.u16", ValueType::U16, {0, 65535});
    w.set_int_array("t.arr.i16", ValueType::I16, {-32768, 32767});
    w.set_int_array("t.arr.u32", ValueType::U32, {0, 4294967295});
    w.set_int_array("t.arr.i32", ValueType::I32, {0, 0, 0, 1, -7});
    w.set_int_array("t.arr.u64", ValueType::U64, {-1, 5}); // bit-cast: UINT64_MAX
    w.set_int_array("t.arr.i64", ValueType::I64, {std::numeric_limits<int64_t>::min(), 9});
    w.set_int_array("t.arr.bool", ValueType::Bool, {1, 0, 1});
    w.set_f32_array("t.arr.f32", {0.5f, -1.25f, 3.0e38f});
    w.set_f64_array("t.arr.f64", {M_E, -0.0, 1e-300});
    w.set_string_array("t.arr.str", {"<unk>", "", utf8, "Ġthe"});
    w.set_int_array("t.arr.empty", ValueType::I32, {});
    w.set_alignment(64);

    const auto cases = round_trip_tensors();
    std::vector<Bytes> payloads;
    for (size_t i = 0; i < cases.size(); ++i) {
        payloads.push_back(pattern_bytes(payload_size(cases[i]), static_cast<uint32_t>(i + 10)));
        Status s = w.add_tensor(cases[i].name, cases[i].ne, cases[i].type, payloads.back());
        QVERIFY2(s, s ? "" : s.error().message.c_str());
    }
    const std::string path = dir + "/rt.gguf";
    Status ws = w.write(path);
    QVERIFY2(ws, ws ? "" : ws.error().message.c_str());
    QCOMPARE(read_file(path).size(), size_t(*w.file_size()));

    auto opened = gguf::File::open(path);
    QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
    const gguf::File& f = **opened;
    QCOMPARE(f.version(), 3u);
    QCOMPARE(f.alignment(), 64u);
    QCOMPARE(f.data_offset() % 64, uint64_t(0));

    // Metadata: order, types and values.
    QCOMPARE(f.metadata().size(), w.metadata().size());
    for (size_t i = 0; i < f.metadata().size(); ++i) {
        QCOMPARE(q(f.metadata()[i].key), q(w.metadata()[i].key));
        QCOMPARE(f.metadata()[i].value.type, w.metadata()[i].value.type);
    }
    QCOMPARE(key(f, "t.u8").value.i, int64_t(255));
    QCOMPARE(key(f, "t.i8").value.i, int64_t(-128));
    QCOMPARE(key(f, "t.u16").value.i, int64_t(65535));
    QCOMPARE(key(f, "t.i16").value.i, int64_t(-32768));
    QCOMPARE(key(f, "t.u32").value.i, int64_t(0xFFFFFFFFll));
    QCOMPARE(key(f, "t.i32").value.i, int64_t(std::numeric_limits<int32_t>::min()));
    QCOMPARE(static_cast<uint64_t>(key(f, "t.u64").value.i), std::numeric_limits<uint64_t>::max());
    QCOMPARE(key(f, "t.i64").value.i, std::numeric_limits<int64_t>::min());
    QCOMPARE(static_cast<float>(key(f, "t.f32").value.f), 1.5e-7f);
    QCOMPARE(key(f, "t.f64").value.f, M_PI);
    QCOMPARE(*f.get_bool("t.true").value(), true);
    QCOMPARE(*f.get_bool("t.false").value(), false);
    QCOMPARE(q(*f.get_string("t.utf8").value()), q(utf8));
    QCOMPARE(q(*f.get_string("t.empty").value()), QString());
    QCOMPARE(*f.get_int_array("t.arr.u8").value(), (std::vector<int64_t>{0, 1, 255}));
    QCOMPARE(*f.get_int_array("t.arr.i8").value(), (std::vector<int64_t>{-128, 0, 127}));
    QCOMPARE(*f.get_int_array("t.arr.u16").value(), (std::vector<int64_t>{0, 65535}));
    QCOMPARE(*f.get_int_array("t.arr.i16").value(), (std::vector<int64_t>{-32768, 32767}));
    QCOMPARE(*f.get_int_array("t.arr.u32").value(), (std::vector<int64_t>{0, 4294967295}));
    QCOMPARE(*f.get_int_array("t.arr.i32").value(), (std::vector<int64_t>{0, 0, 0, 1, -7}));
    QCOMPARE(*f.get_int_array("t.arr.u64").value(), (std::vector<int64_t>{-1, 5}));
    QCOMPARE(*f.get_int_array("t.arr.i64").value(),
             (std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 9}));
    QCOMPARE(key(f, "t.arr.bool").value.array->element_type, ValueType::Bool);
    QCOMPARE(key(f, "t.arr.bool").value.array->ints, (std::vector<int64_t>{1, 0, 1}));
    QCOMPARE(*f.get_f32_array("t.arr.f32").value(), (std::vector<float>{0.5f, -1.25f, 3.0e38f}));
    const auto& f64s = key(f, "t.arr.f64").value.array->floats;
    QCOMPARE(f64s.size(), size_t(3));
    QCOMPARE(f64s[0], M_E);
    QVERIFY(f64s[1] == 0.0 && std::signbit(f64s[1]));
    QCOMPARE(f64s[2], 1e-300);
    QCOMPARE(*f.get_string_array("t.arr.str").value(),
             (std::vector<std::string>{"<unk>", "", utf8, "Ġthe"}));
    QCOMPARE(key(f, "t.arr.empty").value.array->size(), size_t(0));
    QCOMPARE(q(f.architecture().value()), QStringLiteral("roundtrip"));

    // Tensors: shape, type, n_dims (trailing 1s dropped), offsets, exact payloads, alignment.
    QCOMPARE(f.tensors().size(), cases.size());
    uint64_t expected_offset = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const gguf::TensorInfo& t = f.tensors()[i];
        QCOMPARE(q(t.name), q(cases[i].name));
        QCOMPARE(t.type, cases[i].type);
        QCOMPARE(t.n_dims, gguf::natural_n_dims(cases[i].ne));
        for (size_t d = 0; d < 4; ++d)
            QCOMPARE(t.ne[d], d < cases[i].ne.size() ? cases[i].ne[d] : int64_t(1));
        QCOMPARE(t.size_bytes, uint64_t(payloads[i].size()));
        QCOMPARE(t.offset, expected_offset);
        expected_offset += (t.size_bytes + 63) / 64 * 64;
        QCOMPARE(reinterpret_cast<uintptr_t>(t.data) % 64, uintptr_t(0));
        QVERIFY(payloads[i].empty() ||
                std::memcmp(t.data, payloads[i].data(), payloads[i].size()) == 0);
        QCOMPARE(f.find_tensor(cases[i].name), &t);
    }
    QCOMPARE(f.tensors()[0].n_dims, 1u);
    QCOMPARE(f.tensors()[3].n_dims, 4u);
    QCOMPARE(f.find_tensor("f32.trailing_ones")->n_dims, 1u);
    QCOMPARE(f.find_tensor("f32.inner_one")->n_dims, 3u);
    QVERIFY(f.find_tensor("nope") == nullptr);
}

void TestGguf::getterStrictness() {
    const std::string path = scratch("getters") + "/g.gguf";
    gguf::Writer w;
    w.set_i32("x.count", 5);
    w.set_u32("x.ok", 5);
    w.set_f64("x.eps", 1e-6);
    w.set_int_array("x.list", ValueType::I32, {1});
    QVERIFY(w.write(path));
    auto f = gguf::File::open(path);
    QVERIFY(f);
    auto bad = (*f)->get_u32("x.count");
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, ErrorCode::Format);
    const QString msg = q(bad.error().message);
    QVERIFY2(msg.contains("'x.count'") && msg.contains("at byte 24") && msg.contains("int32") &&
                 msg.contains("expected uint32"),
             qPrintable(msg));
    QCOMPARE(*(*f)->get_u32("x.ok").value(), 5u);
    QVERIFY(!(*f)->get_u32("x.absent").value().has_value());
    QVERIFY(!(*f)->get_f32("x.eps"));
    QVERIFY(!(*f)->get_f32_array("x.list"));
    QVERIFY(!(*f)->get_string_array("x.list"));
    QVERIFY(!(*f)->get_string("x.ok"));
    auto arch = (*f)->architecture();
    QVERIFY(!arch);
    QCOMPARE(arch.error().code, ErrorCode::NotFound);
    QVERIFY(q(arch.error().message).contains("general.architecture"));
}

void TestGguf::writerMatchesHandAssembly() {
    // The base corpus file, written by the writer, equals the bytes assembled by hand from
    // The GGUF byte layout (header + payloads each padded to 32).
    const std::string path = scratch("hand") + "/base.gguf";
    Status s = base_writer().write(path);
    QVERIFY(s);
    const Bytes written = read_file(path);
    QCOMPARE(written.size(), base_file_bytes().size());
    QVERIFY(written == base_file_bytes());
    QCOMPARE(peek<uint32_t>(written, 0), 0x46554747u);
    QCOMPARE(peek<uint32_t>(written, 4), 3u);
    QCOMPARE(peek<uint64_t>(written, 8), uint64_t(3));
    QCOMPARE(peek<uint64_t>(written, 16), uint64_t(7));
    const TensorFields tb = tensor_fields(written, "tensor_b");
    QCOMPARE(peek<uint32_t>(written, tb.n_dims), 2u);
    QCOMPARE(peek<int32_t>(written, tb.type), 8); // Q8_0
    QCOMPARE(peek<uint64_t>(written, tb.offset), uint64_t(128));
    // Padding after the tensor infos and after each payload is zeros.
    const size_t info_end = tensor_fields(written, "tensor_c").offset + 8;
    auto f = gguf::File::open(path);
    QVERIFY(f);
    for (size_t i = info_end; i < (*f)->data_offset(); ++i)
        QCOMPARE(written[i], uint8_t(0));
    const size_t b_end = (*f)->data_offset() + 128 + 136;
    for (size_t i = b_end; i < (*f)->data_offset() + 288; ++i)
        QCOMPARE(written[i], uint8_t(0));
    // No temporary file is left behind.
    QCOMPARE(QDir(q(scratch("hand"))).entryList(QDir::Files).size(), 0);
}

void TestGguf::streamingWriterMatchesWrite() {
    const std::string dir = scratch("stream");
    gguf::Writer whole = base_writer();
    QVERIFY(whole.write(dir + "/whole.gguf"));

    gguf::Writer header_only;
    header_only.set_string("general.architecture", "test");
    header_only.set_string("general.description", std::string(200, 'd'));
    header_only.set_u32("test.key_a", 7);
    header_only.set_u32("test.key_b", 8);
    header_only.set_int_array("test.array", ValueType::I32, {1, 2, 3});
    header_only.set_string("test.string", "hello");
    header_only.set_alignment(32);
    QVERIFY(header_only.add_tensor_info("tensor_a", {8, 4}, DType::F32));
    QVERIFY(header_only.add_tensor_info("tensor_b", {64, 2}, DType::Q8_0));
    QVERIFY(header_only.add_tensor_info("tensor_c", {16}, DType::F32));
    // write() needs every payload.
    QVERIFY(!header_only.write(dir + "/nope.gguf"));

    auto stream = header_only.begin(dir + "/stream.gguf");
    QVERIFY(stream);
    const Bytes a = pattern_bytes(128, 1), b = pattern_bytes(136, 2), c = pattern_bytes(64, 3);
    QVERIFY(!(*stream)->write_tensor_data(1, b)); // out of order
    QVERIFY((*stream)->write_tensor_data(0, std::span(a).first(100)));
    QVERIFY((*stream)->write_tensor_data(0, std::span(a).subspan(100)));
    QVERIFY(!(*stream)->write_tensor_data(0, std::span(a).first(1))); // too many bytes
    QVERIFY((*stream)->write_tensor_data(1, b));
    QVERIFY(!QFile::exists(q(dir + "/stream.gguf"))); // not visible before finish()
    QVERIFY(!(*stream)->finish());                    // tensor_c missing
    QVERIFY((*stream)->write_tensor_data(2, c));
    Status fs = (*stream)->finish();
    QVERIFY2(fs, fs ? "" : fs.error().message.c_str());
    QVERIFY(read_file(dir + "/stream.gguf") == read_file(dir + "/whole.gguf"));

    // An abandoned stream leaves nothing behind.
    {
        auto abandoned = header_only.begin(dir + "/abandoned.gguf");
        QVERIFY(abandoned);
        QVERIFY((*abandoned)->write_tensor_data(0, a));
    }
    QCOMPARE(QDir(q(dir)).entryList(QDir::Files).size(), 2); // whole + stream
}

void TestGguf::writerRejectsBadInput() {
    gguf::Writer w;
    const Bytes four(4);
    QVERIFY(!w.add_tensor("", {1}, DType::F32, four));
    QVERIFY(!w.add_tensor(std::string(64, 'n'), {1}, DType::F32, four));
    QVERIFY(w.add_tensor(std::string(63, 'n'), {1}, DType::F32, four));
    QVERIFY(!w.add_tensor(std::string(63, 'n'), {1}, DType::F32, four)); // duplicate
    QVERIFY(!w.add_tensor("five.dims", {1, 1, 1, 1, 1}, DType::F32, four));
    QVERIFY(!w.add_tensor("negative", {-1}, DType::F32, {}));
    QVERIFY(!w.add_tensor("q8.bad", {16}, DType::Q8_0, Bytes(17)));
    QVERIFY(!w.add_tensor("wrong.size", {2}, DType::F32, four));
    const std::string dir = scratch("writer_bad");
    w.set_alignment(48);
    Status s = w.write(dir + "/a.gguf");
    QVERIFY(!s);
    QVERIFY(q(s.error().message).contains("general.alignment"));
    w.set_alignment(16);
    w.set_int_array("nested", ValueType::Array, {});
    QVERIFY(!w.write(dir + "/a.gguf"));
    QVERIFY(w.remove_key("nested"));
    w.set_u32("", 1);
    QVERIFY(!w.write(dir + "/a.gguf"));
    QVERIFY(w.remove_key(""));
    QVERIFY(w.write(dir + "/a.gguf"));
    QVERIFY(gguf::File::open(dir + "/a.gguf"));
}

void TestGguf::writerReportsIoErrors() {
    // Missing folder.
    gguf::Writer w = base_writer();
    Status s = w.write(scratch("io") + "/no/such/dir/x.gguf");
    QVERIFY(!s);
    QVERIFY(q(s.error().message).contains("x.gguf"));

    // A write that runs out of space: the file size limit makes write() fail with EFBIG like a
    // full disk would with ENOSPC. The destination must not appear.
    const std::string path = scratch("io") + "/big.gguf";
    struct rlimit old {};
    QVERIFY(getrlimit(RLIMIT_FSIZE, &old) == 0);
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ignore, &previous);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    QVERIFY(setrlimit(RLIMIT_FSIZE, &small) == 0);
    gguf::Writer big;
    const Bytes payload(1 << 16, 0x5a);
    QVERIFY(big.add_tensor("big", {1 << 14}, DType::F32, payload));
    Status bs = big.write(path);
    setrlimit(RLIMIT_FSIZE, &old);
    sigaction(SIGXFSZ, &previous, nullptr);
    QVERIFY(!bs);
    QCOMPARE(bs.error().code, ErrorCode::Io);
    QVERIFY2(q(bs.error().message).contains("big.gguf"), bs.error().message.c_str());
    QVERIFY(!QFile::exists(q(path)));
    QCOMPARE(QDir(q(scratch("io"))).entryList(QDir::Files).size(), 0);
}

void TestGguf::readsVersion2() {
    // v2 and v3 share the little-endian layout; only the version field differs.
    Bytes b = base_file_bytes();
    poke<uint32_t>(b, 4, 2);
    const std::string path = scratch("v2") + "/v2.gguf";
    QVERIFY(write_file(path, b));
    auto f = gguf::File::open(path);
    QVERIFY2(f, f ? "" : f.error().message.c_str());
    QCOMPARE((*f)->version(), 2u);
    QCOMPARE((*f)->tensors().size(), size_t(3));
    QCOMPARE((*f)->find_tensor("tensor_b")->type, DType::Q8_0);
    QVERIFY(std::memcmp((*f)->find_tensor("tensor_b")->data, pattern_bytes(136, 2).data(), 136) ==
            0);
}

void TestGguf::openReportsMissingFile() {
    auto f = gguf::File::open("/nonexistent/dir/model.gguf");
    QVERIFY(!f);
    QCOMPARE(f.error().code, ErrorCode::NotFound);
    QVERIFY(q(f.error().message).contains("model.gguf"));
    auto d = gguf::File::open(scratch("a_dir"));
    QVERIFY(!d);
    QCOMPARE(d.error().code, ErrorCode::Io);
}

void TestGguf::malformedFile_data() {
    QTest::addColumn<Bytes>("bytes");
    QTest::addColumn<QStringList>("expected");
    const auto cases = malformed_corpus();
    for (const MalformedCase& c : cases)
        QTest::newRow(c.name) << c.bytes << c.expected;
    // The count is part of the contract: the corpus must stay large.
    QVERIFY(cases.size() >= 30);
}

void TestGguf::malformedFile() {
    QFETCH(Bytes, bytes);
    QFETCH(QStringList, expected);
    const std::string path = scratch("malformed") + "/case.gguf";
    QVERIFY(write_file(path, bytes));
    auto f = gguf::File::open(path);
    QVERIFY2(!f, "a malformed file was accepted");
    QCOMPARE(f.error().code, ErrorCode::Format);
    const QString msg = q(f.error().message);
    QVERIFY2(msg.startsWith(q(path) + ": "), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral(" at byte ")), qPrintable(msg));
    for (const QString& e : expected)
        QVERIFY2(msg.contains(e), qPrintable("missing '" + e + "' in: " + msg));
    // The public API reports the same error.
    auto info = inspect_model(path);
    QVERIFY(!info);
    QCOMPARE(q(info.error().message), msg);
}

void TestGguf::fuzzFlipsAndTruncations() {
    const Bytes base = base_file_bytes();
    const size_t header_end = tensor_fields(base, "tensor_c").offset + 8;
    const std::string path = scratch("fuzz") + "/fuzz.gguf";
    std::mt19937 rng(1234);
    const auto start = std::chrono::steady_clock::now();
    int accepted = 0, rejected = 0;
    for (int iter = 0; iter < 2000; ++iter) {
        Bytes b = base;
        const int kind = iter % 5;
        if (kind == 3) {
            b.resize(rng() % base.size());
        } else if (kind == 4) {
            // An extreme integer over some header field (counts, lengths, types, ne, offsets).
            static const uint64_t extremes[] = {
                0,          1,          3,     63,        64, 1u << 30, (1u << 30) + 1,
                1ull << 31, 1ull << 63, ~0ull, ~0ull << 1};
            const uint64_t v = extremes[rng() % std::size(extremes)];
            const size_t width = rng() % 2 ? 8 : 4;
            const size_t at = rng() % (header_end - width);
            std::memcpy(b.data() + at, &v, width);
        } else {
            // Bias flips toward the header, where they matter most.
            const size_t limit = kind == 0 ? base.size() : 600;
            const size_t at = rng() % std::min(limit, base.size());
            b[at] = kind == 2 ? static_cast<uint8_t>(rng()) : b[at] ^ uint8_t(1u << (rng() % 8));
        }
        QVERIFY(write_file(path, b));
        auto f = gguf::File::open(path);
        if (f) {
            ++accepted;
            // Every payload view lies inside the mapping: touching its ends must not fault.
            unsigned sum = 0;
            for (const gguf::TensorInfo& t : (*f)->tensors())
                if (t.size_bytes > 0)
                    sum += t.data[0] + t.data[t.size_bytes - 1];
            (void)sum;
        } else {
            ++rejected;
            QVERIFY(!f.error().message.empty());
            QVERIFY(f.error().code == ErrorCode::Format);
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo("fuzz: %d accepted, %d rejected in %.2f s", accepted, rejected, seconds);
    QVERIFY(rejected > 500);
}

namespace {

// A GGUF of ~9 MiB (an F32 tensor of 2.25 Mi values, so the copy spans whole 2 MiB pages, and
// a small Q8_0 one after it) with pattern payloads; returns its path.
std::string write_big_file(const std::string& dir, std::vector<Bytes>& payloads) {
    gguf::Writer w;
    w.set_string("general.architecture", "copytest");
    payloads = {pattern_bytes(size_t{9} << 20, 3), pattern_bytes(34 * 4, 4)};
    if (!w.add_tensor("big", {int64_t{9} << 18}, DType::F32, payloads[0]) ||
        !w.add_tensor("small", {128, 1}, DType::Q8_0, payloads[1]))
        return {};
    const std::string path = dir + "/big.gguf";
    return w.write(path) ? path : std::string();
}

} // namespace

void TestGguf::copyIntoMemoryKeepsAddressesAndBytes() {
    // The weights move from the file's pages to a private copy at the same addresses: every
    // pointer the model bound stays valid, the bytes are the file's, and the file may then
    // change on disk without reaching the copy.
    std::vector<Bytes> payloads;
    const std::string path = write_big_file(scratch("copy_in"), payloads);
    QVERIFY(!path.empty());
    auto opened = gguf::File::open(path);
    QVERIFY(opened);
    gguf::File& f = **opened;
    const uint8_t* big = f.tensors()[0].data;
    const uint8_t* small = f.tensors()[1].data;
    QVERIFY(std::memcmp(big, payloads[0].data(), payloads[0].size()) == 0);
    QVERIFY(mapped_resident_bytes(path) > 0); // the file's pages, mapped

    std::vector<double> reports;
    auto copied = f.copy_into_memory([&](double x) { reports.push_back(x); }, [] { return false; });
    QVERIFY2(copied, copied ? "" : copied.error().message.c_str());
    QVERIFY(*copied);
    QVERIFY(f.in_memory());
    QVERIFY(!reports.empty());
    QVERIFY(std::is_sorted(reports.begin(), reports.end()));
    QCOMPARE(reports.back(), 1.0);
    QCOMPARE(f.tensors()[0].data, big);
    QCOMPARE(f.tensors()[1].data, small);
    // No mapping of the file is left in this process.
    QCOMPARE(mapped_resident_bytes(path), uint64_t(0));

    // Another program truncates the file: reading the copy neither faults nor changes.
    QVERIFY(::truncate(path.c_str(), 4096) == 0);
    QVERIFY(std::memcmp(big, payloads[0].data(), payloads[0].size()) == 0);
    QVERIFY(std::memcmp(small, payloads[1].data(), payloads[1].size()) == 0);
    QCOMPARE(f.read_faults(), uint64_t(0));

    // Huge pages, where the kernel hands them to programs that ask (the point of the copy).
    const std::string thp = transparent_huge_pages_mode();
    if (thp != "always" && thp != "madvise")
        QSKIP("transparent huge pages are off on this machine: the copy has 4 KiB pages");
    const uint64_t huge = huge_page_bytes(f.bytes(), f.file_size());
    QVERIFY2(huge >= (uint64_t{2} << 20),
             qPrintable(QStringLiteral("%1 bytes in huge pages").arg(huge)));
}

void TestGguf::copyIntoMemoryCancelledKeepsTheMapping() {
    std::vector<Bytes> payloads;
    const std::string path = write_big_file(scratch("copy_cancel"), payloads);
    QVERIFY(!path.empty());
    auto opened = gguf::File::open(path);
    QVERIFY(opened);
    gguf::File& f = **opened;
    const uint8_t* big = f.tensors()[0].data;
    auto copied = f.copy_into_memory(nullptr, [] { return true; });
    QVERIFY(copied);
    QVERIFY(!*copied);
    QVERIFY(!f.in_memory());
    QCOMPARE(f.tensors()[0].data, big);
    QVERIFY(std::memcmp(big, payloads[0].data(), payloads[0].size()) == 0);
    QVERIFY(mapped_resident_bytes(path) > 0); // still the file's pages
}

QTEST_GUILESS_MAIN(TestGguf)
#include "test_gguf.moc"
