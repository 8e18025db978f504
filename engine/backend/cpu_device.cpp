#include "backend/cpu_device.h"

namespace folio {

Expected<TensorView> CpuDevice::place_weight(const TensorView& host, uint64_t bytes) {
    weight_bytes_ += bytes;
    return host; // the kernels read the mapping in place
}

std::shared_ptr<BlockPool> CpuDevice::make_kv_pool(const PoolConfig& config) const {
    return std::make_shared<BlockPool>(config);
}

} // namespace folio
