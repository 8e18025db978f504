// The kimivl graph of llama.cpp, step by step (tools/mtmd/clip.cpp).
#include "model/vision/vision_encoder.h"

#include "kernels/matmul.h"
#include "kernels/parallel.h"
#include "model/vision/gelu_table.h"
#include "model/vision/layer_norm.h"
#include "model/vision/pos_embd_resize.h"
#include "model/vision/vision_attention.h"
#include "tensor/fp16.h"

#include <chrono>
#include <cmath>
#include <string>

namespace folio::vision {

namespace {

// The projector's LayerNorm eps is hard-coded in llama.cpp (tools/mtmd/clip.cpp).
constexpr float kProjectorNormEps = 1e-5f;

// y = W·x + b for n rows (row strides = the matrix sizes).
Status linear(const KernelContext& ctx, const TensorView& w, const std::vector<float>& b,
              const float* x, int64_t n, float* y) {
    const int64_t k = w.ne[0], m = w.ne[1];
    FOLIO_CHECK(matmul(ctx, w, x, k, n, y, m));
    parallel_rows(ctx, n, m, [&](int64_t r) {
        float* yr = y + r * m;
        for (int64_t i = 0; i < m; ++i)
            yr[i] += b[static_cast<size_t>(i)];
    });
    return {};
}

void add_into(const KernelContext& ctx, float* x, const float* d, int64_t n_rows, int64_t n) {
    parallel_rows(ctx, n_rows, n, [&](int64_t r) {
        for (int64_t i = 0; i < n; ++i)
            x[r * n + i] = d[r * n + i] + x[r * n + i];
    });
}

// Patch embedding: the 14x14 stride-14 convolution as a matmul over patch vectors in (c, ky, kx)
// order (ggml im2col order), patches row-major.
std::vector<float> patch_vectors(const KernelContext& ctx, const PreprocessedImage& img, int p,
                                 int grid_w, int grid_h) {
    const int64_t width = img.layout.canvas.width, height = img.layout.canvas.height;
    const int64_t k = 3 * p * p;
    std::vector<float> out(static_cast<size_t>(k) * grid_w * grid_h);
    parallel_rows(ctx, static_cast<int64_t>(grid_w) * grid_h, k, [&](int64_t i) {
        const int64_t py = i / grid_w, px = i % grid_w;
        float* o = out.data() + i * k;
        for (int64_t c = 0; c < 3; ++c)
            for (int64_t ky = 0; ky < p; ++ky) {
                const float* src = img.planar.data() + (c * height + py * p + ky) * width + px * p;
                std::copy_n(src, p, o + (c * p + ky) * p);
            }
    });
    return out;
}

// 2x2 patch merge: output token (b, a) = patches (2b,2a), (2b,2a+1), (2b+1,2a), (2b+1,2a+1).
std::vector<float> merge_2x2(const float* x, int64_t e, int grid_w, int grid_h) {
    const int mw = grid_w / 2, mh = grid_h / 2;
    std::vector<float> out(static_cast<size_t>(4 * e) * mw * mh);
    for (int b = 0; b < mh; ++b)
        for (int a = 0; a < mw; ++a) {
            float* o = out.data() + (static_cast<int64_t>(b) * mw + a) * 4 * e;
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx) {
                    const int64_t patch = static_cast<int64_t>(2 * b + dy) * grid_w + 2 * a + dx;
                    std::copy_n(x + patch * e, e, o + (dy * 2 + dx) * e);
                }
        }
    return out;
}

void round_to_fp16(std::vector<float>& v) {
    for (float& f : v)
        f = fp16_to_fp32(fp32_to_fp16(f));
}

// GELU (tanh or quick form per `table`): through the fp16 table like llama.cpp, or in f32.
void gelu(const KernelContext& ctx, const GeluTable& table, const EncodeOptions& opt, float* x,
          int64_t n) {
    if (opt.fp16_gelu_table)
        gelu_fp16(ctx, table, x, x, n);
    else
        gelu_f32(ctx, table.kind, x, x, n);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

Expected<std::vector<float>> encode_preprocessed(const VisionModel& m, const PreprocessedImage& img,
                                                 const KernelContext& ctx, int* n_tokens,
                                                 const EncodeOptions& opt) {
    const VisionHParams& hp = m.hp;
    const int p = static_cast<int>(hp.patch_size);
    const int64_t e = hp.n_embd, ff = hp.n_ff, n_head = hp.n_head, dh = hp.head_dim();
    const ImageSize canvas = img.layout.canvas;
    if (canvas.width <= 0 || canvas.height <= 0 || canvas.width % (2 * p) != 0 ||
        canvas.height % (2 * p) != 0 ||
        img.planar.size() != static_cast<size_t>(canvas.width) * canvas.height * 3)
        return make_error(ErrorCode::InvalidArgument,
                          "vision encoder: canvas " + std::to_string(canvas.width) + "x" +
                              std::to_string(canvas.height) + " is not a multiple of " +
                              std::to_string(2 * p) + " or does not match its pixels");
    const int grid_w = canvas.width / p, grid_h = canvas.height / p;
    const int64_t n = static_cast<int64_t>(grid_w) * grid_h;

    // 1. Patch embedding (optionally with llama.cpp's F16 im2col and kernel).
    std::vector<float> x(static_cast<size_t>(n * e));
    {
        std::vector<float> patches = patch_vectors(ctx, img, p, grid_w, grid_h);
        if (opt.fp16_patch_embedding) {
            round_to_fp16(patches);
            const TensorView w16 = make_tensor_view(DType::F32, m.patch_w.ne, m.patch_w_f16.data());
            FOLIO_CHECK(linear(ctx, w16, m.patch_b, patches.data(), n, x.data()));
        } else {
            FOLIO_CHECK(linear(ctx, m.patch_w, m.patch_b, patches.data(), n, x.data()));
        }
    }
    // 2. Learned position table, resized to the grid (bilinear + antialias).
    {
        const int side = static_cast<int>(hp.pos_grid);
        const std::vector<float> pos =
            resize_pos_embd(ctx, m.pos_embd.data(), e, side, side, grid_w, grid_h);
        add_into(ctx, x.data(), pos.data(), n, e);
    }

    // 3. Encoder blocks.
    std::vector<int32_t> cols(static_cast<size_t>(n)), rows(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        cols[static_cast<size_t>(i)] = static_cast<int32_t>(i % grid_w);
        rows[static_cast<size_t>(i)] = static_cast<int32_t>(i / grid_w);
    }
    const float kq_scale = 1.0f / std::sqrt(static_cast<float>(dh));
    std::vector<float> a(static_cast<size_t>(n * e)), q(a.size()), k(a.size()), v(a.size()),
        o(a.size()), up(static_cast<size_t>(n * ff));
    for (const VisionLayer& L : m.layers) {
        layer_norm(ctx, x.data(), L.ln1_w.data(), L.ln1_b.data(), a.data(), e, n, e, e, hp.eps);
        FOLIO_CHECK(linear(ctx, L.q_w, L.q_b, a.data(), n, q.data()));
        FOLIO_CHECK(linear(ctx, L.k_w, L.k_b, a.data(), n, k.data()));
        FOLIO_CHECK(linear(ctx, L.v_w, L.v_b, a.data(), n, v.data()));
        FOLIO_CHECK(rope_2d(ctx, q.data(), n, n_head, dh, cols.data(), rows.data(), hp.rope_theta));
        FOLIO_CHECK(rope_2d(ctx, k.data(), n, n_head, dh, cols.data(), rows.data(), hp.rope_theta));
        FOLIO_CHECK(
            attention(ctx, q.data(), k.data(), v.data(), o.data(), n, n_head, dh, kq_scale));
        FOLIO_CHECK(linear(ctx, L.o_w, L.o_b, o.data(), n, a.data()));
        add_into(ctx, x.data(), a.data(), n, e);

        layer_norm(ctx, x.data(), L.ln2_w.data(), L.ln2_b.data(), a.data(), e, n, e, e, hp.eps);
        FOLIO_CHECK(linear(ctx, L.up_w, L.up_b, a.data(), n, up.data()));
        gelu(ctx, m.ffn_gelu(), opt, up.data(), n * ff);
        FOLIO_CHECK(linear(ctx, L.down_w, L.down_b, up.data(), n, a.data()));
        add_into(ctx, x.data(), a.data(), n, e);
    }
    // 4. Post-norm.
    layer_norm(ctx, x.data(), m.post_ln_w.data(), m.post_ln_b.data(), x.data(), e, n, e, e, hp.eps);

    // 5.-6. 2x2 merge, then the projector norm on each E-sized quarter.
    const int64_t n_out = n / 4, t = hp.n_embd_text;
    std::vector<float> z = merge_2x2(x.data(), e, grid_w, grid_h);
    layer_norm(ctx, z.data(), m.mm_norm_w.data(), m.mm_norm_b.data(), z.data(), e, n_out * 4, e, e,
               kProjectorNormEps);

    // 7. mm.2 · GELU(mm.1 · z + b1) + b2.
    std::vector<float> hidden(static_cast<size_t>(n_out * 4 * e));
    FOLIO_CHECK(linear(ctx, m.mm1_w, m.mm1_b, z.data(), n_out, hidden.data()));
    gelu(ctx, m.gelu_tanh, opt, hidden.data(), n_out * 4 * e);
    std::vector<float> out(static_cast<size_t>(n_out * t));
    FOLIO_CHECK(linear(ctx, m.mm2_w, m.mm2_b, hidden.data(), n_out, out.data()));
    if (n_tokens != nullptr)
        *n_tokens = static_cast<int>(n_out);
    return out;
}

Expected<std::vector<float>> encode_image(const VisionModel& m, const RgbImage& image,
                                          const KernelContext& ctx, int* n_tokens, EncodeInfo* info,
                                          const EncodeOptions& options) {
    const auto t0 = std::chrono::steady_clock::now();
    FOLIO_TRY(pre, preprocess_image(image, m.preprocess_params()));
    const double pre_ms = ms_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    int count = 0;
    FOLIO_TRY(out, encode_preprocessed(m, pre, ctx, &count, options));
    if (n_tokens != nullptr)
        *n_tokens = count;
    if (info != nullptr) {
        info->source = pre.source;
        info->layout = pre.layout;
        info->grid_w = pre.layout.canvas.width / static_cast<int>(m.hp.patch_size);
        info->grid_h = pre.layout.canvas.height / static_cast<int>(m.hp.patch_size);
        info->n_tokens = count;
        info->preprocess_ms = pre_ms;
        info->encode_ms = ms_since(t1);
    }
    return out;
}

} // namespace folio::vision
