// The snapshot loader: any bytes handed to load_sequence_snapshot (with the tiny conformance
// deepseek32 model loaded, so every section kind exists) are refused with an error or give a
// sequence that evaluates. FOLIO_FUZZ_SEED_DIR: writes a valid snapshot there as a seed.
#include "fuzz_support.h"
#include "runtime/decoder_adapter.h"
#include "runtime/sequence_snapshot.h"

#include <memory>
#include <vector>

namespace {

std::shared_ptr<folio::DecoderHandle>& model() {
    static std::shared_ptr<folio::DecoderHandle> h;
    return h;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    auto h = folio::load_decoder_handle(folio::fuzz::conformance_dir() + "/models/ds32-f32.gguf");
    if (!h)
        return 0;
    model() = *h;
    if (const char* dir = std::getenv("FOLIO_FUZZ_SEED_DIR")) {
        auto seq = folio::new_sequence(**h, 256);
        std::vector<int32_t> tokens;
        for (int i = 0; i < 70; ++i)
            tokens.push_back(5 + (i * 7) % 300);
        std::vector<float> logits;
        if (folio::eval_tokens(**h, *seq, tokens.data(), 70, false, 1, logits)) {
            std::vector<uint64_t> keys(tokens.begin(), tokens.end());
            (void)folio::save_sequence_snapshot(**h, *seq, keys.data(),
                                                std::string(dir) + "/seed-70-tokens.kv");
        }
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (!model())
        return 0;
    const std::string path = folio::fuzz::write_input(data, size);
    auto seq = folio::new_sequence(*model(), 256);
    std::vector<uint64_t> keys;
    if (folio::load_sequence_snapshot(*model(), *seq, path, keys)) {
        // A snapshot that loaded must be usable.
        int32_t next = 7;
        std::vector<float> logits;
        if (folio::sequence_length(*seq) < 256)
            (void)folio::eval_tokens(*model(), *seq, &next, 1, false, 1, logits);
    }
    return 0;
}
