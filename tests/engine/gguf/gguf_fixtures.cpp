#include "gguf_fixtures.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace folio::test {

namespace {

// A fixture that does not match the file is a bug in the test: stop loudly in every build type.
void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "gguf_fixtures: %s\n", what);
        std::abort();
    }
}

} // namespace

Bytes pattern_bytes(size_t n, uint32_t seed) {
    Bytes b(n);
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        b[i] = static_cast<uint8_t>(0x80 | (x >> 24)); // high bit set: never ASCII
    }
    return b;
}

gguf::Writer base_writer() {
    gguf::Writer w;
    w.set_string("general.architecture", "test");
    w.set_string("general.description", std::string(200, 'd'));
    w.set_u32("test.key_a", 7);
    w.set_u32("test.key_b", 8);
    w.set_int_array("test.array", gguf::ValueType::I32, {1, 2, 3});
    w.set_string("test.string", "hello");
    w.set_alignment(32);
    require(bool(w.add_tensor("tensor_a", {8, 4}, DType::F32, pattern_bytes(128, 1))), "tensor_a");
    require(bool(w.add_tensor("tensor_b", {64, 2}, DType::Q8_0, pattern_bytes(136, 2))),
            "tensor_b");
    require(bool(w.add_tensor("tensor_c", {16}, DType::F32, pattern_bytes(64, 3))), "tensor_c");
    return w;
}

Bytes base_file_bytes() {
    gguf::Writer w = base_writer();
    auto header = w.serialize_header();
    require(header.has_value(), "serialize_header failed");
    Bytes out = std::move(header).value();
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        const size_t n = seed == 1 ? 128 : seed == 2 ? 136 : 64;
        Bytes p = pattern_bytes(n, seed);
        out.insert(out.end(), p.begin(), p.end());
        out.resize((out.size() + 31) / 32 * 32, 0);
    }
    return out;
}

size_t find_bytes(const Bytes& bytes, std::string_view needle) {
    auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
    return it == bytes.end() ? std::string::npos : static_cast<size_t>(it - bytes.begin());
}

KvFields kv_fields(const Bytes& bytes, std::string_view key) {
    const size_t k = find_bytes(bytes, key);
    require(k != std::string::npos && k >= 8, "key not found in the file");
    return {k - 8, k, k + key.size(), k + key.size() + 4};
}

TensorFields tensor_fields(const Bytes& bytes, std::string_view name) {
    const size_t n = find_bytes(bytes, name);
    require(n != std::string::npos && n >= 8, "tensor name not found in the file");
    TensorFields f{};
    f.name_len = n - 8;
    f.name = n;
    f.n_dims = n + name.size();
    f.ne = f.n_dims + 4;
    const uint32_t nd = peek<uint32_t>(bytes, f.n_dims);
    f.type = f.ne + 8 * nd;
    f.offset = f.type + 4;
    return f;
}

Bytes truncated(const Bytes& bytes, size_t size) {
    return Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
}

bool write_file(const std::string& path, const Bytes& bytes) {
    // Overwrite in place and cut to size instead of truncating to 0 first: ext4 flushes files
    // replaced via truncate-to-0 on close (auto_da_alloc), which would make the fuzz loop slow.
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t w =
            ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
        if (w <= 0) {
            ::close(fd);
            return false;
        }
        done += static_cast<size_t>(w);
    }
    const bool ok = ::ftruncate(fd, static_cast<off_t>(bytes.size())) == 0;
    return ::close(fd) == 0 && ok;
}

Bytes read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace folio::test
