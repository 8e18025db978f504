// GGUF v3 writer: header, key/value records, tensor infos, then the aligned payloads.
#include "gguf/gguf_writer.h"

#include "gguf/atomic_file.h"

#include <bit>
#include <cstring>

namespace folio::gguf {

namespace {

constexpr uint32_t kMagic = 0x46554747;
constexpr uint32_t kVersion = 3;

uint64_t align_up(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}

// Little-endian serialization into a byte vector (the host is little-endian, byte_cursor.h).
class Bytes {
public:
    explicit Bytes(std::vector<uint8_t>& out) : out_(out) {}
    template <typename T> void put(T v) {
        uint8_t b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        out_.insert(out_.end(), b, b + sizeof(T));
    }
    void put_string(std::string_view s) {
        put<uint64_t>(s.size());
        out_.insert(out_.end(), s.begin(), s.end());
    }
    // A scalar of `type` from the widened representation of Value / ArrayValue.
    void put_scalar(ValueType type, int64_t i, double f, std::string_view s) {
        switch (type) {
        case ValueType::U8:
            put(static_cast<uint8_t>(i));
            break;
        case ValueType::I8:
            put(static_cast<int8_t>(i));
            break;
        case ValueType::U16:
            put(static_cast<uint16_t>(i));
            break;
        case ValueType::I16:
            put(static_cast<int16_t>(i));
            break;
        case ValueType::U32:
            put(static_cast<uint32_t>(i));
            break;
        case ValueType::I32:
            put(static_cast<int32_t>(i));
            break;
        case ValueType::F32:
            put(static_cast<float>(f));
            break;
        case ValueType::Bool:
            put(static_cast<uint8_t>(i != 0 ? 1 : 0));
            break;
        case ValueType::String:
            put_string(s);
            break;
        case ValueType::U64:
            put(std::bit_cast<uint64_t>(i));
            break;
        case ValueType::I64:
            put(i);
            break;
        case ValueType::F64:
            put(f);
            break;
        case ValueType::Array:
            break; // rejected by validate_metadata
        }
    }

private:
    std::vector<uint8_t>& out_;
};

Value scalar(ValueType t, int64_t i, double f = 0, std::string s = {}) {
    Value v;
    v.type = t;
    v.i = i;
    v.f = f;
    v.s = std::move(s);
    return v;
}

Value array_value(std::shared_ptr<ArrayValue> a) {
    Value v;
    v.type = ValueType::Array;
    v.array = std::move(a);
    return v;
}

bool is_float(ValueType t) {
    return t == ValueType::F32 || t == ValueType::F64;
}

} // namespace

uint32_t natural_n_dims(const std::vector<int64_t>& ne) {
    uint32_t n = 1;
    for (size_t d = 0; d < ne.size(); ++d)
        if (ne[d] != 1)
            n = static_cast<uint32_t>(d + 1);
    return n;
}

Writer::Writer() = default;
Writer::~Writer() = default;
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

void Writer::set_value(const std::string& key, Value v) {
    for (KeyValue& kv : kvs_)
        if (kv.key == key) {
            kv.value = std::move(v);
            return;
        }
    KeyValue kv;
    kv.key = key;
    kv.value = std::move(v);
    kvs_.push_back(std::move(kv));
}

bool Writer::remove_key(const std::string& key) {
    for (auto it = kvs_.begin(); it != kvs_.end(); ++it)
        if (it->key == key) {
            kvs_.erase(it);
            return true;
        }
    return false;
}

void Writer::set_u8(const std::string& k, uint8_t v) {
    set_value(k, scalar(ValueType::U8, v));
}
void Writer::set_i8(const std::string& k, int8_t v) {
    set_value(k, scalar(ValueType::I8, v));
}
void Writer::set_u16(const std::string& k, uint16_t v) {
    set_value(k, scalar(ValueType::U16, v));
}
void Writer::set_i16(const std::string& k, int16_t v) {
    set_value(k, scalar(ValueType::I16, v));
}
void Writer::set_u32(const std::string& k, uint32_t v) {
    set_value(k, scalar(ValueType::U32, v));
}
void Writer::set_i32(const std::string& k, int32_t v) {
    set_value(k, scalar(ValueType::I32, v));
}
void Writer::set_u64(const std::string& k, uint64_t v) {
    set_value(k, scalar(ValueType::U64, std::bit_cast<int64_t>(v)));
}
void Writer::set_i64(const std::string& k, int64_t v) {
    set_value(k, scalar(ValueType::I64, v));
}
void Writer::set_f32(const std::string& k, float v) {
    set_value(k, scalar(ValueType::F32, 0, v));
}
void Writer::set_f64(const std::string& k, double v) {
    set_value(k, scalar(ValueType::F64, 0, v));
}
void Writer::set_bool(const std::string& k, bool v) {
    set_value(k, scalar(ValueType::Bool, v));
}
void Writer::set_string(const std::string& k, std::string v) {
    set_value(k, scalar(ValueType::String, 0, 0, std::move(v)));
}

void Writer::set_int_array(const std::string& key, ValueType element_type, std::vector<int64_t> v) {
    auto a = std::make_shared<ArrayValue>();
    a->element_type = element_type;
    a->ints = std::move(v);
    set_value(key, array_value(std::move(a)));
}

void Writer::set_f32_array(const std::string& key, const std::vector<float>& v) {
    auto a = std::make_shared<ArrayValue>();
    a->element_type = ValueType::F32;
    a->floats.assign(v.begin(), v.end());
    set_value(key, array_value(std::move(a)));
}

void Writer::set_f64_array(const std::string& key, std::vector<double> v) {
    auto a = std::make_shared<ArrayValue>();
    a->element_type = ValueType::F64;
    a->floats = std::move(v);
    set_value(key, array_value(std::move(a)));
}

void Writer::set_string_array(const std::string& key, std::vector<std::string> v) {
    auto a = std::make_shared<ArrayValue>();
    a->element_type = ValueType::String;
    a->strings = std::move(v);
    set_value(key, array_value(std::move(a)));
}

uint32_t Writer::alignment() const {
    for (const KeyValue& kv : kvs_)
        if (kv.key == "general.alignment" && kv.value.type == ValueType::U32)
            return static_cast<uint32_t>(kv.value.i);
    return 32;
}

Status Writer::add(const std::string& name, const std::vector<int64_t>& ne, DType type,
                   std::span<const uint8_t> view, std::vector<uint8_t> owned, bool has_payload) {
    auto bad = [&](const std::string& what) {
        return make_error(ErrorCode::InvalidArgument, "tensor '" + name + "': " + what);
    };
    if (name.empty() || name.size() >= 64)
        return bad("name must be 1..63 bytes long");
    for (const TensorSpec& s : specs_)
        if (s.name == name)
            return bad("duplicate tensor name");
    if (ne.empty() || ne.size() > 4)
        return bad("needs 1..4 dimensions, got " + std::to_string(ne.size()));
    const DTypeTraits traits = dtype_traits(type);
    if (traits.block_bytes == 0)
        return bad("unknown type");
    TensorSpec spec;
    spec.name = name;
    spec.type = type;
    for (size_t d = 0; d < ne.size(); ++d) {
        if (ne[d] < 0)
            return bad("negative dimension");
        spec.ne[d] = ne[d];
    }
    spec.n_dims = natural_n_dims(ne);
    if (spec.ne[0] % traits.block_size != 0)
        return bad("ne[0] = " + std::to_string(spec.ne[0]) + " is not a multiple of the " +
                   std::string(traits.name) + " block size " + std::to_string(traits.block_size));
    uint64_t bytes = static_cast<uint64_t>(spec.ne[0]) / traits.block_size * traits.block_bytes;
    for (int d = 1; d < 4; ++d)
        if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(spec.ne[d]), &bytes))
            return bad("size overflows");
    spec.size_bytes = bytes;
    Payload p;
    if (has_payload) {
        const uint64_t got = owned.empty() ? view.size() : owned.size();
        if (got != bytes)
            return bad("payload has " + std::to_string(got) + " bytes, the shape needs " +
                       std::to_string(bytes));
        p.owned = std::move(owned);
        p.view = view;
        p.present = true;
    }
    specs_.push_back(std::move(spec));
    payloads_.push_back(std::move(p));
    return {};
}

Status Writer::add_tensor(const std::string& name, const std::vector<int64_t>& ne, DType type,
                          std::span<const uint8_t> bytes) {
    return add(name, ne, type, {}, std::vector<uint8_t>(bytes.begin(), bytes.end()), true);
}

Status Writer::add_tensor_view(const std::string& name, const std::vector<int64_t>& ne, DType type,
                               std::span<const uint8_t> bytes) {
    return add(name, ne, type, bytes, {}, true);
}

Status Writer::add_tensor_info(const std::string& name, const std::vector<int64_t>& ne,
                               DType type) {
    return add(name, ne, type, {}, {}, false);
}

Status Writer::validate_metadata() const {
    for (size_t i = 0; i < kvs_.size(); ++i) {
        const KeyValue& kv = kvs_[i];
        auto bad = [&](const std::string& what) {
            return make_error(ErrorCode::InvalidArgument, "key '" + kv.key + "': " + what);
        };
        if (kv.key.empty())
            return bad("empty key");
        if (kv.value.type == ValueType::Array) {
            if (!kv.value.array)
                return bad("array without elements");
            const ValueType et = kv.value.array->element_type;
            if (et == ValueType::Array)
                return bad("nested arrays are not allowed");
            const ArrayValue& a = *kv.value.array;
            const bool consistent = et == ValueType::String ? a.ints.empty() && a.floats.empty()
                                    : is_float(et)          ? a.ints.empty() && a.strings.empty()
                                                            : a.floats.empty() && a.strings.empty();
            if (!consistent)
                return bad("array elements stored in the wrong vector for element type " +
                           std::string(value_type_name(et)));
        }
    }
    const uint32_t a = alignment();
    if (a == 0 || !std::has_single_bit(a))
        return make_error(ErrorCode::InvalidArgument, "general.alignment " + std::to_string(a) +
                                                          " is not a non-zero power of two");
    for (const KeyValue& kv : kvs_)
        if (kv.key == "general.alignment" && kv.value.type != ValueType::U32)
            return make_error(ErrorCode::InvalidArgument, "general.alignment must be uint32");
    return {};
}

Expected<std::vector<uint8_t>> Writer::serialize_header() const {
    FOLIO_CHECK(validate_metadata());
    std::vector<uint8_t> out;
    Bytes b(out);
    b.put(kMagic);
    b.put(kVersion);
    b.put<uint64_t>(specs_.size());
    b.put<uint64_t>(kvs_.size());
    for (const KeyValue& kv : kvs_) {
        b.put_string(kv.key);
        b.put(static_cast<int32_t>(kv.value.type));
        if (kv.value.type != ValueType::Array) {
            b.put_scalar(kv.value.type, kv.value.i, kv.value.f, kv.value.s);
            continue;
        }
        const ArrayValue& a = *kv.value.array;
        b.put(static_cast<int32_t>(a.element_type));
        b.put<uint64_t>(a.size());
        if (a.element_type == ValueType::String)
            for (const std::string& s : a.strings)
                b.put_string(s);
        else if (is_float(a.element_type))
            for (double f : a.floats)
                b.put_scalar(a.element_type, 0, f, {});
        else
            for (int64_t i : a.ints)
                b.put_scalar(a.element_type, i, 0, {});
    }
    // offset = running sum of padded sizes, in tensor-info order.
    const uint32_t align = alignment();
    uint64_t offset = 0;
    for (const TensorSpec& s : specs_) {
        b.put_string(s.name);
        b.put(s.n_dims);
        for (uint32_t d = 0; d < s.n_dims; ++d)
            b.put(s.ne[d]);
        b.put(static_cast<int32_t>(s.type));
        b.put(offset);
        offset += align_up(s.size_bytes, align);
    }
    out.resize(align_up(out.size(), align), 0); // zero padding up to the data section
    return out;
}

Expected<uint64_t> Writer::file_size() const {
    FOLIO_TRY(header, serialize_header());
    const uint32_t align = alignment();
    uint64_t total = header.size();
    for (const TensorSpec& s : specs_)
        total += align_up(s.size_bytes, align);
    return total;
}

Status Writer::write(const std::string& path) const {
    for (size_t i = 0; i < specs_.size(); ++i)
        if (!payloads_[i].present)
            return make_error(ErrorCode::InvalidArgument,
                              path + ": tensor '" + specs_[i].name + "' has no payload");
    FOLIO_TRY(stream, begin(path));
    for (size_t i = 0; i < specs_.size(); ++i) {
        const Payload& p = payloads_[i];
        std::span<const uint8_t> bytes =
            p.owned.empty() ? p.view : std::span<const uint8_t>(p.owned);
        FOLIO_CHECK(stream->write_tensor_data(i, bytes));
    }
    return stream->finish();
}

Expected<std::unique_ptr<StreamWriter>> Writer::begin(const std::string& path) const {
    FOLIO_TRY(header, serialize_header());
    FOLIO_TRY(file, AtomicFile::create(path));
    FOLIO_CHECK(file->write(header));
    std::unique_ptr<StreamWriter> s(new StreamWriter());
    s->path_ = path;
    s->specs_ = specs_;
    s->alignment_ = alignment();
    s->file_ = std::move(file);
    return s;
}

StreamWriter::~StreamWriter() = default;

Status StreamWriter::write_tensor_data(size_t index, std::span<const uint8_t> bytes) {
    if (finished_ || !file_)
        return make_error(ErrorCode::InvalidArgument, path_ + ": stream already finished");
    // Skip over tensors that are complete (an empty tensor needs no call).
    while (current_ < specs_.size() && current_written_ == specs_[current_].size_bytes &&
           current_ < index) {
        FOLIO_CHECK(file_->write_zeros(align_up(current_written_, alignment_) - current_written_));
        ++current_;
        current_written_ = 0;
    }
    if (index >= specs_.size() || index != current_)
        return make_error(
            ErrorCode::InvalidArgument,
            path_ + ": tensor payloads must be written in order: got tensor " +
                std::to_string(index) + ", expected tensor " + std::to_string(current_) +
                (current_ < specs_.size() ? " ('" + specs_[current_].name + "')" : std::string()));
    const TensorSpec& spec = specs_[current_];
    if (bytes.size() > spec.size_bytes - current_written_)
        return make_error(ErrorCode::InvalidArgument,
                          path_ + ": tensor '" + spec.name + "' payload exceeds its " +
                              std::to_string(spec.size_bytes) + " bytes");
    FOLIO_CHECK(file_->write(bytes));
    current_written_ += bytes.size();
    return {};
}

Status StreamWriter::finish() {
    if (finished_ || !file_)
        return make_error(ErrorCode::InvalidArgument, path_ + ": stream already finished");
    while (current_ < specs_.size()) {
        const TensorSpec& spec = specs_[current_];
        if (current_written_ != spec.size_bytes)
            return make_error(ErrorCode::InvalidArgument,
                              path_ + ": tensor '" + spec.name + "' got " +
                                  std::to_string(current_written_) + " of " +
                                  std::to_string(spec.size_bytes) + " payload bytes");
        FOLIO_CHECK(file_->write_zeros(align_up(current_written_, alignment_) - current_written_));
        ++current_;
        current_written_ = 0;
    }
    FOLIO_CHECK(file_->commit());
    finished_ = true;
    return {};
}

} // namespace folio::gguf
