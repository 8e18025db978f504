#pragma once
// Where each part of a model lives, decided in one place: given what every decoder layer needs
// and the devices on offer, plan_devices assigns each layer's weights, KV rows and computation
// to a device (ggml's scheduler assigns each op to the backend holding its weights; llama.cpp's
// -ngl offloads the last layers first). Model code never decides placement: the loader asks the
// plan (model/decoder/decoder_model.cpp) and places each weight through the device it names.

#include "backend/device.h"
#include "folio/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

// What one decoder layer needs on the device that holds it.
struct LayerNeeds {
    uint64_t weight_bytes = 0;       // its tensors in the model file
    uint64_t kv_bytes_per_token = 0; // its KV-cache rows and other per-token rows
    uint64_t fixed_bytes = 0;        // per-sequence state that does not grow (recurrent layers)
};

struct PlanInput {
    std::vector<LayerNeeds> layers;
    uint64_t io_weight_bytes = 0; // token embeddings, output norm and projection
    int64_t context_tokens = 0;   // the KV reserved per layer: context_tokens × kv_bytes_per_token
};

// Indices into the devices plan_devices was given.
struct LayerPlacement {
    uint32_t weights = 0;
    uint32_t kv = 0;
    uint32_t compute = 0;
};

struct DevicePlan {
    std::vector<std::string> devices; // their names, in the order given
    std::vector<LayerPlacement> layers;
    uint32_t io = 0;                    // embeddings and output projection: the host
    std::vector<uint64_t> weight_bytes; // per device: the weights the plan puts there
    std::vector<uint64_t> kv_bytes;     // per device: the KV (and fixed state) it reserves
    int64_t context_tokens = 0;         // the context the KV reservations are for
    // One line per device that holds anything, e.g. "cpu: layers 0-26, embeddings and output;
    // weights 1.20 GiB, KV 34.0 MiB at 8192 tokens".
    std::string describe() const;
};

// The host is the first device whose memory_bytes() is -1 (an error when none is); the others,
// in the order given, take whole layers from the last one down while the layer's weights and
// its KV for the context fit in what is left of their memory; the rest stay on the host. A
// layer's weights, KV and computation stay together (its compute runs where its weights are).
Expected<DevicePlan> plan_devices(const PlanInput& input,
                                  const std::vector<const Device*>& devices);

} // namespace folio
