// GGUF reader: any bytes either open (and then every tensor view stays inside the file and the
// model config / weights binding errors out cleanly) or give an error. Never a crash.
#include "fuzz_support.h"
#include "gguf/gguf_file.h"
#include "model/layer/model_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = folio::fuzz::write_input(data, size);
    auto file = folio::gguf::File::open(path);
    if (!file)
        return 0;
    for (const auto& t : (*file)->tensors()) {
        volatile uint8_t sink = 0;
        if (t.size_bytes > 0)
            sink = sink + t.data[0] + t.data[t.size_bytes - 1]; // ASan checks the bounds
    }
    (void)folio::read_model_config(**file);
    return 0;
}
