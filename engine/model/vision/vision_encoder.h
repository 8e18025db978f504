#pragma once
// MoonViT + the kimivl projector (Kimi-VL, arXiv:2504.07491; tools/mtmd/clip.cpp): image
// → preprocessing → patch embedding + resized position table → blocks with 2D RoPE → post-norm
// → 2x2 merge → projector, giving one embedding of the LM's hidden size per merged token.

#include "folio/error.h"
#include "kernels/kernel_context.h"
#include "model/vision/image_io.h"
#include "model/vision/image_preprocess.h"
#include "model/vision/vision_model.h"

#include <vector>

namespace folio::vision {

// What happened to one image (for CLIs, logs and the UI).
struct EncodeInfo {
    ImageSize source;
    Letterbox layout; // canvas (target) size, resized content, offsets
    int grid_w = 0;   // patches per row (canvas width / patch)
    int grid_h = 0;
    int n_tokens = 0; // (grid_h/2)·(grid_w/2)
    double preprocess_ms = 0;
    double encode_ms = 0; // patch embedding to projector output
};

// Arithmetic switches. The defaults reproduce llama.cpp's CPU backend, which the conformance
// goldens come from: its conv_2d builds the patch matrix (im2col) in
// F16 and so multiplies F16-rounded pixels by an F16-rounded kernel, and its GELU goes through
// the fp16 table. Both off = plain f32 math (differs from llama.cpp by ~1e-3 on the golden).
struct EncodeOptions {
    bool fp16_patch_embedding = true;
    bool fp16_gelu_table = true;
};

// Returns [n_image_tokens][n_embd_text] floats, row-major; *n_tokens (if non-null) receives the
// number of image tokens. Results do not depend on ctx.n_threads.
Expected<std::vector<float>> encode_image(const VisionModel& model, const RgbImage& image,
                                          const KernelContext& ctx, int* n_tokens,
                                          EncodeInfo* info = nullptr,
                                          const EncodeOptions& options = {});

// Same from an already preprocessed image (its canvas must be a multiple of patch·merge).
Expected<std::vector<float>> encode_preprocessed(const VisionModel& model,
                                                 const PreprocessedImage& image,
                                                 const KernelContext& ctx, int* n_tokens,
                                                 const EncodeOptions& options = {});

} // namespace folio::vision
