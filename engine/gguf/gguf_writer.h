#pragma once
// GGUF v3 writer (ggml's docs/gguf.md). Collect metadata and tensor descriptions, then either
// write() everything at once, or begin() a stream and hand over the payloads tensor by tensor
// (a quantizer writing a file larger than memory). Files are written atomically: a temporary
// file next to the destination, fsync, rename.
//
//   gguf::Writer w;
//   w.set_string("general.architecture", "deepseek2");
//   w.set_u32("deepseek2.block_count", 4);
//   FOLIO_CHECK(w.add_tensor("token_embd.weight", {128, 320}, DType::F32, bytes));
//   FOLIO_CHECK(w.write("model.gguf"));

#include "gguf/gguf_file.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace folio::gguf {

class AtomicFile;

// Number of dimensions up to the last one ≠ 1 (minimum 1), as ggml's writer stores it.
uint32_t natural_n_dims(const std::vector<int64_t>& ne);

// A tensor as the header describes it.
struct TensorSpec {
    std::string name;
    uint32_t n_dims = 1;
    std::array<int64_t, 4> ne{1, 1, 1, 1};
    DType type = DType::F32;
    uint64_t size_bytes = 0; // payload size (unpadded); offsets follow from the alignment
};

class StreamWriter;

class Writer {
public:
    Writer();
    ~Writer();
    Writer(Writer&&) noexcept;
    Writer& operator=(Writer&&) noexcept;

    // Metadata, written in insertion order; setting an existing key replaces its value in place.
    void set_u8(const std::string& key, uint8_t v);
    void set_i8(const std::string& key, int8_t v);
    void set_u16(const std::string& key, uint16_t v);
    void set_i16(const std::string& key, int16_t v);
    void set_u32(const std::string& key, uint32_t v);
    void set_i32(const std::string& key, int32_t v);
    void set_u64(const std::string& key, uint64_t v);
    void set_i64(const std::string& key, int64_t v);
    void set_f32(const std::string& key, float v);
    void set_f64(const std::string& key, double v);
    void set_bool(const std::string& key, bool v);
    void set_string(const std::string& key, std::string v);
    // Integer arrays of any integer element type (values are truncated to its width) or BOOL.
    void set_int_array(const std::string& key, ValueType element_type, std::vector<int64_t> v);
    void set_f32_array(const std::string& key, const std::vector<float>& v);
    void set_f64_array(const std::string& key, std::vector<double> v);
    void set_string_array(const std::string& key, std::vector<std::string> v);
    void set_value(const std::string& key, Value v);
    bool remove_key(const std::string& key);
    // Sets general.alignment (UINT32); must be a non-zero power of two (checked on write).
    void set_alignment(uint32_t alignment) { set_u32("general.alignment", alignment); }
    // general.alignment if set, else 32.
    uint32_t alignment() const;

    // Tensors in file order. `ne` has 1..4 entries in ggml order (ne[0] contiguous). The
    // name must be non-empty, < 64 bytes and unique; ne[0] a multiple of the block size.
    // add_tensor copies the payload, add_tensor_view keeps a view that must stay valid until
    // write() returns, add_tensor_info leaves the payload to a StreamWriter.
    Status add_tensor(const std::string& name, const std::vector<int64_t>& ne, DType type,
                      std::span<const uint8_t> bytes);
    Status add_tensor_view(const std::string& name, const std::vector<int64_t>& ne, DType type,
                           std::span<const uint8_t> bytes);
    Status add_tensor_info(const std::string& name, const std::vector<int64_t>& ne, DType type);

    const std::vector<KeyValue>& metadata() const { return kvs_; }
    const std::vector<TensorSpec>& tensors() const { return specs_; }

    // The bytes before the data section (header, kv records, tensor infos, padding).
    Expected<std::vector<uint8_t>> serialize_header() const;
    // Total file size the header describes.
    Expected<uint64_t> file_size() const;

    // Writes the whole file; every tensor must have been added with its payload.
    Status write(const std::string& path) const;
    // Writes the header and returns a stream for the payloads.
    Expected<std::unique_ptr<StreamWriter>> begin(const std::string& path) const;

private:
    Status add(const std::string& name, const std::vector<int64_t>& ne, DType type,
               std::span<const uint8_t> view, std::vector<uint8_t> owned, bool has_payload);
    Status validate_metadata() const;

    std::vector<KeyValue> kvs_;
    std::vector<TensorSpec> specs_;
    struct Payload {
        std::vector<uint8_t> owned;
        std::span<const uint8_t> view;
        bool present = false;
    };
    std::vector<Payload> payloads_;
};

// Payloads after begin(): call write_tensor_data for tensor 0, 1, 2, ... in order (a tensor may
// arrive in several chunks, which are appended), then finish(). Destroying the stream before
// finish() discards the temporary file.
class StreamWriter {
public:
    ~StreamWriter();
    Status write_tensor_data(size_t index, std::span<const uint8_t> bytes);
    Status finish();

private:
    friend class Writer;
    StreamWriter() = default;
    std::string path_;
    std::vector<TensorSpec> specs_;
    uint32_t alignment_ = 32;
    std::unique_ptr<AtomicFile> file_;
    size_t current_ = 0;           // tensor being written
    uint64_t current_written_ = 0; // bytes of it so far
    bool finished_ = false;
};

} // namespace folio::gguf
