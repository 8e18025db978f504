#pragma once
// Image input for the vision encoder (issue 8): PNG, JPEG, BMP and GIF (first frame) decoded
// with stb_image from memory or a file, and raw RGB8 buffers (PDF page renders from the UI).
// Every entry point refuses empty, truncated, corrupt and oversized images with an Error naming
// the source; the pixel limit is checked from the header before anything is decoded.

#include "folio/error.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace folio::vision {

// 8-bit RGB, row-major, no padding: pixel (x, y) channel c at rgb[3·(y·width + x) + c].
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgb;
};

// Default limit on width·height (64 megapixels).
inline constexpr uint64_t kMaxImagePixels = 64'000'000;

// Decodes an encoded image held in memory. `name` (a file name or "clipboard", ...) is used in
// error messages only.
Expected<RgbImage> decode_image(std::span<const uint8_t> bytes, const std::string& name,
                                uint64_t max_pixels = kMaxImagePixels);

// Reads and decodes an image file.
Expected<RgbImage> load_image_file(const std::string& path, uint64_t max_pixels = kMaxImagePixels);

// Copies a raw RGB8 buffer whose rows are `row_stride` bytes apart (0 = 3·width).
Expected<RgbImage> image_from_rgb8(int width, int height, std::span<const uint8_t> rgb,
                                   size_t row_stride = 0, uint64_t max_pixels = kMaxImagePixels);

} // namespace folio::vision
