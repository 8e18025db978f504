// llama.cpp's kimivl preprocessing (tools/mtmd/clip.cpp). The float expressions mirror the order
// and types of llama.cpp's arithmetic so that target sizes and resized pixels come out the same.
#include "model/vision/image_preprocess.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace folio::vision {

namespace {

int round_by(float x, int a) {
    return static_cast<int>(std::round(x / static_cast<float>(a))) * a;
}
int ceil_by(float x, int a) {
    return static_cast<int>(std::ceil(x / static_cast<float>(a))) * a;
}
int floor_by(float x, int a) {
    return static_cast<int>(std::floor(x / static_cast<float>(a))) * a;
}

float lerp(float s, float e, float t) {
    return s + (e - s) * t;
}

} // namespace

Expected<ImageSize> target_size(int width, int height, const PreprocessParams& p) {
    if (width <= 0 || height <= 0)
        return make_error(ErrorCode::InvalidArgument, "image size " + std::to_string(width) + "x" +
                                                          std::to_string(height) +
                                                          " has no pixels");
    if (p.patch_size <= 0 || p.merge <= 0 || p.min_tokens <= 0 || p.max_tokens < p.min_tokens)
        return make_error(ErrorCode::InvalidArgument,
                          "preprocessing: need patch_size, merge > 0 and 0 < min_tokens <= "
                          "max_tokens");
    if (static_cast<int64_t>(width) * height > (int64_t{1} << 30))
        return make_error(ErrorCode::InvalidArgument, "preprocessing: image too large");
    const int a = p.align();
    const int64_t min_pixels = static_cast<int64_t>(p.min_tokens) * a * a;
    const int64_t max_pixels = static_cast<int64_t>(p.max_tokens) * a * a;
    const int area = width * height;

    int h_bar = std::max(a, round_by(static_cast<float>(height), a));
    int w_bar = std::max(a, round_by(static_cast<float>(width), a));
    if (static_cast<int64_t>(h_bar) * w_bar > max_pixels) {
        const float beta = std::sqrt(static_cast<float>(area) / static_cast<float>(max_pixels));
        h_bar = std::max(a, floor_by(static_cast<float>(height) / beta, a));
        w_bar = std::max(a, floor_by(static_cast<float>(width) / beta, a));
    } else if (static_cast<int64_t>(h_bar) * w_bar < min_pixels) {
        const float beta = std::sqrt(static_cast<float>(min_pixels) / static_cast<float>(area));
        h_bar = ceil_by(static_cast<float>(height) * beta, a);
        w_bar = ceil_by(static_cast<float>(width) * beta, a);
    }
    // Deviation (documented in the header): keep within max_tokens for extreme aspect ratios,
    // where one side is already at its minimum a.
    const int64_t tokens = static_cast<int64_t>(h_bar / a) * (w_bar / a);
    if (tokens > p.max_tokens) {
        if (w_bar >= h_bar)
            w_bar = std::max<int64_t>(1, p.max_tokens / (h_bar / a)) * a;
        else
            h_bar = std::max<int64_t>(1, p.max_tokens / (w_bar / a)) * a;
    }
    return ImageSize{w_bar, h_bar};
}

Letterbox letterbox_layout(ImageSize source, ImageSize canvas) {
    Letterbox l;
    l.canvas = canvas;
    if (source == canvas) {
        l.content = canvas;
        l.resized = false;
        return l;
    }
    const float scale_w = static_cast<float>(canvas.width) / static_cast<float>(source.width);
    const float scale_h = static_cast<float>(canvas.height) / static_cast<float>(source.height);
    const float scale = std::min(scale_w, scale_h);
    l.content.width = std::min(
        static_cast<int>(std::ceil(static_cast<float>(source.width) * scale)), canvas.width);
    l.content.height = std::min(
        static_cast<int>(std::ceil(static_cast<float>(source.height) * scale)), canvas.height);
    l.content.width = std::max(l.content.width, 1);
    l.content.height = std::max(l.content.height, 1);
    l.offset_x = (canvas.width - l.content.width) / 2;
    l.offset_y = (canvas.height - l.content.height) / 2;
    return l;
}

RgbImage resize_bilinear(const RgbImage& src, int width, int height) {
    RgbImage dst;
    dst.width = width;
    dst.height = height;
    dst.rgb.resize(static_cast<size_t>(width) * static_cast<size_t>(height) * 3);
    // Corner-aligned: output pixel 0 samples source pixel 0, the last samples the last.
    const float x_ratio =
        width > 1 ? static_cast<float>(src.width - 1) / static_cast<float>(width - 1) : 0.0f;
    const float y_ratio =
        height > 1 ? static_cast<float>(src.height - 1) / static_cast<float>(height - 1) : 0.0f;
    const size_t stride = static_cast<size_t>(src.width) * 3;
    for (int y = 0; y < height; ++y) {
        const float py = static_cast<float>(y) * y_ratio;
        const int y0 = std::min(static_cast<int>(py), src.height - 1);
        const int y1 = std::min(y0 + 1, src.height - 1);
        const float yf = py - static_cast<float>(y0);
        const uint8_t* row0 = src.rgb.data() + static_cast<size_t>(y0) * stride;
        const uint8_t* row1 = src.rgb.data() + static_cast<size_t>(y1) * stride;
        uint8_t* out = dst.rgb.data() + static_cast<size_t>(y) * static_cast<size_t>(width) * 3;
        for (int x = 0; x < width; ++x) {
            const float px = static_cast<float>(x) * x_ratio;
            const int x0 = std::min(static_cast<int>(px), src.width - 1);
            const int x1 = std::min(x0 + 1, src.width - 1);
            const float xf = px - static_cast<float>(x0);
            for (int c = 0; c < 3; ++c) {
                const float top = lerp(row0[3 * x0 + c], row0[3 * x1 + c], xf);
                const float bottom = lerp(row1[3 * x0 + c], row1[3 * x1 + c], xf);
                out[3 * x + c] = static_cast<uint8_t>(lerp(top, bottom, yf));
            }
        }
    }
    return dst;
}

Expected<PreprocessedImage> preprocess_image(const RgbImage& image, const PreprocessParams& p) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() != static_cast<size_t>(image.width) * image.height * 3)
        return make_error(ErrorCode::InvalidArgument,
                          "preprocessing: image buffer does not match its size");
    FOLIO_TRY(canvas, target_size(image.width, image.height, p));
    PreprocessedImage out;
    out.source = ImageSize{image.width, image.height};
    out.layout = letterbox_layout(out.source, canvas);
    const Letterbox& l = out.layout;

    // Canvas in RGB8: black, then the resized image at its offset (llama.cpp composite()).
    const size_t cw = static_cast<size_t>(canvas.width), ch = static_cast<size_t>(canvas.height);
    std::vector<uint8_t> rgb(cw * ch * 3, 0);
    const RgbImage content =
        l.resized ? resize_bilinear(image, l.content.width, l.content.height) : RgbImage{};
    const RgbImage& src = l.resized ? content : image;
    for (int y = 0; y < src.height; ++y)
        std::copy_n(src.rgb.data() + static_cast<size_t>(y) * src.width * 3,
                    static_cast<size_t>(src.width) * 3,
                    rgb.data() + ((static_cast<size_t>(y + l.offset_y)) * cw + l.offset_x) * 3);

    // Normalize into planar R, G, B.
    out.planar.resize(3 * cw * ch);
    for (size_t c = 0; c < 3; ++c) {
        float* plane = out.planar.data() + c * cw * ch;
        for (size_t i = 0; i < cw * ch; ++i)
            plane[i] = (static_cast<float>(rgb[3 * i + c]) / 255.0f - p.mean[c]) / p.std[c];
    }
    return out;
}

} // namespace folio::vision
