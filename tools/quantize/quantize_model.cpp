#include "quantize/quantize_model.h"

#include "gguf/gguf_file.h"
#include "gguf/gguf_writer.h"
#include "tensor/quantize.h"

#include <omp.h>

#include <filesystem>
#include <vector>

namespace folio::tools {

Expected<QuantizeReport> quantize_model(const QuantizeOptions& o) {
    FOLIO_TRY(in, gguf::File::open(o.in));
    gguf::Writer w;
    for (const gguf::KeyValue& kv : in->metadata())
        w.set_value(kv.key, kv.value);
    if (o.recipe.file_type != 0)
        w.set_u32("general.file_type", o.recipe.file_type);
    w.set_u32("general.quantization_version", 2);

    const auto& tensors = in->tensors();
    std::vector<DType> types;
    QuantizeReport report;
    report.in_bytes = in->file_size();
    report.tensors = tensors.size();
    for (const gguf::TensorInfo& t : tensors) {
        const DType type =
            recipe_type(o.recipe, t.name, t.ne[0], static_cast<int>(t.n_dims), t.type);
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
    for (size_t i = 0; i < tensors.size(); ++i) {
        const gguf::TensorInfo& t = tensors[i];
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
