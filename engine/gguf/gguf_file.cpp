// GGUF reader: parses and validates the container (ggml's docs/gguf.md) over a read-only mmap.
// Every count and length is checked against the bytes that remain before anything is reserved,
// so a hostile file cannot make us allocate more than a small multiple of its own size.
#include "gguf/gguf_file.h"

#include "gguf/byte_cursor.h"
#include "gguf/mapped_file.h"

#include <bit>
#include <cstdio>
#include <limits>

#include <fcntl.h>
#include <unistd.h>

namespace folio::gguf {

namespace {

constexpr uint32_t kMagic = 0x46554747;            // "GGUF" read little-endian
constexpr uint64_t kMaxLength = uint64_t(1) << 30; // strings and arrays
constexpr uint64_t kMinKvBytes = 12;               // key length + value type + 1 byte
constexpr uint64_t kMinTensorInfoBytes = 24;       // name length + n_dims + ne[0] + type
constexpr uint32_t kDefaultAlignment = 32;
constexpr size_t kMaxTensorName = 63; // names must be shorter than 64 bytes

// Printable rendering of untrusted text for messages (control bytes escaped, long text cut).
std::string printable(std::string_view s) {
    std::string out;
    const size_t limit = 80;
    for (size_t i = 0; i < s.size() && i < limit; ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > limit)
        out += "...";
    return out;
}

std::string num(uint64_t v) {
    return std::to_string(v);
}

uint64_t align_up(uint64_t v, uint64_t alignment) {
    return (v + alignment - 1) / alignment * alignment;
}

// Names of ggml types Folio has no block table for, to make the message useful.
std::string ggml_type_label(int32_t id) {
    switch (id) {
    case 16:
        return " (iq2_xxs)";
    case 17:
        return " (iq2_xs)";
    case 18:
        return " (iq3_xxs)";
    case 19:
        return " (iq1_s)";
    case 20:
        return " (iq4_nl)";
    case 21:
        return " (iq3_s)";
    case 22:
        return " (iq2_s)";
    case 23:
        return " (iq4_xs)";
    case 29:
        return " (iq1_m)";
    case 34:
        return " (tq1_0)";
    case 35:
        return " (tq2_0)";
    case 40:
        return " (nvfp4)";
    case 41:
        return " (q1_0)";
    case 42:
        return " (q2_0)";
    case 4:
    case 5:
    case 31:
    case 32:
    case 33:
    case 36:
    case 37:
    case 38:
        return " (retired)";
    default:
        return " (unknown)";
    }
}

} // namespace

struct FileParser {
    File& f;
    ByteCursor cur;
    std::string ctx = "header";

    Error fail(uint64_t at, const std::string& what) const {
        return make_error(ErrorCode::Format,
                          f.path_ + ": " + ctx + " at byte " + num(at) + ": " + what);
    }

    template <typename T> Expected<T> read(const char* field) {
        const uint64_t at = cur.pos();
        T v{};
        if (!cur.read(v))
            return fail(at, std::string("truncated: ") + field + " needs " + num(sizeof(T)) +
                                " bytes, " + num(cur.remaining()) + " left");
        return v;
    }

    // A string: uint64 length + bytes; length ≤ 2^30 and ≤ the remaining bytes.
    Expected<std::string_view> read_string(const std::string& field) {
        const uint64_t at = cur.pos();
        FOLIO_TRY(len, read<uint64_t>((field + " length").c_str()));
        if (len > kMaxLength)
            return fail(at, field + " length " + num(len) + " exceeds the limit of 2^30");
        std::string_view s;
        if (!cur.read_bytes(len, s))
            return fail(at, field + " length " + num(len) + " exceeds the remaining " +
                                num(cur.remaining()) + " bytes");
        return s;
    }

    Status parse();
    Status parse_header(uint64_t& n_tensors, uint64_t& n_kv);
    Status parse_kv(uint64_t index);
    Status parse_scalar(ValueType type, Value& out, const std::string& field);
    Status parse_array(Value& out);
    Status check_alignment();
    Status parse_tensor_info(uint64_t index, std::vector<uint64_t>& offset_field_pos);
    Status place_tensors(const std::vector<uint64_t>& offset_field_pos);
};

Status FileParser::parse_header(uint64_t& n_tensors, uint64_t& n_kv) {
    const uint64_t magic_at = cur.pos();
    FOLIO_TRY(magic, read<uint32_t>("magic"));
    if (magic != kMagic) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08x", magic);
        return fail(magic_at, std::string("bad magic ") + buf + " (expected 'GGUF')");
    }
    const uint64_t version_at = cur.pos();
    FOLIO_TRY(version, read<uint32_t>("version"));
    // A version whose low 16 bits are zero is a byte-swapped (big-endian) file.
    if (version == 0)
        return fail(version_at, "GGUF version 0 is invalid");
    if ((version & 0xFFFFu) == 0) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08x", version);
        return fail(version_at, std::string("version ") + buf +
                                    " looks byte-swapped: big-endian GGUF files are not supported");
    }
    if (version == 1)
        return fail(version_at, "GGUF version 1 is not supported (only 2 and 3)");
    if (version > 3)
        return fail(version_at, "unsupported GGUF version " + num(version) + " (only 2 and 3)");
    f.version_ = version;

    const uint64_t tc_at = cur.pos();
    FOLIO_TRY(tc, read<uint64_t>("tensor_count"));
    const uint64_t kc_at = cur.pos();
    FOLIO_TRY(kc, read<uint64_t>("kv_count"));
    // Both are read as int64 by ggml; then each record has a minimum size.
    if (tc > uint64_t(std::numeric_limits<int64_t>::max()))
        return fail(tc_at, "tensor_count " + num(tc) + " is negative as int64");
    if (kc > uint64_t(std::numeric_limits<int64_t>::max()))
        return fail(kc_at, "kv_count " + num(kc) + " is negative as int64");
    const uint64_t rest = cur.remaining();
    if (kc > rest / kMinKvBytes)
        return fail(kc_at, "kv_count " + num(kc) + " cannot fit in the remaining " + num(rest) +
                               " bytes (each record needs at least " + num(kMinKvBytes) + ")");
    if (tc > (rest - kc * kMinKvBytes) / kMinTensorInfoBytes)
        return fail(tc_at, "tensor_count " + num(tc) + " cannot fit in the remaining " + num(rest) +
                               " bytes (each tensor info needs at least " +
                               num(kMinTensorInfoBytes) + ")");
    n_tensors = tc;
    n_kv = kc;
    return {};
}

Status FileParser::parse_scalar(ValueType type, Value& out, const std::string& field) {
    const char* what = field.c_str();
    out.type = type;
    switch (type) {
    case ValueType::U8: {
        FOLIO_TRY(v, read<uint8_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::I8: {
        FOLIO_TRY(v, read<int8_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::U16: {
        FOLIO_TRY(v, read<uint16_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::I16: {
        FOLIO_TRY(v, read<int16_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::U32: {
        FOLIO_TRY(v, read<uint32_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::I32: {
        FOLIO_TRY(v, read<int32_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::F32: {
        FOLIO_TRY(v, read<float>(what));
        out.f = v;
        return {};
    }
    case ValueType::Bool: {
        FOLIO_TRY(v, read<uint8_t>(what)); // 0 = false, anything else = true
        out.i = v != 0 ? 1 : 0;
        return {};
    }
    case ValueType::String: {
        FOLIO_TRY(s, read_string(field));
        out.s.assign(s);
        return {};
    }
    case ValueType::U64: {
        FOLIO_TRY(v, read<uint64_t>(what));
        out.i = std::bit_cast<int64_t>(v);
        return {};
    }
    case ValueType::I64: {
        FOLIO_TRY(v, read<int64_t>(what));
        out.i = v;
        return {};
    }
    case ValueType::F64: {
        FOLIO_TRY(v, read<double>(what));
        out.f = v;
        return {};
    }
    case ValueType::Array:
        break;
    }
    return fail(cur.pos(), "internal: not a scalar type");
}

Status FileParser::parse_array(Value& out) {
    const uint64_t type_at = cur.pos();
    FOLIO_TRY(raw_type, read<int32_t>("array element type"));
    if (raw_type == static_cast<int32_t>(ValueType::Array))
        return fail(type_at, "nested arrays are not supported (array element type 9)");
    if (!is_valid_value_type(raw_type))
        return fail(type_at, "unknown array element type " + std::to_string(raw_type));
    const auto et = static_cast<ValueType>(raw_type);
    const uint64_t n_at = cur.pos();
    FOLIO_TRY(n, read<uint64_t>("array length"));
    if (n > kMaxLength)
        return fail(n_at, "array length " + num(n) + " exceeds the limit of 2^30");
    // Strings need at least their 8-byte length each; n ≤ 2^30 so this cannot overflow.
    const uint64_t min_elem = et == ValueType::String ? 8 : value_type_size(et);
    if (n * min_elem > cur.remaining())
        return fail(n_at, "array length " + num(n) + " of " + std::string(value_type_name(et)) +
                              " needs at least " + num(n * min_elem) + " bytes, " +
                              num(cur.remaining()) + " left");

    auto arr = std::make_shared<ArrayValue>();
    arr->element_type = et;
    Value elem;
    if (et == ValueType::String)
        arr->strings.reserve(n);
    else if (et == ValueType::F32 || et == ValueType::F64)
        arr->floats.reserve(n);
    else
        arr->ints.reserve(n);
    for (uint64_t k = 0; k < n; ++k) {
        FOLIO_CHECK(parse_scalar(et, elem, "array element " + num(k)));
        if (et == ValueType::String)
            arr->strings.push_back(std::move(elem.s));
        else if (et == ValueType::F32 || et == ValueType::F64)
            arr->floats.push_back(elem.f);
        else
            arr->ints.push_back(elem.i);
    }
    out.type = ValueType::Array;
    out.array = std::move(arr);
    return {};
}

Status FileParser::parse_kv(uint64_t index) {
    ctx = "kv " + num(index);
    KeyValue kv;
    kv.file_offset = cur.pos();
    FOLIO_TRY(key, read_string("key"));
    if (key.empty())
        return fail(kv.file_offset, "empty key");
    ctx += " ('" + printable(key) + "')";
    if (auto it = f.key_index_.find(key); it != f.key_index_.end())
        return fail(kv.file_offset, "duplicate key '" + printable(key) + "' (first at byte " +
                                        num(f.kvs_[it->second].file_offset) + ")");
    kv.key.assign(key);
    const uint64_t type_at = cur.pos();
    FOLIO_TRY(raw_type, read<int32_t>("value type"));
    if (!is_valid_value_type(raw_type))
        return fail(type_at, "unknown value type " + std::to_string(raw_type));
    const auto type = static_cast<ValueType>(raw_type);
    if (type == ValueType::Array)
        FOLIO_CHECK(parse_array(kv.value));
    else
        FOLIO_CHECK(parse_scalar(type, kv.value, "value"));
    // The index holds views into kvs_: kvs_ was reserved for all records, so no reallocation.
    f.kvs_.push_back(std::move(kv));
    f.key_index_.emplace(f.kvs_.back().key, f.kvs_.size() - 1);
    return {};
}

// general.alignment must be UINT32, a non-zero power of two; absent means 32.
Status FileParser::check_alignment() {
    f.alignment_ = kDefaultAlignment;
    const KeyValue* kv = f.find_key("general.alignment");
    if (kv == nullptr)
        return {};
    ctx = "key 'general.alignment'";
    if (kv->value.type != ValueType::U32)
        return fail(kv->file_offset, "general.alignment has type " +
                                         std::string(value_type_name(kv->value.type)) +
                                         ", expected uint32");
    const auto a = static_cast<uint32_t>(kv->value.i);
    if (a == 0 || !std::has_single_bit(a))
        return fail(kv->file_offset,
                    "general.alignment " + num(a) + " is not a non-zero power of two");
    f.alignment_ = a;
    return {};
}

Status FileParser::parse_tensor_info(uint64_t index, std::vector<uint64_t>& offset_field_pos) {
    ctx = "tensor info " + num(index);
    const uint64_t start = cur.pos();
    FOLIO_TRY(name, read_string("tensor name"));
    if (name.empty())
        return fail(start, "empty tensor name");
    ctx += " ('" + printable(name) + "')";
    if (name.size() > kMaxTensorName)
        return fail(start,
                    "tensor name is " + num(name.size()) + " bytes long, the limit is 63 bytes");
    if (auto it = f.tensor_index_.find(name); it != f.tensor_index_.end())
        return fail(start, "duplicate tensor name '" + printable(name) + "' (also tensor info " +
                               num(it->second) + ")");
    TensorInfo t;
    t.name.assign(name);

    const uint64_t nd_at = cur.pos();
    FOLIO_TRY(n_dims, read<uint32_t>("n_dims"));
    if (n_dims < 1 || n_dims > 4)
        return fail(nd_at, "n_dims " + num(n_dims) + " out of range 1..4");
    t.n_dims = n_dims;
    for (uint32_t d = 0; d < n_dims; ++d) {
        const uint64_t ne_at = cur.pos();
        FOLIO_TRY(ne, read<int64_t>("ne"));
        if (ne < 0)
            return fail(ne_at, "ne[" + num(d) + "] = " + std::to_string(ne) + " is negative");
        t.ne[d] = ne;
    }
    int64_t n_elements = 1;
    for (int64_t ne : t.ne)
        if (__builtin_mul_overflow(n_elements, ne, &n_elements))
            return fail(nd_at, "element count of shape [" + std::to_string(t.ne[0]) + ", " +
                                   std::to_string(t.ne[1]) + ", " + std::to_string(t.ne[2]) + ", " +
                                   std::to_string(t.ne[3]) + "] overflows int64");

    const uint64_t type_at = cur.pos();
    FOLIO_TRY(raw_type, read<int32_t>("type"));
    std::optional<DTypeTraits> traits;
    if (raw_type >= 0)
        traits = dtype_traits(static_cast<uint32_t>(raw_type));
    if (!traits)
        return fail(type_at, "ggml type " + std::to_string(raw_type) + ggml_type_label(raw_type) +
                                 " is not supported");
    t.type = traits->type;
    if (t.ne[0] % traits->block_size != 0)
        return fail(type_at, "ne[0] = " + std::to_string(t.ne[0]) + " is not a multiple of " +
                                 std::string(traits->name) + " block size " +
                                 num(traits->block_size));
    // Payload = ne[0]/block · block_bytes · ne[1] · ne[2] · ne[3], overflow-checked.
    uint64_t bytes = static_cast<uint64_t>(t.ne[0]) / traits->block_size * traits->block_bytes;
    for (int d = 1; d < 4; ++d)
        if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(t.ne[d]), &bytes))
            return fail(type_at, "payload size overflows uint64");
    t.size_bytes = bytes;

    offset_field_pos.push_back(cur.pos());
    FOLIO_TRY(offset, read<uint64_t>("offset"));
    t.offset = offset;
    f.tensors_.push_back(std::move(t));
    f.tensor_index_.emplace(f.tensors_.back().name, f.tensors_.size() - 1);
    return {};
}

// Offsets are exactly the running sum of padded sizes, and every payload lies in the file.
Status FileParser::place_tensors(const std::vector<uint64_t>& offset_field_pos) {
    const uint64_t info_end = cur.pos();
    const uint64_t data_offset = align_up(info_end, f.alignment_);
    if (f.tensors_.empty()) {
        f.data_offset_ = std::min(data_offset, f.size_);
        return {};
    }
    if (data_offset > f.size_) {
        ctx = "data section";
        return fail(info_end, "padding to alignment " + num(f.alignment_) + " ends at byte " +
                                  num(data_offset) + ", past the end of the file (" + num(f.size_) +
                                  " bytes)");
    }
    f.data_offset_ = data_offset;
    const uint64_t data_size = f.size_ - data_offset;
    uint64_t expected = 0;
    for (size_t i = 0; i < f.tensors_.size(); ++i) {
        TensorInfo& t = f.tensors_[i];
        ctx = "tensor info " + num(i) + " ('" + t.name + "')";
        if (t.offset != expected)
            return fail(offset_field_pos[i], "tensor '" + t.name + "' has offset " + num(t.offset) +
                                                 ", expected " + num(expected));
        if (t.offset > data_size || t.size_bytes > data_size - t.offset)
            return fail(data_offset + t.offset,
                        "tensor '" + t.name + "' payload of " + num(t.size_bytes) +
                            " bytes at data offset " + num(t.offset) +
                            " extends past the end of the file (" + num(f.size_) + " bytes)");
        t.data = f.map_ + data_offset + t.offset;
        // Padded size ≤ data_size + alignment, so the running sum cannot overflow.
        expected = t.offset + align_up(t.size_bytes, f.alignment_);
    }
    return {};
}

Status FileParser::parse() {
    uint64_t n_tensors = 0, n_kv = 0;
    FOLIO_CHECK(parse_header(n_tensors, n_kv));
    f.kvs_.reserve(n_kv); // bounded by the remaining bytes / 12 (checked above)
    for (uint64_t i = 0; i < n_kv; ++i)
        FOLIO_CHECK(parse_kv(i));
    FOLIO_CHECK(check_alignment());
    ctx = "tensor infos";
    if (n_tensors > cur.remaining() / kMinTensorInfoBytes)
        return fail(cur.pos(), "tensor_count " + num(n_tensors) + " cannot fit in the remaining " +
                                   num(cur.remaining()) + " bytes");
    f.tensors_.reserve(n_tensors);
    std::vector<uint64_t> offset_field_pos;
    offset_field_pos.reserve(n_tensors);
    for (uint64_t i = 0; i < n_tensors; ++i)
        FOLIO_CHECK(parse_tensor_info(i, offset_field_pos));
    return place_tensors(offset_field_pos);
}

Expected<std::unique_ptr<File>> File::open(const std::string& path) {
    FOLIO_TRY(mapping, map_file_readonly(path));
    std::unique_ptr<File> f(new File());
    f->path_ = path;
    f->map_ = mapping.data;
    f->size_ = mapping.size;
    f->guard_ = FaultGuard(mapping.data, mapping.size, false);
    FileParser parser{*f, ByteCursor(mapping.data, mapping.size)};
    FOLIO_CHECK(parser.parse());
    return f;
}

Expected<bool> File::copy_into_memory(const std::function<void(double)>& progress,
                                      const std::function<bool()>& cancelled) {
    if (in_memory_)
        return true;
    const double total = size_ > 0 ? static_cast<double>(size_) : 1.0;
    auto keep_going = [&](uint64_t done) {
        if (cancelled && cancelled())
            return false;
        if (progress)
            progress(static_cast<double>(done) / total);
        return true;
    };
    const Mapping mapping{map_, size_};
    FOLIO_TRY(copied, copy_mapping_into_memory(mapping, keep_going));
    if (!copied)
        return false;
    in_memory_ = true;
    // The file's pages in the system's cache are clean and no longer mapped here: a hint that
    // they may go (another program mapping the file keeps them).
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
    }
    return true;
}

File::~File() {
    guard_ = FaultGuard(); // before the range can be reused by another mapping
    unmap_file(Mapping{map_, size_});
}

const KeyValue* File::find_key(std::string_view key) const {
    auto it = key_index_.find(key);
    return it == key_index_.end() ? nullptr : &kvs_[it->second];
}

const TensorInfo* File::find_tensor(std::string_view name) const {
    auto it = tensor_index_.find(name);
    return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

} // namespace folio::gguf
