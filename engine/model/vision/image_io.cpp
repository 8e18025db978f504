// Image decoding with stb_image (the library is linked through pkg-config `stb`; no
// STB_IMAGE_IMPLEMENTATION here). The format is recognised by its magic bytes first, so stb's
// loose TGA detection never turns random bytes into an "image", and the size is read from the
// header (stbi_info_from_memory) and checked against the pixel limit before decoding.
#include "model/vision/image_io.h"

#include <stb/stb_image.h>

#include <climits>
#include <cstring>
#include <fstream>
#include <memory>
#include <utility>

namespace folio::vision {

namespace {

enum class Format { Png, Jpeg, Bmp, Gif, Unknown };

Format sniff(std::span<const uint8_t> b) {
    static constexpr uint8_t kPng[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (b.size() >= 8 && std::memcmp(b.data(), kPng, 8) == 0)
        return Format::Png;
    if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
        return Format::Jpeg;
    if (b.size() >= 2 && b[0] == 'B' && b[1] == 'M')
        return Format::Bmp;
    if (b.size() >= 6 &&
        (std::memcmp(b.data(), "GIF87a", 6) == 0 || std::memcmp(b.data(), "GIF89a", 6) == 0))
        return Format::Gif;
    return Format::Unknown;
}

const char* format_name(Format f) {
    switch (f) {
    case Format::Png:
        return "PNG";
    case Format::Jpeg:
        return "JPEG";
    case Format::Bmp:
        return "BMP";
    case Format::Gif:
        return "GIF";
    default:
        return "unknown";
    }
}

uint32_t le32(std::span<const uint8_t> b, size_t at) {
    return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
           static_cast<uint32_t>(b[at + 2]) << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}

// stb_image is lenient with some truncated files (it pads missing JPEG scan data, GIF blocks
// and BMP rows with zeros). These checks catch the common truncations it would accept; PNG
// truncation is detected by stb itself (zlib / chunk errors).
const char* truncation_problem(Format f, std::span<const uint8_t> b) {
    switch (f) {
    case Format::Jpeg: {
        // An end-of-image marker must follow the first start-of-scan marker. Neither can occur
        // inside entropy-coded data (0xFF is byte-stuffed there).
        size_t sos = 0;
        for (size_t i = 2; i + 1 < b.size(); ++i)
            if (b[i] == 0xFF && b[i + 1] == 0xDA) {
                sos = i;
                break;
            }
        if (sos == 0)
            return "truncated JPEG: no start-of-scan marker";
        for (size_t i = b.size() - 1; i > sos + 1; --i)
            if (b[i - 1] == 0xFF && b[i] == 0xD9)
                return nullptr;
        return "truncated JPEG: no end-of-image marker";
    }
    case Format::Gif:
        return b.back() == 0x3B ? nullptr : "truncated GIF: no trailer byte";
    case Format::Bmp: {
        if (b.size() < 34)
            return "truncated BMP header";
        const uint32_t pixel_offset = le32(b, 10);
        const uint32_t header_size = le32(b, 14);
        if (header_size < 40)
            return nullptr; // OS/2 headers: leave to stb
        const int32_t w = static_cast<int32_t>(le32(b, 18));
        const int32_t h = static_cast<int32_t>(le32(b, 22));
        const uint32_t bpp = static_cast<uint32_t>(b[28]) | static_cast<uint32_t>(b[29]) << 8;
        const uint32_t compression = le32(b, 30);
        if (compression != 0 && compression != 3) // RLE: size not known up front
            return nullptr;
        const uint64_t abs_h =
            h < 0 ? static_cast<uint64_t>(-static_cast<int64_t>(h)) : static_cast<uint64_t>(h);
        const uint64_t row =
            (static_cast<uint64_t>(bpp) * static_cast<uint64_t>(w < 0 ? 0 : w) + 31) / 32 * 4;
        if (static_cast<uint64_t>(pixel_offset) + row * abs_h > b.size())
            return "truncated BMP: pixel data shorter than the header says";
        return nullptr;
    }
    default:
        return nullptr;
    }
}

uint32_t be32(std::span<const uint8_t> b, size_t at) {
    return static_cast<uint32_t>(b[at]) << 24 | static_cast<uint32_t>(b[at + 1]) << 16 |
           static_cast<uint32_t>(b[at + 2]) << 8 | static_cast<uint32_t>(b[at + 3]);
}

// Width and height straight from the header for PNG (IHDR), GIF (logical screen) and BMP, so
// that the pixel limit gives its own message even where stb refuses first (stb rejects PNGs
// whose decoded size exceeds 1 GiB as "unknown image type"). JPEG: 0 (stbi_info reads it).
std::pair<uint64_t, uint64_t> header_dims(Format f, std::span<const uint8_t> b) {
    if (f == Format::Png && b.size() >= 24 && std::memcmp(b.data() + 12, "IHDR", 4) == 0)
        return {be32(b, 16), be32(b, 20)};
    if (f == Format::Gif && b.size() >= 10)
        return {static_cast<uint64_t>(b[6] | b[7] << 8), static_cast<uint64_t>(b[8] | b[9] << 8)};
    if (f == Format::Bmp && b.size() >= 26) {
        const int64_t w = static_cast<int32_t>(le32(b, 18));
        const int64_t h = static_cast<int32_t>(le32(b, 22));
        return {static_cast<uint64_t>(w < 0 ? -w : w), static_cast<uint64_t>(h < 0 ? -h : h)};
    }
    return {0, 0};
}

Error too_many_pixels(const std::string& name, uint64_t w, uint64_t h, uint64_t max_pixels) {
    return make_error(ErrorCode::InvalidArgument,
                      name + ": image is " + std::to_string(w) + "x" + std::to_string(h) + " = " +
                          std::to_string(w * h) + " pixels, over the limit of " +
                          std::to_string(max_pixels));
}

struct StbFree {
    void operator()(stbi_uc* p) const { stbi_image_free(p); }
};

} // namespace

Expected<RgbImage> decode_image(std::span<const uint8_t> bytes, const std::string& name,
                                uint64_t max_pixels) {
    if (bytes.empty())
        return make_error(ErrorCode::Format, name + ": empty image (0 bytes)");
    if (bytes.size() > static_cast<size_t>(INT_MAX))
        return make_error(ErrorCode::Unsupported, name + ": image file larger than 2 GiB");
    const Format format = sniff(bytes);
    if (format == Format::Unknown)
        return make_error(ErrorCode::Unsupported,
                          name + ": not a PNG, JPEG, BMP or GIF image (unrecognised header)");
    const int len = static_cast<int>(bytes.size());

    // Header only: refuse huge images before any pixel memory is allocated.
    const auto [hw, hh] = header_dims(format, bytes);
    if (hw * hh > max_pixels)
        return too_many_pixels(name, hw, hh, max_pixels);
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &comp))
        return make_error(ErrorCode::Format, name + ": corrupt " + format_name(format) +
                                                 " header (" + stbi_failure_reason() + ")");
    if (w <= 0 || h <= 0)
        return make_error(ErrorCode::Format, name + ": image has no pixels (" + std::to_string(w) +
                                                 "x" + std::to_string(h) + ")");
    const uint64_t pixels = static_cast<uint64_t>(w) * static_cast<uint64_t>(h);
    if (pixels > max_pixels)
        return too_many_pixels(name, static_cast<uint64_t>(w), static_cast<uint64_t>(h),
                               max_pixels);
    if (const char* problem = truncation_problem(format, bytes))
        return make_error(ErrorCode::Format, name + ": " + problem);

    int dw = 0, dh = 0, dc = 0;
    std::unique_ptr<stbi_uc, StbFree> data(
        stbi_load_from_memory(bytes.data(), len, &dw, &dh, &dc, 3));
    if (!data)
        return make_error(ErrorCode::Format, name + ": corrupt " + format_name(format) +
                                                 " image (" + stbi_failure_reason() + ")");
    if (dw != w || dh != h)
        return make_error(ErrorCode::Format, name + ": decoded size differs from the header");
    RgbImage img;
    img.width = w;
    img.height = h;
    img.rgb.assign(data.get(), data.get() + pixels * 3);
    return img;
}

Expected<RgbImage> load_image_file(const std::string& path, uint64_t max_pixels) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return make_error(ErrorCode::NotFound, path + ": cannot open image file");
    const std::streamoff size = in.tellg();
    if (size < 0)
        return make_error(ErrorCode::Io, path + ": cannot read image file size");
    if (size == 0)
        return make_error(ErrorCode::Format, path + ": empty image file (0 bytes)");
    if (static_cast<uint64_t>(size) > static_cast<uint64_t>(INT_MAX))
        return make_error(ErrorCode::Unsupported, path + ": image file larger than 2 GiB");
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
        return make_error(ErrorCode::Io, path + ": read error");
    return decode_image(bytes, path, max_pixels);
}

Expected<RgbImage> image_from_rgb8(int width, int height, std::span<const uint8_t> rgb,
                                   size_t row_stride, uint64_t max_pixels) {
    if (width <= 0 || height <= 0)
        return make_error(ErrorCode::InvalidArgument,
                          "raw RGB image: size " + std::to_string(width) + "x" +
                              std::to_string(height) + " has no pixels");
    const uint64_t pixels = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
    if (pixels > max_pixels)
        return make_error(ErrorCode::InvalidArgument, "raw RGB image: " + std::to_string(pixels) +
                                                          " pixels, over the limit of " +
                                                          std::to_string(max_pixels));
    const size_t row = static_cast<size_t>(width) * 3;
    if (row_stride == 0)
        row_stride = row;
    if (row_stride < row)
        return make_error(ErrorCode::InvalidArgument, "raw RGB image: row stride " +
                                                          std::to_string(row_stride) +
                                                          " < 3·width = " + std::to_string(row));
    const uint64_t needed =
        static_cast<uint64_t>(row_stride) * static_cast<uint64_t>(height - 1) + row;
    if (rgb.size() < needed)
        return make_error(ErrorCode::InvalidArgument, "raw RGB image: buffer has " +
                                                          std::to_string(rgb.size()) + " bytes, " +
                                                          std::to_string(needed) + " needed");
    RgbImage img;
    img.width = width;
    img.height = height;
    img.rgb.resize(static_cast<size_t>(pixels) * 3);
    for (int y = 0; y < height; ++y)
        std::memcpy(img.rgb.data() + static_cast<size_t>(y) * row,
                    rgb.data() + static_cast<size_t>(y) * row_stride, row);
    return img;
}

} // namespace folio::vision
