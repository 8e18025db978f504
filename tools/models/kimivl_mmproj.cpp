// kimivl mmproj generator; see kimivl_mmproj.h.
#include "models/kimivl_mmproj.h"

#include "gguf/gguf_writer.h"
#include "models/random_weights.h"

#include <cmath>
#include <span>
#include <vector>

namespace folio::tools {

namespace {

struct MmprojShape {
    uint32_t n_embd;
    uint32_t n_ff;
    uint32_t n_layer;
    uint32_t n_head;
};

constexpr uint32_t kPatch = 14;
constexpr uint32_t kPosGrid = 64; // 64x64 learned position table (MoonViT, Kimi-VL)
constexpr uint32_t kMerge = 2;

enum class Init { Weight, Norm, Bias, Position };

std::vector<float> draw(uint64_t seed, const std::string& name, size_t n, Init init,
                        int64_t fan_in) {
    std::vector<float> v(n);
    switch (init) {
    case Init::Weight:
        fill_normal(v, seed, name, 0.0f, 1.0f / std::sqrt(static_cast<float>(fan_in)));
        break;
    case Init::Norm:
        fill_normal(v, seed, name, 1.0f, 0.1f);
        break;
    case Init::Bias:
    case Init::Position:
        fill_normal(v, seed, name, 0.0f, 0.02f);
        break;
    }
    return v;
}

} // namespace

Status make_kimivl_mmproj(const std::string& preset, uint32_t n_embd_text, uint64_t seed,
                          const std::string& out) {
    MmprojShape s{};
    if (preset == "tiny")
        s = {64, 128, 2, 2};
    else if (preset == "small")
        s = {384, 1536, 6, 6};
    else
        return make_error(ErrorCode::InvalidArgument,
                          "kimivl mmproj: unknown preset '" + preset + "' (tiny|small)");
    if (n_embd_text == 0 || n_embd_text > 65536)
        return make_error(ErrorCode::InvalidArgument,
                          "kimivl mmproj: n_embd_text must be in 1..65536");
    if (out.empty())
        return make_error(ErrorCode::InvalidArgument, "kimivl mmproj: no output path");

    // Keys in the order llama.cpp's converter writes them (as in the conformance file).
    gguf::Writer w;
    w.set_string("general.architecture", "clip");
    w.set_string("general.type", "mmproj");
    w.set_u32("general.file_type", 0); // all F32
    w.set_bool("clip.has_vision_encoder", true);
    w.set_string("clip.projector_type", "kimivl");
    w.set_u32("clip.vision.projection_dim", n_embd_text);
    w.set_u32("clip.vision.image_size", kPatch * kPosGrid);
    w.set_u32("clip.vision.patch_size", kPatch);
    w.set_u32("clip.vision.embedding_length", s.n_embd);
    w.set_u32("clip.vision.feed_forward_length", s.n_ff);
    w.set_u32("clip.vision.block_count", s.n_layer);
    w.set_u32("clip.vision.attention.head_count", s.n_head);
    w.set_f32("clip.vision.attention.layer_norm_epsilon", 1e-5f);
    w.set_f32_array("clip.vision.image_mean", {0.5f, 0.5f, 0.5f});
    w.set_f32_array("clip.vision.image_std", {0.5f, 0.5f, 0.5f});
    w.set_bool("clip.use_gelu", true);
    w.set_u32("clip.vision.projector.scale_factor", kMerge);

    const int64_t e = s.n_embd, ff = s.n_ff, p = kPatch, t = n_embd_text;
    auto add = [&](const std::string& name, std::vector<int64_t> ne, Init init) -> Status {
        size_t n = 1;
        for (int64_t d : ne)
            n *= static_cast<size_t>(d);
        // Fan-in: ne[0] for matrices, kw·kh·c_in for the 4-D conv kernel.
        const int64_t fan_in = ne.size() == 4 ? ne[0] * ne[1] * ne[2] : ne[0];
        const std::vector<float> v = draw(seed, name, n, init, fan_in);
        const auto* bytes = reinterpret_cast<const uint8_t*>(v.data());
        return w.add_tensor(name, ne, DType::F32,
                            std::span<const uint8_t>(bytes, v.size() * sizeof(float)));
    };
    FOLIO_CHECK(add("v.patch_embd.weight", {p, p, 3, e}, Init::Weight));
    FOLIO_CHECK(add("v.patch_embd.bias", {e}, Init::Bias));
    FOLIO_CHECK(add("v.position_embd.weight", {e, kPosGrid * kPosGrid}, Init::Position));
    for (uint32_t i = 0; i < s.n_layer; ++i) {
        const std::string b = "v.blk." + std::to_string(i) + ".";
        FOLIO_CHECK(add(b + "ln1.weight", {e}, Init::Norm));
        FOLIO_CHECK(add(b + "ln1.bias", {e}, Init::Bias));
        for (const char* m : {"attn_q", "attn_k", "attn_v", "attn_out"}) {
            FOLIO_CHECK(add(b + m + ".weight", {e, e}, Init::Weight));
            FOLIO_CHECK(add(b + m + ".bias", {e}, Init::Bias));
        }
        FOLIO_CHECK(add(b + "ln2.weight", {e}, Init::Norm));
        FOLIO_CHECK(add(b + "ln2.bias", {e}, Init::Bias));
        FOLIO_CHECK(add(b + "ffn_up.weight", {e, ff}, Init::Weight));
        FOLIO_CHECK(add(b + "ffn_up.bias", {ff}, Init::Bias));
        FOLIO_CHECK(add(b + "ffn_down.weight", {ff, e}, Init::Weight));
        FOLIO_CHECK(add(b + "ffn_down.bias", {e}, Init::Bias));
    }
    FOLIO_CHECK(add("v.post_ln.weight", {e}, Init::Norm));
    FOLIO_CHECK(add("v.post_ln.bias", {e}, Init::Bias));
    FOLIO_CHECK(add("mm.input_norm.weight", {e}, Init::Norm));
    FOLIO_CHECK(add("mm.input_norm.bias", {e}, Init::Bias));
    FOLIO_CHECK(add("mm.1.weight", {4 * e, 4 * e}, Init::Weight));
    FOLIO_CHECK(add("mm.1.bias", {4 * e}, Init::Bias));
    FOLIO_CHECK(add("mm.2.weight", {4 * e, t}, Init::Weight));
    FOLIO_CHECK(add("mm.2.bias", {t}, Init::Bias));
    return w.write(out);
}

} // namespace folio::tools
