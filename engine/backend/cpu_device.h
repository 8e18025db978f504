#pragma once
// The host CPU as a Device: weights stay where the model file's mapping (or its copy in RAM,
// runtime/weights_memory.h) has them, KV blocks live in a BlockPool in RAM with its disk tier,
// and the kernels of engine/kernels/ compute on host pointers.

#include "backend/device.h"

namespace folio {

class CpuDevice final : public Device {
public:
    std::string name() const override { return "cpu"; }
    int64_t memory_bytes() const override { return -1; }
    Expected<TensorView> place_weight(const TensorView& host, uint64_t bytes) override;
    uint64_t weight_bytes() const override { return weight_bytes_; }
    std::shared_ptr<BlockPool> make_kv_pool(const PoolConfig& config) const override;

private:
    uint64_t weight_bytes_ = 0;
};

} // namespace folio
