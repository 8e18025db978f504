#include "bench_vision.h"

#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace folio::bench {

namespace {

// A screenshot-like picture: white page, a title bar, text-like stripes and a bar chart.
vision::RgbImage synthetic_screenshot(int w, int h) {
    vision::RgbImage img;
    img.width = w;
    img.height = h;
    img.rgb.assign(static_cast<size_t>(w) * h * 3, 255);
    auto put = [&](int x, int y, uint8_t r, uint8_t g, uint8_t b) {
        uint8_t* p = img.rgb.data() + (static_cast<size_t>(y) * w + x) * 3;
        p[0] = r;
        p[1] = g;
        p[2] = b;
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (y < h / 12)
                put(x, y, 40, 60, 110); // title bar
            else if (x < w / 2 && (y / 9) % 3 == 0 && ((x / 5) % 7) != 0)
                put(x, y, 30, 30, 30); // text lines
            else if (x > w / 2 + 40 && y > h / 3) {
                const int bar = (x - w / 2 - 40) / 60;
                const int top = h / 3 + (bar * 97) % (h / 2);
                if ((x - w / 2 - 40) % 60 < 40 && y > top)
                    put(x, y, static_cast<uint8_t>(60 + 30 * bar), 140, 200);
            }
        }
    return img;
}

} // namespace

int run_bench_vision(const BenchVisionOptions& o, std::FILE* out) {
    auto model = vision::load_vision_model(o.mmproj);
    if (!model) {
        std::fprintf(stderr, "error: %s\n", model.error().to_string().c_str());
        return 1;
    }
    const vision::VisionHParams& hp = model->hp;
    std::fprintf(out, "mmproj: E %u, FFN %u, %u blocks, %u heads, patch %u, merge %u, T %u\n",
                 hp.n_embd, hp.n_ff, hp.n_layer, hp.n_head, hp.patch_size, hp.merge,
                 hp.n_embd_text);
    const vision::RgbImage img = synthetic_screenshot(o.width, o.height);
    KernelContext ctx;
    ctx.n_threads = o.threads;
    std::vector<double> times;
    vision::EncodeInfo info;
    for (int r = 0; r <= o.reps; ++r) {
        int n_tokens = 0;
        auto embd = vision::encode_image(*model, img, ctx, &n_tokens, &info);
        if (!embd) {
            std::fprintf(stderr, "error: %s\n", embd.error().to_string().c_str());
            return 1;
        }
        if (r > 0) // the first run is a warm-up
            times.push_back(info.preprocess_ms + info.encode_ms);
    }
    std::sort(times.begin(), times.end());
    std::fprintf(out, "image %dx%d -> canvas %dx%d, %dx%d patches, %d image tokens\n", o.width,
                 o.height, info.layout.canvas.width, info.layout.canvas.height, info.grid_w,
                 info.grid_h, info.n_tokens);
    std::fprintf(out,
                 "encode (preprocess + encoder + projector), %d threads: best %.1f ms, "
                 "median %.1f ms over %d runs\n",
                 o.threads, times.front(), times[times.size() / 2], o.reps);
    return 0;
}

} // namespace folio::bench
