// folio-cli image-embd --mmproj P.gguf --image I.png [--dump OUT.f32] [-t N]: runs one image
// through the kimivl vision encoder and projector (engine/model/vision/) and optionally writes
// the projector output, float32 [n_image_tokens][n_embd_text] (the conformance golden layout).
#include "cli/args.h"
#include "cli/commands.h"

#include "model/vision/image_io.h"
#include "model/vision/vision_encoder.h"
#include "model/vision/vision_model.h"

#include <cstdio>
#include <fstream>

namespace folio::cli {

int cmd_image_embd(std::vector<std::string> args) {
    const Command& self = *find_command("image-embd");
    Args a(std::move(args));
    if (a.take_switch("--help") || a.take_switch("-h")) {
        std::printf("usage: folio-cli %s\n"
                    "  --mmproj P.gguf   kimivl projector file (clip / kimivl)\n"
                    "  --image I         PNG, JPEG, BMP or GIF image\n"
                    "  --dump OUT.f32    write float32 [n_image_tokens][n_embd_text]\n"
                    "  -t, --threads N   OpenMP threads (default 2)\n",
                    self.synopsis);
        return 0;
    }
    const auto mmproj = a.take_value("--mmproj");
    const auto image_path = a.take_value("--image");
    const auto dump = a.take_value("--dump");
    const long long threads = a.take_int("--threads", "-t").value_or(2);
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!mmproj || !image_path)
        return usage_error(self, "--mmproj and --image are required");
    if (threads < 1 || threads > 1024)
        return usage_error(self, "need 1 <= threads <= 1024");

    auto model = vision::load_vision_model(*mmproj);
    if (!model)
        return fail(model.error().to_string());
    auto image = vision::load_image_file(*image_path);
    if (!image)
        return fail(image.error().to_string());

    KernelContext ctx;
    ctx.n_threads = static_cast<int>(threads);
    vision::EncodeInfo info;
    int n_tokens = 0;
    auto embd = vision::encode_image(*model, *image, ctx, &n_tokens, &info);
    if (!embd)
        return fail(embd.error().to_string());

    std::printf("image: %s, %dx%d\n", image_path->c_str(), info.source.width, info.source.height);
    std::printf("target size: %dx%d (content %dx%d at offset %d,%d)\n", info.layout.canvas.width,
                info.layout.canvas.height, info.layout.content.width, info.layout.content.height,
                info.layout.offset_x, info.layout.offset_y);
    std::printf("patches: %dx%d, image tokens: %d (%dx%d), n_embd_text: %u\n", info.grid_w,
                info.grid_h, n_tokens, info.grid_w / 2, info.grid_h / 2, model->hp.n_embd_text);
    std::printf("encode time: %.1f ms (preprocess %.1f ms), %lld threads\n", info.encode_ms,
                info.preprocess_ms, threads);

    if (dump) {
        std::ofstream out(*dump, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(embd->data()),
                  static_cast<std::streamsize>(embd->size() * sizeof(float)));
        if (!out.flush())
            return fail(*dump + ": write failed");
        std::printf("wrote %s: float32 [%d][%u]\n", dump->c_str(), n_tokens, model->hp.n_embd_text);
    }
    return 0;
}

} // namespace folio::cli
