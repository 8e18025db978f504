#pragma once
// Image preprocessing for kimivl exactly as llama.cpp's "dyn_size" preprocessor does it
// (tools/mtmd/clip.cpp): a target canvas in multiples of a = patch_size·merge within the
// token limits, an aspect-preserving bilinear resize of the image, letterboxing (black, centred)
// onto the canvas, and (x/255 − mean_c)/std_c into planar R, G, B floats.

#include "folio/error.h"
#include "model/vision/image_io.h"

#include <array>
#include <vector>

namespace folio::vision {

struct PreprocessParams {
    int patch_size = 14;
    int merge = 2;      // clip.vision.projector.scale_factor
    int min_tokens = 8; // merged (LM) tokens; llama.cpp's kimivl limits 8..1024
    int max_tokens = 1024;
    std::array<float, 3> mean{0.5f, 0.5f, 0.5f};
    std::array<float, 3> std{0.5f, 0.5f, 0.5f};
    int align() const { return patch_size * merge; }
};

struct ImageSize {
    int width = 0;
    int height = 0;
    bool operator==(const ImageSize&) const = default;
};

// The target size (llama.cpp calc_size_preserved_ratio with min/max pixels, in its float
// arithmetic). One deviation: for extreme aspect ratios llama.cpp's rule can exceed max_tokens
// (e.g. 64000x10 → 2560 tokens); we then shrink the long side to fit max_tokens.
Expected<ImageSize> target_size(int width, int height, const PreprocessParams& params);

// Where the resized image goes on the canvas (centred).
struct Letterbox {
    ImageSize canvas;
    ImageSize content; // size of the resized image
    int offset_x = 0;
    int offset_y = 0;
    bool resized = true; // false when the image already has the canvas size (plain copy)
};
Letterbox letterbox_layout(ImageSize source, ImageSize canvas);

// llama.cpp's bilinear resize: source coordinate x·(W−1)/w', 2x2 lerp in float, truncation to
// uint8. Sources 1 pixel wide or high repeat their single column/row (llama.cpp asserts there).
RgbImage resize_bilinear(const RgbImage& src, int width, int height);

struct PreprocessedImage {
    ImageSize source;
    Letterbox layout;
    std::vector<float> planar; // [3][canvas.height][canvas.width]
};

Expected<PreprocessedImage> preprocess_image(const RgbImage& image, const PreprocessParams& params);

} // namespace folio::vision
