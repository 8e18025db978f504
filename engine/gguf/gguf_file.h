#pragma once
// A GGUF file opened by mmap and fully validated (ggml's docs/gguf.md). Tensor payloads are
// views into the mapping: nothing is copied. Opening a truncated, bit-flipped or hostile file
// returns an Error naming the field or tensor and the byte offset; it never crashes, hangs or
// allocates more than the file justifies.

#include "core/fault_guard.h"
#include "folio/error.h"
#include "tensor/dtype.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace folio::gguf {

// GGUF value type numbers (gguf_type).
enum class ValueType : int32_t {
    U8 = 0,
    I8 = 1,
    U16 = 2,
    I16 = 3,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    U64 = 10,
    I64 = 11,
    F64 = 12,
};

// "uint8", "int32", "float32", "bool", "string", "array", ... ("unknown" for other numbers).
std::string_view value_type_name(ValueType t);
// Known value type number (0..12)?
bool is_valid_value_type(int32_t t);
// Encoded size of a scalar of this type, 0 for String/Array.
size_t value_type_size(ValueType t);

// An array value: element type plus the decoded elements. Numeric elements are widened into
// one of the vectors below according to their type (ints → i64/u64, floats → f64, bool → u64);
// strings into `strings`.
struct ArrayValue {
    ValueType element_type = ValueType::U8;
    std::vector<int64_t> ints;  // U8 I8 U16 I16 U32 I32 I64 (U64 stored bit-cast) and Bool
    std::vector<double> floats; // F32 F64
    std::vector<std::string> strings;
    size_t size() const;
};

struct Value {
    ValueType type = ValueType::U8;
    // Scalars: integers and bools in `i` (u64 bit-cast), floats in `f`, strings in `s`.
    int64_t i = 0;
    double f = 0;
    std::string s;
    std::shared_ptr<const ArrayValue> array; // when type == Array
};

struct KeyValue {
    std::string key;
    Value value;
    uint64_t file_offset = 0; // where the record starts
};

struct TensorInfo {
    std::string name;
    uint32_t n_dims = 0;
    std::array<int64_t, 4> ne{1, 1, 1, 1}; // ggml order: ne[0] contiguous
    DType type = DType::F32;
    uint64_t offset = 0;           // relative to the data section
    uint64_t size_bytes = 0;       // payload size (unpadded)
    const uint8_t* data = nullptr; // points into the mapping
    int64_t n_elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    size_t row_bytes() const { return dtype_row_bytes(type, static_cast<uint64_t>(ne[0])); }
};

class File {
public:
    // Opens and validates `path`. See the class comment for what is checked.
    static Expected<std::unique_ptr<File>> open(const std::string& path);
    ~File();
    File(const File&) = delete;
    File& operator=(const File&) = delete;

    const std::string& path() const { return path_; }
    uint32_t version() const { return version_; }
    uint64_t file_size() const { return size_; }
    // The whole file as mapped (or copied into RAM): file_size() bytes from here.
    const uint8_t* bytes() const { return map_; }
    uint32_t alignment() const { return alignment_; }
    uint64_t data_offset() const { return data_offset_; } // absolute start of the data section

    // Pages of the mapping that could not be read since opening (the file was truncated or
    // rewritten under us, or the disk failed): they read as zeros, so whatever was computed from
    // the weights since the last check is wrong. See core/fault_guard.h.
    uint64_t read_faults() const { return guard_.faults(); }

    // Replaces the file's mapping by a private copy in RAM with 2 MiB pages, at the same
    // addresses (mapped_file.h copy_mapping_into_memory), then lets the system drop the file's
    // pages from its cache (they would be a second copy). `progress(fraction)` every 64 MiB;
    // `cancelled()` stops it and keeps the mapping (false). Io when the copy cannot be made.
    Expected<bool> copy_into_memory(const std::function<void(double)>& progress,
                                    const std::function<bool()>& cancelled);
    // The bytes are a private copy in RAM (copy_into_memory succeeded), not the file's pages.
    bool in_memory() const { return in_memory_; }

    const std::vector<KeyValue>& metadata() const { return kvs_; }
    const std::vector<TensorInfo>& tensors() const { return tensors_; }

    const KeyValue* find_key(std::string_view key) const;
    const TensorInfo* find_tensor(std::string_view name) const;

    // Typed getters with llama.cpp's loader's strictness: a present key of another type is an
    // error naming the key, its type and offset; an absent key gives nullopt.
    Expected<std::optional<uint32_t>> get_u32(std::string_view key) const;
    Expected<std::optional<float>> get_f32(std::string_view key) const;
    Expected<std::optional<bool>> get_bool(std::string_view key) const;
    Expected<std::optional<std::string>> get_string(std::string_view key) const;
    // Arrays of the given element kind (ints accept any integer element type).
    Expected<std::optional<std::vector<int64_t>>> get_int_array(std::string_view key) const;
    Expected<std::optional<std::vector<float>>> get_f32_array(std::string_view key) const;
    Expected<std::optional<std::vector<std::string>>> get_string_array(std::string_view key) const;
    // "general.architecture" (required).
    Expected<std::string> architecture() const;

private:
    File() = default;
    std::string path_;
    uint32_t version_ = 0;
    uint64_t size_ = 0;
    uint32_t alignment_ = 32;
    uint64_t data_offset_ = 0;
    const uint8_t* map_ = nullptr;
    bool in_memory_ = false;
    FaultGuard guard_;
    std::vector<KeyValue> kvs_;
    std::vector<TensorInfo> tensors_;
    // Name → index, views into kvs_/tensors_ (built once the vectors are final).
    std::unordered_map<std::string_view, size_t> key_index_;
    std::unordered_map<std::string_view, size_t> tensor_index_;
    friend struct FileParser;
};

} // namespace folio::gguf
