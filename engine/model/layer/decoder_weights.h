#pragma once
// The tensors of a decoder model (deepseek2, deepseek32, kimi-linear, kimi-hybrid) as views the
// devices of the plan compute with (on the CPU: into the mmapped GGUF file), with every shape
// checked against the config at load (llama.cpp's GGUF layout, docs/KIMI_HYBRID.md). A missing
// tensor or a shape that contradicts the metadata is an error naming the tensor. The token mixer's
// tensors are bound by the layer's mixer (model/mixers/); everything else here.

#include "backend/device.h"
#include "backend/device_plan.h"
#include "folio/error.h"
#include "gguf/gguf_file.h"
#include "model/layer/mixer_weights.h"
#include "model/layer/model_config.h"
#include "model/layer/weight_binder.h"
#include "tensor/tensor_view.h"

#include <functional>
#include <memory>
#include <vector>

namespace folio {

struct DecoderLayer {
    TensorView attn_norm;
    std::shared_ptr<MixerWeights> mixer; // bound and read by the layer's LayerMixer only
    TensorView attn_output;              // every mixer's output projection
    TensorView ffn_norm;
    // dense layers
    TensorView ffn_gate, ffn_up, ffn_down;
    // MoE layers
    TensorView gate_inp, exp_probs_b; // exp_probs_b.data == nullptr when absent
    TensorView gate_exps, up_exps, down_exps;
    TensorView gate_shexp, up_shexp, down_shexp; // data == nullptr when no shared experts
};

struct DecoderWeights {
    TensorView token_embd;
    TensorView output_norm;
    TensorView output; // token_embd when tied
    std::vector<DecoderLayer> layers;
};

// Binds the mixer tensors of layer il (its mixer's LayerMixer::bind).
using BindMixer = std::function<Status(const WeightBinder&, uint32_t il, DecoderLayer&)>;

// Each layer's tensors are placed through the device `plan` gives its weights, the rest through
// the plan's io device.
Expected<DecoderWeights> bind_decoder_weights(const gguf::File& file, const ModelConfig& c,
                                              const DevicePlan& plan,
                                              const std::vector<std::unique_ptr<Device>>& devices,
                                              const BindMixer& bind_mixer);

} // namespace folio
