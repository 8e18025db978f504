#include "kernels/gemm_driver.h"

#include "core/region_errors.h"
#include "kernels/matmul.h"
#include "kernels/scratch_buffer.h"

#include <algorithm>

namespace folio {

namespace {

// Asks for the kGemmRows weight rows from n0 on to be brought into L2 while the chunk just packed
// is multiplied, so its packing (usually the next for this thread) does not wait for DRAM: the
// weights of a prefill batch are read once, and a MoE expert's rows are too short for the
// hardware prefetcher to ramp up.
void prefetch_rows(const TensorView& w, int64_t n0) {
    const int64_t n1 = std::min(w.ne[1], n0 + kGemmRows);
    const auto bytes = static_cast<int64_t>(w.row_bytes());
    for (int64_t r = n0; r < n1; ++r)
        for (int64_t off = 0; off < bytes; off += 64)
            __builtin_prefetch(w.row(r) + off, 0, 2);
}

} // namespace

void run_gemm(const KernelContext& ctx, const GemmKernel& kernel, const TensorView& w,
              const QuantizedActivations& x, float* y, int64_t y_stride) {
    const int64_t k = w.ne[0], n = w.ne[1], t_count = x.n_rows;
    const int64_t t_padded = (t_count + kGemmTokenPad - 1) / kGemmTokenPad * kGemmTokenPad;
    const size_t x_stride = kernel.x_row_bytes;
    // Every byte is written by the packers, so the buffers need no initialisation; they are kept
    // per thread from call to call (kernels/scratch_buffer.h).
    thread_local ScratchBuffer x_buffer;
    uint8_t* const xp = x_buffer.get(x_stride * static_cast<size_t>(t_padded));
    const int pack_threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.n_threads, t_padded / 8)));
#pragma omp parallel for num_threads(pack_threads) schedule(static) if (pack_threads > 1)
    for (int64_t t = 0; t < t_padded; ++t)
        kernel.pack_activations(t < t_count ? x.row(t) : nullptr, k, xp + t * x_stride);

    const int64_t n_chunks = (n + kGemmRows - 1) / kGemmRows;
    const int64_t n_tblocks = (t_count + kGemmTokenBlock - 1) / kGemmTokenBlock;
    const int64_t n_tiles = n_chunks * n_tblocks;
    const int threads =
        static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(ctx.n_threads, n_tiles)));
    RegionErrors errors; // a thread's weight buffer may have to grow (std::bad_alloc)
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        thread_local ScratchBuffer w_buffer;
        uint8_t* wp = nullptr;
        errors.run([&] { wp = w_buffer.get(kernel.w_chunk_bytes); });
        int64_t packed_chunk = -1;
#pragma omp for schedule(static)
        for (int64_t tile = 0; tile < n_tiles; ++tile) {
            if (!wp)
                continue; // this thread could not get its buffer: the call fails below
            const int64_t c = tile / n_tblocks, tb = tile % n_tblocks;
            if (c != packed_chunk) {
                kernel.pack_weights(w, c * kGemmRows, wp);
                packed_chunk = c;
                prefetch_rows(w, (c + 1) * kGemmRows);
            }
            const int64_t n0 = c * kGemmRows, t0 = tb * kGemmTokenBlock;
            kernel.chunk(k, wp, std::min(kGemmRows, n - n0), xp + t0 * x_stride, x_stride,
                         std::min(kGemmTokenBlock, t_count - t0), y + t0 * y_stride + n0, y_stride);
        }
    }
    errors.rethrow();
}

} // namespace folio
