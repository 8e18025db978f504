#pragma once
// A kimivl mmproj file (`general.architecture = clip`, `clip.projector_type = kimivl`): MoonViT
// and the projector, loaded with the keys, tensor names and shapes of llama.cpp's
// tools/mtmd/clip.cpp. Matrices stay in the file's mapping (any type the matmul kernels take);
// norms, biases and the position table are converted to f32 at load time.

#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "model/vision/gelu_table.h"
#include "model/vision/image_preprocess.h"
#include "tensor/tensor_view.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace folio::vision {

struct VisionHParams {
    uint32_t image_size = 0;  // placeholder in kimivl files (896)
    uint32_t patch_size = 0;  // 14
    uint32_t n_embd = 0;      // E (1152)
    uint32_t n_ff = 0;        // F (4304)
    uint32_t n_layer = 0;     // 27
    uint32_t n_head = 0;      // 16
    uint32_t n_embd_text = 0; // T: clip.vision.projection_dim, the LM hidden size
    uint32_t merge = 0;       // clip.vision.projector.scale_factor (2)
    uint32_t pos_grid = 0;    // side of the learned position table (64)
    float eps = 1e-5f;        // ViT LayerNorm eps (projector norm: 1e-5 fixed in llama.cpp)
    bool use_gelu = false;    // tanh GELU (true) or quick GELU
    float rope_theta = 10000.0f;
    std::array<float, 3> image_mean{};
    std::array<float, 3> image_std{};
    int min_tokens = 8; // llama.cpp's kimivl token limits
    int max_tokens = 1024;

    uint32_t head_dim() const { return n_head ? n_embd / n_head : 0; }
};

struct VisionLayer {
    std::vector<float> ln1_w, ln1_b, ln2_w, ln2_b;
    TensorView q_w, k_w, v_w, o_w, up_w, down_w;
    std::vector<float> q_b, k_b, v_b, o_b, up_b, down_b;
};

struct VisionModel {
    VisionHParams hp;
    std::unique_ptr<gguf::File> file; // owns the mapping the TensorViews point into
    TensorView patch_w;               // viewed as [3·p·p, E]
    std::vector<float> patch_w_f16;   // the same kernel rounded to fp16 (llama.cpp's conv_2d)
    std::vector<float> patch_b;
    std::vector<float> pos_embd; // [pos_grid²][E], row index row·pos_grid + col
    std::vector<VisionLayer> layers;
    std::vector<float> post_ln_w, post_ln_b;
    std::vector<float> mm_norm_w, mm_norm_b;
    TensorView mm1_w, mm2_w;
    std::vector<float> mm1_b, mm2_b;
    GeluTable gelu_tanh;  // projector, and the ViT MLP when use_gelu
    GeluTable gelu_quick; // ViT MLP when !use_gelu (empty otherwise)

    const GeluTable& ffn_gelu() const { return hp.use_gelu ? gelu_tanh : gelu_quick; }

    PreprocessParams preprocess_params() const;
    // How many prompt positions (merged tokens) an image of this size becomes (the target
    // canvas in multiples of patch_size·merge, one row per merge×merge patches).
    Expected<int64_t> image_rows(int width, int height) const;
};

// Opens and checks an mmproj file; errors name the file and the key or tensor at fault.
Expected<VisionModel> load_vision_model(const std::string& path);

} // namespace folio::vision
