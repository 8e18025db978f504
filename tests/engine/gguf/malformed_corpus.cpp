// The malformed corpus of test_gguf (ggml's docs/gguf.md): truncations, header fields,
// key/value records, tensor infos and payload placement, each with the words its error names.
#include "malformed_corpus.h"

#include <QString>

namespace folio::test {

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

    // Placement of the payloads (offsets are the running sum of padded sizes).
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

} // namespace folio::test
