#include "backend/device_plan.h"

#include <cstdio>

namespace folio {

namespace {

std::string mib_text(uint64_t bytes) {
    char buf[32];
    if (bytes >= (uint64_t{1} << 30))
        std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return buf;
}

// "layers 0-3, 7" style list of the layers whose weights are on device d.
std::string layer_ranges(const DevicePlan& p, uint32_t d) {
    std::string out;
    const size_t n = p.layers.size();
    for (size_t i = 0; i < n;) {
        if (p.layers[i].weights != d) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j + 1 < n && p.layers[j + 1].weights == d)
            ++j;
        out += out.empty() ? "layers " : ", ";
        out += std::to_string(i);
        if (j > i) {
            out += '-';
            out += std::to_string(j);
        }
        i = j + 1;
    }
    return out;
}

} // namespace

Expected<DevicePlan> plan_devices(const PlanInput& in, const std::vector<const Device*>& devices) {
    int host = -1;
    for (size_t d = 0; d < devices.size() && host < 0; ++d)
        if (devices[d]->memory_bytes() < 0)
            host = static_cast<int>(d);
    if (host < 0)
        return make_error(ErrorCode::InvalidArgument,
                          "no host device to hold the embeddings and what no other device takes");
    DevicePlan p;
    for (const Device* d : devices)
        p.devices.push_back(d->name());
    const auto h = static_cast<uint32_t>(host);
    p.io = h;
    p.context_tokens = in.context_tokens;
    p.layers.assign(in.layers.size(), LayerPlacement{h, h, h});
    p.weight_bytes.assign(devices.size(), 0);
    p.kv_bytes.assign(devices.size(), 0);
    p.weight_bytes[h] += in.io_weight_bytes;

    const auto tokens = static_cast<uint64_t>(in.context_tokens > 0 ? in.context_tokens : 0);
    size_t next = in.layers.size(); // layers [next, n) are placed off the host
    for (size_t d = 0; d < devices.size() && next > 0; ++d) {
        if (d == h)
            continue;
        const int64_t memory = devices[d]->memory_bytes();
        uint64_t left = memory > 0 ? static_cast<uint64_t>(memory) : 0;
        while (next > 0) {
            const LayerNeeds& need = in.layers[next - 1];
            const uint64_t kv = need.kv_bytes_per_token * tokens + need.fixed_bytes;
            if (need.weight_bytes + kv > left)
                break;
            left -= need.weight_bytes + kv;
            const auto dev = static_cast<uint32_t>(d);
            p.layers[next - 1] = LayerPlacement{dev, dev, dev};
            p.weight_bytes[d] += need.weight_bytes;
            p.kv_bytes[d] += kv;
            --next;
        }
    }
    for (size_t il = 0; il < next; ++il) {
        const LayerNeeds& need = in.layers[il];
        p.weight_bytes[h] += need.weight_bytes;
        p.kv_bytes[h] += need.kv_bytes_per_token * tokens + need.fixed_bytes;
    }
    return p;
}

std::string DevicePlan::describe() const {
    std::string out;
    for (uint32_t d = 0; d < devices.size(); ++d) {
        std::string parts = layer_ranges(*this, d);
        if (d == io)
            parts += parts.empty() ? "embeddings and output" : ", embeddings and output";
        if (parts.empty())
            continue;
        if (!out.empty())
            out += "\n";
        for (const std::string& piece :
             {devices[d], std::string(": "), parts, std::string("; weights "),
              mib_text(weight_bytes[d]), std::string(", KV "), mib_text(kv_bytes[d]),
              std::string(" at "), std::to_string(context_tokens), std::string(" tokens")})
            out += piece;
    }
    return out;
}

} // namespace folio
