#pragma once
// One place a model's weights, KV blocks and computation can live: the CPU today, a GPU later
// (the way ggml keeps each backend behind ggml_backend_i and its buffers behind
// ggml_backend_buffer_type). The planner (backend/device_plan.h) decides which layer goes
// where; the model loader then places each weight through the layer's device, and the runtime
// makes the KV block pool through it. docs/ARCHITECTURE.md, "Devices and backends", says what
// a new backend implements.

#include "cache/block_pool.h"
#include "folio/error.h"
#include "tensor/tensor_view.h"

#include <cstdint>
#include <memory>
#include <string>

namespace folio {

class Device {
public:
    virtual ~Device() = default;
    // "cpu", "vulkan0", ...: how the plan and the statistics name it.
    virtual std::string name() const = 0;
    // Bytes the planner may fill with weights and KV rows on this device; -1 for the host,
    // which holds whatever the others do not (mapped weights page in from the file, KV blocks
    // go to the disk tier over the RAM budget).
    virtual int64_t memory_bytes() const = 0;
    // Makes a weight (a view of the model file's mapping in host memory) usable by this
    // device's kernels and counts its bytes: the CPU computes on the mapping as it is, a GPU
    // copies it into its own memory and returns a view of that.
    virtual Expected<TensorView> place_weight(const TensorView& host, uint64_t bytes) = 0;
    // Bytes of the weights placed here so far.
    virtual uint64_t weight_bytes() const = 0;
    // The block pool that holds the KV rows of the layers placed here.
    virtual std::shared_ptr<BlockPool> make_kv_pool(const PoolConfig& config) const = 0;
};

} // namespace folio
