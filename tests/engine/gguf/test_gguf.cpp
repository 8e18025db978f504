// GGUF reader and writer (GGUF_LAYOUT.md §1, §2.1), inspect_model and `folio-cli info`.
#include <QtTest>

#include "gguf_fixtures.h"
#include "support/test_support.h"

#include "folio/model_info.h"
#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "runtime/mapped_residency.h"
#include "runtime/weights_memory.h"

#include <QDir>
#include <QProcess>

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

std::string scratch(const QString& name) {
    return scratchDir(name).toStdString();
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

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

struct MalformedCase {
    const char* name;
    Bytes bytes;
    QStringList expected;
};

// The malformed corpus: each case mutates the valid base file and names what the reader's
// message must contain (besides the file name and "at byte").
std::vector<MalformedCase> malformed_corpus() {
    const Bytes base = base_file_bytes();
    std::vector<MalformedCase> cases;
    auto add = [&](const char* name, Bytes b, QStringList expected) {
        cases.push_back({name, std::move(b), std::move(expected)});
    };
    auto mutate = [&](auto fn) {
        Bytes b = base;
        fn(b);
        return b;
    };
    const KvFields key_a = kv_fields(base, "test.key_a");
    const KvFields key_b = kv_fields(base, "test.key_b");
    const KvFields arr = kv_fields(base, "test.array");
    const KvFields str = kv_fields(base, "test.string");
    const KvFields align = kv_fields(base, "general.alignment");
    const TensorFields ta = tensor_fields(base, "tensor_a");
    const TensorFields tb = tensor_fields(base, "tensor_b");
    const TensorFields tc = tensor_fields(base, "tensor_c");
    const size_t info_end = tc.offset + 8;
    const size_t data_start = (info_end + 31) / 32 * 32;

    // Truncation at every section boundary.
    add("truncated empty", {}, {"magic", "byte 0"});
    add("truncated inside magic", truncated(base, 2), {"magic", "byte 0"});
    add("truncated after magic", truncated(base, 4), {"version", "byte 4"});
    add("truncated after version", truncated(base, 8), {"tensor_count", "byte 8"});
    add("truncated after tensor_count", truncated(base, 16), {"kv_count", "byte 16"});
    add("truncated after counts", truncated(base, 24), {"kv_count", "byte 16", "cannot fit"});
    add("truncated inside key", truncated(base, key_a.key + 4),
        {"kv 2", "key length 10", "byte " + QString::number(key_a.key_len)});
    add("truncated inside value type", truncated(base, key_a.value_type + 2),
        {"test.key_a", "value type", "byte " + QString::number(key_a.value_type)});
    add("truncated inside value", truncated(base, str.value + 8 + 2),
        {"test.string", "value length 5", "byte " + QString::number(str.value)});
    add("truncated inside array", truncated(base, arr.value + 12 + 6),
        {"test.array", "array length 3", "byte " + QString::number(arr.value + 4)});
    add("truncated inside tensor info", truncated(base, tc.ne + 3),
        {"tensor info 2 ('tensor_c')", "ne", "byte " + QString::number(tc.ne)});
    add("truncated inside tensor offset", truncated(base, tc.offset + 5),
        {"tensor_c", "offset", "byte " + QString::number(tc.offset)});
    if (data_start > info_end + 1)
        add("truncated inside padding", truncated(base, info_end + 1),
            {"data section", "padding", "byte " + QString::number(info_end)});
    add("truncated inside data", truncated(base, data_start + 128 + 10),
        {"tensor 'tensor_b'", "past the end", "byte " + QString::number(data_start + 128)});
    add("truncated last payload byte", truncated(base, base.size() - 1),
        {"tensor 'tensor_c'", "past the end"});

    // Header fields.
    add("bad magic", mutate([](Bytes& b) { b[0] = 'X'; }), {"bad magic", "byte 0"});
    add("version 0", mutate([](Bytes& b) { poke<uint32_t>(b, 4, 0); }), {"version 0", "byte 4"});
    add("version 1", mutate([](Bytes& b) { poke<uint32_t>(b, 4, 1); }), {"version 1", "byte 4"});
    add("version 4", mutate([](Bytes& b) { poke<uint32_t>(b, 4, 4); }), {"version 4", "byte 4"});
    add("byte-swapped version", mutate([](Bytes& b) { poke<uint32_t>(b, 4, 0x03000000); }),
        {"byte-swapped", "byte 4"});
    add("huge tensor_count", mutate([](Bytes& b) { poke<uint64_t>(b, 8, uint64_t(1) << 40); }),
        {"tensor_count 1099511627776", "byte 8"});
    add("negative tensor_count", mutate([](Bytes& b) { poke<uint64_t>(b, 8, ~uint64_t(0)); }),
        {"tensor_count", "negative", "byte 8"});
    add("huge kv_count", mutate([](Bytes& b) { poke<uint64_t>(b, 16, uint64_t(1) << 40); }),
        {"kv_count 1099511627776", "byte 16"});
    // kv 7 is read from tensor_a's info; the rest no longer parses.
    add("kv_count slightly too large", mutate([](Bytes& b) { poke<uint64_t>(b, 16, 8); }),
        {"tensor info 0", "byte"});
    add("tensor_count slightly too large", mutate([](Bytes& b) { poke<uint64_t>(b, 8, 4); }),
        {"tensor info 3", "byte"});

    // Key/value records.
    add("empty key", mutate([&](Bytes& b) { poke<uint64_t>(b, key_a.key_len, 0); }),
        {"kv 2", "empty key", "byte " + QString::number(key_a.key_len)});
    add("huge key length", mutate([&](Bytes& b) { poke<uint64_t>(b, key_a.key_len, ~0ull); }),
        {"kv 2", "key length", "2^30", "byte " + QString::number(key_a.key_len)});
    add("duplicate key", mutate([&](Bytes& b) { b[key_b.key + 9] = 'a'; }),
        {"kv 3 ('test.key_a')", "duplicate key", "byte " + QString::number(key_b.key_len)});
    add("unknown value type", mutate([&](Bytes& b) { poke<int32_t>(b, key_a.value_type, 13); }),
        {"test.key_a", "unknown value type 13", "byte " + QString::number(key_a.value_type)});
    add("negative value type", mutate([&](Bytes& b) { poke<int32_t>(b, key_a.value_type, -1); }),
        {"test.key_a", "unknown value type -1", "byte " + QString::number(key_a.value_type)});
    add("huge string length", mutate([&](Bytes& b) { poke<uint64_t>(b, str.value, 1ull << 40); }),
        {"test.string", "value length 1099511627776", "2^30",
         "byte " + QString::number(str.value)});
    add("string beyond file", mutate([&](Bytes& b) { poke<uint64_t>(b, str.value, 1u << 20); }),
        {"test.string", "exceeds the remaining", "byte " + QString::number(str.value)});
    add("huge array length",
        mutate([&](Bytes& b) { poke<uint64_t>(b, arr.value + 4, 1ull << 31); }),
        {"test.array", "array length 2147483648", "byte " + QString::number(arr.value + 4)});
    add("array beyond file", mutate([&](Bytes& b) { poke<uint64_t>(b, arr.value + 4, 1u << 29); }),
        {"test.array", "array length 536870912", "byte " + QString::number(arr.value + 4)});
    add("nested array", mutate([&](Bytes& b) { poke<int32_t>(b, arr.value, 9); }),
        {"test.array", "nested", "byte " + QString::number(arr.value)});
    add("unknown array element type", mutate([&](Bytes& b) { poke<int32_t>(b, arr.value, 77); }),
        {"test.array", "element type 77", "byte " + QString::number(arr.value)});
    add("alignment 0", mutate([&](Bytes& b) { poke<uint32_t>(b, align.value, 0); }),
        {"general.alignment 0", "power of two", "byte " + QString::number(align.key_len)});
    add("alignment 3", mutate([&](Bytes& b) { poke<uint32_t>(b, align.value, 3); }),
        {"general.alignment 3", "power of two", "byte " + QString::number(align.key_len)});
    add("alignment wrong type", mutate([&](Bytes& b) { poke<int32_t>(b, align.value_type, 5); }),
        {"general.alignment", "int32", "expected uint32",
         "byte " + QString::number(align.key_len)});

    // Tensor infos.
    add("duplicate tensor", mutate([&](Bytes& b) { b[tb.name + 7] = 'a'; }),
        {"tensor info 1 ('tensor_a')", "duplicate tensor", "byte " + QString::number(tb.name_len)});
    add("empty tensor name", mutate([&](Bytes& b) { poke<uint64_t>(b, tb.name_len, 0); }),
        {"tensor info 1", "empty tensor name", "byte " + QString::number(tb.name_len)});
    add("tensor name 64 bytes", mutate([&](Bytes& b) {
            b.insert(b.begin() + static_cast<std::ptrdiff_t>(tb.name + 8), 56, 'x');
            poke<uint64_t>(b, tb.name_len, 64);
        }),
        {"tensor info 1 ('tensor_bxxx", "64 bytes", "byte " + QString::number(tb.name_len)});
    add("n_dims 0", mutate([&](Bytes& b) { poke<uint32_t>(b, tb.n_dims, 0); }),
        {"('tensor_b')", "n_dims 0 out of range 1..4", "byte " + QString::number(tb.n_dims)});
    add("n_dims 5", mutate([&](Bytes& b) { poke<uint32_t>(b, tb.n_dims, 5); }),
        {"('tensor_b')", "n_dims 5 out of range 1..4", "byte " + QString::number(tb.n_dims)});
    add("negative ne", mutate([&](Bytes& b) { poke<int64_t>(b, tb.ne + 8, -2); }),
        {"('tensor_b')", "ne[1] = -2", "byte " + QString::number(tb.ne + 8)});
    add("ne product overflow", mutate([&](Bytes& b) {
            poke<int64_t>(b, ta.ne, int64_t(1) << 32);
            poke<int64_t>(b, ta.ne + 8, int64_t(1) << 32);
        }),
        {"('tensor_a')", "overflows", "byte " + QString::number(ta.n_dims)});
    add("payload size overflow", mutate([&](Bytes& b) {
            poke<int64_t>(b, ta.ne, int64_t(1) << 31);
            poke<int64_t>(b, ta.ne + 8, int64_t(1) << 31);
        }),
        {"('tensor_a')", "overflows", "byte " + QString::number(ta.type)});
    add("ne0 not multiple of block", mutate([&](Bytes& b) { poke<int64_t>(b, tb.ne, 48); }),
        {"('tensor_b')", "ne[0] = 48", "block size 32", "byte " + QString::number(tb.type)});
    add("unknown ggml type", mutate([&](Bytes& b) { poke<int32_t>(b, tb.type, 1000); }),
        {"('tensor_b')", "ggml type 1000", "byte " + QString::number(tb.type)});
    add("negative ggml type", mutate([&](Bytes& b) { poke<int32_t>(b, tb.type, -3); }),
        {"('tensor_b')", "ggml type -3", "byte " + QString::number(tb.type)});
    add("retired ggml type 4", mutate([&](Bytes& b) { poke<int32_t>(b, tb.type, 4); }),
        {"('tensor_b')", "ggml type 4 (retired)", "byte " + QString::number(tb.type)});
    add("type without block table", mutate([&](Bytes& b) { poke<int32_t>(b, tb.type, 40); }),
        {"('tensor_b')", "ggml type 40 (nvfp4)", "byte " + QString::number(tb.type)});

    // Placement of the payloads (§1.5: offsets are the running sum of padded sizes).
    add("overlapping offsets", mutate([&](Bytes& b) { poke<uint64_t>(b, tb.offset, 0); }),
        {"tensor 'tensor_b' has offset 0, expected 128", "byte " + QString::number(tb.offset)});
    add("out-of-order offsets", mutate([&](Bytes& b) {
            poke<uint64_t>(b, tb.offset, 288);
            poke<uint64_t>(b, tc.offset, 128);
        }),
        {"tensor 'tensor_b' has offset 288, expected 128", "byte " + QString::number(tb.offset)});
    add("gap between tensors", mutate([&](Bytes& b) { poke<uint64_t>(b, tc.offset, 320); }),
        {"tensor 'tensor_c' has offset 320, expected 288", "byte " + QString::number(tc.offset)});
    add("unaligned offset", mutate([&](Bytes& b) { poke<uint64_t>(b, tb.offset, 129); }),
        {"tensor 'tensor_b' has offset 129", "byte " + QString::number(tb.offset)});
    add("payload beyond EOF", mutate([&](Bytes& b) { poke<int64_t>(b, tc.ne, 1000); }),
        {"tensor 'tensor_c'", "4000 bytes", "past the end",
         "byte " + QString::number(data_start + 288)});
    return cases;
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
    void conformanceFilesOpen();
    void conformanceDs2QloraDetails();
    void conformanceQuantizedTypes();
    void cliInfo();
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
    // §1.1 (header + payloads each padded to 32).
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
    // v2 and v3 share the little-endian layout (§1.1); only the version field differs.
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

void TestGguf::conformanceFilesOpen() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    QStringList files;
    for (const QString& name : QDir(dir + "/models").entryList({"*.gguf"}, QDir::Files))
        files << dir + "/models/" + name;
    files << dir + "/tokenizer/deepseek-v3-vocab.gguf";
    QVERIFY(files.size() >= 12);
    for (const QString& path : files) {
        auto f = gguf::File::open(path.toStdString());
        QVERIFY2(f, f ? "" : f.error().message.c_str());
        QVERIFY((*f)->architecture());
        auto info = inspect_model(path.toStdString());
        QVERIFY2(info, info ? "" : info.error().message.c_str());
        uint64_t sum = 0;
        for (const gguf::TensorInfo& t : (*f)->tensors())
            sum += static_cast<uint64_t>(t.n_elements());
        QCOMPARE(info->parameter_count, sum);
        QCOMPARE(info->tensor_count, uint64_t((*f)->tensors().size()));
        QCOMPARE(info->file_size, uint64_t(QFileInfo(path).size()));
        QCOMPARE(info->metadata.size(), (*f)->metadata().size());
        uint64_t by_type_params = 0;
        for (const TensorTypeSummary& s : info->by_type)
            by_type_params += s.params;
        QCOMPARE(by_type_params, sum);
    }
}

void TestGguf::conformanceDs2QloraDetails() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    const std::string path = (dir + "/models/ds2-qlora-f32.gguf").toStdString();
    auto f = gguf::File::open(path);
    QVERIFY(f);
    QCOMPARE(q((*f)->architecture().value()), QStringLiteral("deepseek2"));
    QCOMPARE(*(*f)->get_u32("deepseek2.expert_count").value(), 8u);
    QCOMPARE((*f)->get_string_array("tokenizer.ggml.tokens").value()->size(), size_t(320));
    const gguf::TensorInfo* t = (*f)->find_tensor("blk.1.ffn_gate_exps.weight");
    QVERIFY(t != nullptr);
    QCOMPARE(t->n_dims, 3u);
    QCOMPARE(t->ne, (std::array<int64_t, 4>{128, 32, 8, 1}));
    QCOMPARE(t->type, DType::F32);
    QCOMPARE(t->size_bytes, uint64_t(128 * 32 * 8 * 4));

    auto info = inspect_model(path);
    QVERIFY(info);
    QCOMPARE(q(info->architecture), QStringLiteral("deepseek2"));
    QCOMPARE(info->vocab_size, uint64_t(320));
    QCOMPARE(info->expert_count, 8u);
    QCOMPARE(info->expert_used_count, 2u);
    QCOMPARE(info->context_length, uint64_t(4096));
    QCOMPARE(info->file_size, uint64_t(2897248));
    // Active = total − routed experts + routed experts · 2/8.
    uint64_t experts = 0;
    for (const gguf::TensorInfo& ti : (*f)->tensors())
        if (ti.name.find("_exps") != std::string::npos)
            experts += static_cast<uint64_t>(ti.n_elements());
    QVERIFY(experts > 0);
    QCOMPARE(info->active_parameter_count, info->parameter_count - experts + experts * 2 / 8);
    QCOMPARE(info->by_type.size(), size_t(1));
    QCOMPARE(q(info->by_type[0].type_name), QStringLiteral("f32"));
    bool tokens_summarized = false;
    for (const MetadataEntry& e : info->metadata)
        if (e.key == "tokenizer.ggml.tokens") {
            QCOMPARE(q(e.type_name), QStringLiteral("array[string]"));
            QVERIFY2(q(e.display).startsWith("[320 strings: \"") && q(e.display).endsWith("... ]"),
                     e.display.c_str());
            tokens_summarized = true;
        }
    QVERIFY(tokens_summarized);
}

void TestGguf::conformanceQuantizedTypes() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    // README §1: Q8_0 files quantize every 2-D/3-D weight but the router; MXFP4_MOE files put
    // the routed experts and attn_k_b/attn_v_b in MXFP4 and the other matrices in Q8_0.
    for (const char* name : {"ds2-qlora-q8_0.gguf", "kimi-linear-q8_0.gguf"}) {
        auto f = gguf::File::open((dir + "/models/" + name).toStdString());
        QVERIFY2(f, name);
        QCOMPARE((*f)->find_tensor("token_embd.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_exps.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_inp.weight")->type, DType::F32);
        QCOMPARE((*f)->find_tensor("output_norm.weight")->type, DType::F32);
    }
    for (const char* name : {"ds2-qlora-mxfp4moe.gguf", "kimi-linear-mxfp4moe.gguf"}) {
        auto f = gguf::File::open((dir + "/models/" + name).toStdString());
        QVERIFY2(f, name);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_down_exps.weight")->type, DType::MXFP4);
        QCOMPARE((*f)->find_tensor("token_embd.weight")->type, DType::Q8_0);
        QCOMPARE((*f)->find_tensor("blk.1.ffn_gate_inp.weight")->type, DType::F32);
        auto info = inspect_model((dir + "/models/" + name).toStdString());
        QVERIFY(info);
        QStringList types;
        for (const TensorTypeSummary& s : info->by_type)
            types << q(s.type_name);
        types.sort();
        QCOMPARE(types, (QStringList{"f32", "mxfp4", "q8_0"}));
    }
}

void TestGguf::cliInfo() {
    FOLIO_REQUIRE_CONFORMANCE(dir);
    const QString cli = builtProgram("app/folio-cli");
    QVERIFY2(QFileInfo::exists(cli), qPrintable(cli));
    QProcess ok;
    ok.start(cli, {"info", dir + "/models/ds2-qlora-f32.gguf"});
    QVERIFY(ok.waitForFinished(30000));
    const QString out = QString::fromUtf8(ok.readAllStandardOutput());
    QCOMPARE(ok.exitStatus(), QProcess::NormalExit);
    QCOMPARE(ok.exitCode(), 0);
    QVERIFY(out.contains("architecture: deepseek2"));
    QVERIFY(out.contains("parameters:"));
    QVERIFY(out.contains("active parameters per token:"));
    QVERIFY(out.contains("[320 strings:"));

    const std::string bad = scratch("cli") + "/truncated.gguf";
    Bytes b = read_file((dir + "/models/ds2-qlora-f32.gguf").toStdString());
    QVERIFY(write_file(bad, truncated(b, b.size() / 2)));
    QProcess fail;
    fail.start(cli, {"info", q(bad)});
    QVERIFY(fail.waitForFinished(30000));
    QCOMPARE(fail.exitStatus(), QProcess::NormalExit);
    QCOMPARE(fail.exitCode(), 1);
    const QString err = QString::fromUtf8(fail.readAllStandardError());
    QVERIFY2(err.startsWith("error:"), qPrintable(err));
    QVERIFY2(err.contains("truncated.gguf"), qPrintable(err));
    QVERIFY(fail.readAllStandardOutput().isEmpty());
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
