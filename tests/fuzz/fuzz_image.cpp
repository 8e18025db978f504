// The image path: stb_image behind our limits (decode_image with a small pixel budget so huge
// claimed sizes are refused before allocation), then the Kimi-VL preprocessing of what decoded.
#include "model/vision/image_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto img = folio::vision::decode_image({data, size}, "fuzz", 4'000'000);
    if (img && (img->width <= 0 || img->height <= 0 ||
                img->rgb.size() != size_t(img->width) * size_t(img->height) * 3))
        __builtin_trap();
    return 0;
}
