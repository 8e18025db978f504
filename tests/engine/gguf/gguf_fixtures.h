#pragma once
// Small GGUF files for the reader tests, built with gguf::Writer, plus byte-level helpers that
// locate and patch fields of such a file (to build the malformed corpus).

#include "gguf/gguf_writer.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace folio::test {

using Bytes = std::vector<uint8_t>;

// Deterministic payload of n bytes (no ASCII runs, so header names stay unique in the file).
Bytes pattern_bytes(size_t n, uint32_t seed);

// The base file of the malformed corpus: kv records general.architecture, general.description
// (a 200-byte string, so truncations past it still satisfy the count checks), test.key_a,
// test.key_b (UINT32), test.array (INT32 [1,2,3]), test.string ("hello"), general.alignment
// (UINT32 32); tensors tensor_a F32 [8, 4], tensor_b Q8_0 [64, 2], tensor_c F32 [16].
gguf::Writer base_writer();
Bytes base_file_bytes();

// Offset of the first occurrence of `needle` in `bytes` (npos when absent).
size_t find_bytes(const Bytes& bytes, std::string_view needle);

// Positions inside the record of key `key` / tensor `name` (found by its text).
struct KvFields {
    size_t key_len;    // uint64 key length
    size_t key;        // key bytes
    size_t value_type; // int32
    size_t value;      // first byte of the value
};
KvFields kv_fields(const Bytes& bytes, std::string_view key);

struct TensorFields {
    size_t name_len; // uint64
    size_t name;
    size_t n_dims; // uint32
    size_t ne;     // int64[n_dims]
    size_t type;   // int32
    size_t offset; // uint64
};
TensorFields tensor_fields(const Bytes& bytes, std::string_view name);

template <typename T> void poke(Bytes& bytes, size_t at, T v) {
    std::memcpy(bytes.data() + at, &v, sizeof(T));
}
template <typename T> T peek(const Bytes& bytes, size_t at) {
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    return v;
}

Bytes truncated(const Bytes& bytes, size_t size);

bool write_file(const std::string& path, const Bytes& bytes);
Bytes read_file(const std::string& path);

} // namespace folio::test
