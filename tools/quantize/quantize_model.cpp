#include "quantize/quantize_model.h"

#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "kernels/weight_rows.h"

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <optional>
#include <vector>

namespace folio::tools {

namespace {

uint32_t u32_or(const gguf::File& f, const std::string& key, uint32_t fallback) {
    auto v = f.get_u32(key);
    if (v && *v)
        return **v;
    auto a = f.get_int_array(key); // per-layer arrays (kimi-linear): layer 0's value
    if (a && *a && !(*a)->empty())
        return static_cast<uint32_t>((**a)[0]);
    return fallback;
}

// What llama-quantize's mixture rules read from the model (hparams and tensor names).
LlamaMixModel llama_mix_model(const gguf::File& f) {
    LlamaMixModel m;
    auto arch = f.get_string("general.architecture");
    const std::string a = arch && *arch ? **arch : std::string();
    m.n_layer = static_cast<int>(u32_or(f, a + ".block_count", 0));
    m.n_expert = static_cast<int>(u32_or(f, a + ".expert_count", 0));
    const uint32_t heads = u32_or(f, a + ".attention.head_count", 1);
    const uint32_t kv = u32_or(f, a + ".attention.head_count_kv", heads);
    m.n_gqa = kv > 0 ? static_cast<int>(heads / kv) : 1;
    for (const gguf::TensorInfo& t : f.tensors()) {
        if (t.name.find("attn_v.weight") != std::string::npos ||
            t.name.find("attn_qkv.weight") != std::string::npos ||
            t.name.find("attn_kv_b.weight") != std::string::npos)
            ++m.n_attention_wv;
        if (t.name == "output.weight")
            m.tied_embeddings = false;
    }
    return m;
}

// llama-quantize writes tensors in its loader's weight order: by layer ("blk.N." prefix; tensors
// without one first), then by name. Its per-layer mixture counters also advance in that order.
std::vector<size_t> llama_tensor_order(const std::vector<gguf::TensorInfo>& tensors) {
    std::vector<int> layer(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i)
        layer[i] = llama_layer_of(tensors[i].name);
    std::vector<size_t> order(tensors.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return layer[a] != layer[b] ? layer[a] < layer[b] : tensors[a].name < tensors[b].name;
    });
    return order;
}

} // namespace

Expected<QuantizeReport> quantize_model(const QuantizeOptions& o) {
    FOLIO_TRY(in, gguf::File::open(o.in));
    gguf::Writer w;
    for (const gguf::KeyValue& kv : in->metadata())
        w.set_value(kv.key, kv.value);
    // llama-quantize sets quantization_version, then file_type, and ggml's gguf setters remove
    // an existing key before appending it: both keys end the metadata in that order.
    w.remove_key("general.quantization_version");
    w.set_u32("general.quantization_version", 2);
    if (o.recipe.file_type != 0) {
        w.remove_key("general.file_type");
        w.set_u32("general.file_type", o.recipe.file_type);
    }

    const auto& tensors = in->tensors();
    std::optional<LlamaMix> mix;
    if (o.recipe.llama_mix)
        mix.emplace(*o.recipe.llama_mix, llama_mix_model(*in));
    std::vector<DType> types;
    QuantizeReport report;
    report.in_bytes = in->file_size();
    report.tensors = tensors.size();
    const std::vector<size_t> order = llama_tensor_order(tensors);
    for (size_t index : order) {
        const gguf::TensorInfo& t = tensors[index];
        DType type = recipe_type(o.recipe, t.name, t.ne[0], static_cast<int>(t.n_dims), t.type);
        // llama-quantize's tensor_allows_quantization: 2-D / 3-D tensors named *weight.
        if (mix && t.n_dims >= 2 && t.name.size() >= 6 &&
            t.name.compare(t.name.size() - 6, 6, "weight") == 0 &&
            !recipe_matches(o.recipe, t.name))
            type = mix->type_for(t.name, t.ne[0]);
        if (type != t.type && !dtype_is_computable(t.type))
            return make_error(ErrorCode::Unsupported,
                              o.in + ": tensor '" + t.name + "' is stored as " +
                                  std::string(dtype_name(t.type)) + ", which cannot be converted");
        types.push_back(type);
        std::vector<int64_t> ne(t.ne.begin(), t.ne.begin() + t.n_dims);
        FOLIO_CHECK(w.add_tensor_info(t.name, ne, type));
    }
    FOLIO_TRY(stream, w.begin(o.out));
    const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
    std::vector<uint8_t> out;
    for (size_t i = 0; i < order.size(); ++i) {
        const gguf::TensorInfo& t = tensors[order[i]];
        const DType type = types[i];
        if (type == t.type) {
            FOLIO_CHECK(stream->write_tensor_data(i, {t.data, t.size_bytes}));
        } else {
            ++report.converted;
            const int64_t row = t.ne[0], rows = t.n_elements() / row;
            const size_t in_row = t.row_bytes(), out_row = dtype_row_bytes(type, row);
            out.resize(out_row * static_cast<size_t>(rows));
            int failed = 0;
#pragma omp parallel num_threads(threads)
            {
                std::vector<float> f(static_cast<size_t>(row));
#pragma omp for schedule(static)
                for (int64_t r = 0; r < rows; ++r) {
                    if (!dequantize_row(t.type, t.data + r * in_row, f.data(), row) ||
                        !quantize_row(type, f.data(), out.data() + r * out_row, row)) {
#pragma omp atomic write
                        failed = 1;
                    }
                }
            }
            if (failed)
                return make_error(ErrorCode::Internal, "converting tensor '" + t.name + "' to " +
                                                           std::string(dtype_name(type)) +
                                                           " failed");
            FOLIO_CHECK(stream->write_tensor_data(i, out));
        }
        if (o.progress)
            o.progress(i + 1, tensors.size(), t.name);
    }
    FOLIO_CHECK(stream->finish());
    std::error_code ec;
    report.out_bytes = std::filesystem::file_size(o.out, ec);
    return report;
}

} // namespace folio::tools
