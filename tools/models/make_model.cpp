#include "make_model.h"

#include "gguf/gguf_writer.h"
#include "kernels/weight_rows.h"
#include "kimivl_mmproj.h"
#include "model/layer/tensor_names.h"
#include "model_plans.h"
#include "random_weights.h"

#include <cmath>

namespace folio::tools {

namespace tn = folio::tensor_name;

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

uint32_t file_type_id(const std::string& recipe) {
    if (recipe == "f16")
        return 1;
    if (recipe == "q8_0")
        return 7;
    if (recipe == "mxfp4-moe")
        return 38;
    if (recipe == "q4_k_m")
        return 15;
    return 0;
}

// --confident. Plain random models have near-tied logits (the median top-1 / top-2 gap of the
// conformance models is ~0.23 with logits of std ~1), so any quantization noise flips their
// argmax. A confident model keeps every tensor, type, shape and metadata key but draws two kinds
// of tensors differently:
//  * the output head is tied to the token embeddings: output.weight = a * token_embd.weight,
//    a = kConfidentHeadScale / sqrt(n_embd) (the same random numbers, scaled; the file still
//    has both tensors, as llama.cpp's untied layout). After the final RMSNorm the hidden state
//    has norm ~sqrt(n_embd), so if it points along e_t token t gets a logit of about
//    kConfidentHeadScale * sqrt(n_embd) * cos(h, e_t) (~8 for the tiny preset) and the other
//    tokens ~N(0, kConfidentHeadScale^2);
//  * every block's output projection (attn_output, ffn_down, ffn_down_exps, ffn_down_shexp) is
//    drawn with its usual std times kConfidentBlockScale, so each block adds a smaller update to
//    the residual stream, which keeps the direction of the input token's embedding with a
//    context-dependent perturbation.
// The model therefore mostly predicts the token it reads (tiny deepseek2, seed 2026: 381 of 384
// random-token positions), with a median top-1 / top-2 gap of ~2.8 logits, the margin of a
// trained model's confident positions. Block scale 1.0 gives 351/384 and a median gap of 1.6;
// 1.5 gives 229/384 and 0.44 (near ties again).
constexpr float kConfidentHeadScale = 1.0f;
constexpr float kConfidentBlockScale = 0.75f;

bool is_block_output_projection(const std::string& name) {
    return contains(name, ".attn_output.") || contains(name, ".ffn_down");
}

// Draws one tensor's values and converts them to its storage type.
Expected<std::vector<uint8_t>> draw_tensor(const TensorPlan& plan, DType type, uint64_t seed,
                                           bool confident) {
    int64_t n = 1;
    for (int64_t d : plan.ne)
        n *= d;
    std::vector<float> values(static_cast<size_t>(n));
    switch (plan.init) {
    case TensorPlan::Init::Norm:
        fill_normal(values, seed, plan.name, 1.0f, 0.01f);
        break;
    case TensorPlan::Init::SmallBias:
        fill_normal(values, seed, plan.name, 0.0f, 0.1f);
        break;
    case TensorPlan::Init::NegativeDecay: // KDA ssm_a = −exp(A_log), A_log ~ N(0.5, 0.3²)
        fill_normal(values, seed, plan.name, 0.5f, 0.3f);
        for (float& v : values)
            v = -std::exp(v);
        break;
    case TensorPlan::Init::Normal: {
        // N(0, 1/fan_in) as the conformance models; token embeddings N(0, 1).
        const float fan_in = static_cast<float>(plan.ne[0]);
        if (confident && plan.name == tn::kOutput) {
            // token_embd.weight has the same ne; same name, same numbers, times the scale.
            fill_normal(values, seed, tn::kTokenEmbd, 0.0f,
                        kConfidentHeadScale / std::sqrt(fan_in));
            break;
        }
        float stddev = plan.name == tn::kTokenEmbd ? 1.0f : 1.0f / std::sqrt(fan_in);
        if (confident && is_block_output_projection(plan.name))
            stddev *= kConfidentBlockScale;
        fill_normal(values, seed, plan.name, 0.0f, stddev);
        break;
    }
    }
    const int64_t row = plan.ne[0];
    const size_t row_bytes = dtype_row_bytes(type, static_cast<uint64_t>(row));
    std::vector<uint8_t> bytes(row_bytes * static_cast<size_t>(n / row));
    const int64_t rows = n / row;
    Status failed;
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        Status s = quantize_row(type, values.data() + r * row, bytes.data() + r * row_bytes, row);
        if (!s) {
#pragma omp critical
            failed = s;
        }
    }
    if (!failed)
        return failed.error();
    return bytes;
}

} // namespace

DType tensor_type_for(const std::string& recipe, const TensorPlan& t) {
    const std::string& name = t.name;
    const bool matrix = t.ne.size() >= 2 && ends_with(name, ".weight") &&
                        !ends_with(name, "_norm.weight") && !contains(name, "ffn_gate_inp") &&
                        !contains(name, "ssm_conv1d") && !contains(name, "indexer.proj");
    if (!matrix || recipe == "f32")
        return DType::F32;
    if (recipe == "f16")
        return DType::F16;
    const auto block = static_cast<int64_t>(32);
    if (t.ne[0] % block != 0)
        return DType::F32; // as llama-quantize falls back for rows that do not fit the blocks
    if (recipe == "q4_k_m") {
        // llama.cpp's Q4_K_M mixture, simplified: Q6_K for output and for ffn_down / attn_v_b
        // in the "more bits" layers (first and last eighth, every third in between), Q4_K for
        // the rest; rows that do not fit 256-element blocks fall back to Q8_0.
        const int64_t n_layer = t.n_layer > 0 ? t.n_layer : 1;
        const int64_t il = t.layer;
        const bool more_bits =
            il < n_layer / 8 || il >= 7 * n_layer / 8 || (il - n_layer / 8) % 3 == 2;
        const bool sensitive =
            name == tn::kOutput ||
            (il >= 0 && more_bits && (contains(name, "ffn_down") || contains(name, "attn_v_b")));
        if (t.ne[0] % 256 != 0)
            return DType::Q8_0;
        return sensitive ? DType::Q6_K : DType::Q4_K;
    }
    if (recipe == "mxfp4-moe" &&
        (contains(name, "_exps.") || contains(name, "attn_k_b") || contains(name, "attn_v_b")))
        return DType::MXFP4;
    return DType::Q8_0;
}

Status make_model(const MakeModelOptions& o) {
    if (o.type != "f32" && o.type != "f16" && o.type != "q8_0" && o.type != "mxfp4-moe" &&
        o.type != "q4_k_m")
        return make_error(ErrorCode::InvalidArgument,
                          "--type '" + o.type +
                              "' is not one of f32, f16, q8_0, q4_k_m, mxfp4-moe");
    if (o.preset != "tiny" && o.preset != "small" && o.preset != "bench")
        return make_error(ErrorCode::InvalidArgument,
                          "--preset '" + o.preset + "' is not one of tiny, small, bench");
    if (o.out.empty())
        return make_error(ErrorCode::InvalidArgument, "--out is required");
    if (o.arch == "kimivl") {
        if (o.confident)
            return make_error(ErrorCode::InvalidArgument,
                              "--confident applies to decoder models, not --arch kimivl");
        // The vision projector of a Kimi-VL pair (all F32, as llama.cpp's converter writes
        // mmproj files), projecting to the hidden size of the deepseek2 model of the same preset.
        if (o.preset == "bench")
            return make_error(ErrorCode::InvalidArgument,
                              "--arch kimivl has presets tiny and small");
        if (o.context > 0)
            return make_error(ErrorCode::InvalidArgument,
                              "--context applies to decoder models, not --arch kimivl");
        const uint32_t n_embd_text =
            o.n_embd_text > 0 ? o.n_embd_text : (o.preset == "tiny" ? 128u : 512u);
        return make_kimivl_mmproj(o.preset, n_embd_text, o.seed, o.out);
    }

    gguf::Writer writer;
    std::vector<TensorPlan> plans;
    if (o.arch == "deepseek2") {
        FOLIO_CHECK(plan_deepseek2(o.preset, writer, plans));
    } else if (o.arch == "deepseek32") {
        FOLIO_CHECK(plan_deepseek32(o.preset, writer, plans));
    } else if (o.arch == "kimi-linear") {
        FOLIO_CHECK(plan_kimi_linear(o.preset, writer, plans));
    } else if (o.arch == "kimi-hybrid") {
        FOLIO_CHECK(plan_kimi_hybrid(o.preset, writer, plans));
    } else {
        return make_error(
            ErrorCode::Unsupported,
            "--arch '" + o.arch +
                "' is not one of deepseek2, deepseek32, kimi-linear, kimi-hybrid, kimivl");
    }
    if (o.context > 0) // the metadata prefix is the --arch name (general.architecture)
        writer.set_u32(o.arch + ".context_length", o.context);
    writer.set_u32("general.file_type", file_type_id(o.type));
    writer.set_u32("general.quantization_version", 2);

    std::vector<DType> types;
    for (const TensorPlan& p : plans) {
        types.push_back(tensor_type_for(o.type, p));
        FOLIO_CHECK(writer.add_tensor_info(p.name, p.ne, types.back()));
    }
    FOLIO_TRY(stream, writer.begin(o.out));
    for (size_t i = 0; i < plans.size(); ++i) {
        FOLIO_TRY(bytes, draw_tensor(plans[i], types[i], o.seed, o.confident));
        FOLIO_CHECK(stream->write_tensor_data(i, bytes));
        if (o.progress)
            o.progress(i + 1, plans.size());
    }
    return stream->finish();
}

} // namespace folio::tools
