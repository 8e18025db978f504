#include "tokenizer/pre_tokenizer.h"

#include "tokenizer/pretok_splitters.h"

#include <array>
#include <string>

namespace folio::tokenizer {

namespace {

struct PreName {
    std::string_view name;
    PreType type;
};

// The names llama.cpp maps to these pre-tokenizers (src/llama-vocab.cpp).
constexpr std::array kPreNames = {
    PreName{"default", PreType::Default},        PreName{"gpt-2", PreType::Gpt2},
    PreName{"llama-bpe", PreType::Llama3},       PreName{"llama3", PreType::Llama3},
    PreName{"llama-v3", PreType::Llama3},        PreName{"qwen2", PreType::Qwen2},
    PreName{"deepseek-r1-qwen", PreType::Qwen2}, PreName{"deepseek-v3", PreType::DeepSeekV3},
    PreName{"kimi-k2", PreType::KimiK2},
};

} // namespace

Expected<PreType> pre_type_from_name(std::string_view name) {
    for (const PreName& p : kPreNames)
        if (p.name == name)
            return p.type;
    std::string known;
    for (const PreName& p : kPreNames)
        known += (known.empty() ? "" : ", ") + std::string(p.name);
    return make_error(ErrorCode::Unsupported, "tokenizer.ggml.pre: unknown pre-tokenizer '" +
                                                  std::string(name) + "' (supported: " + known +
                                                  ")");
}

std::string_view pre_type_name(PreType type) {
    for (const PreName& p : kPreNames)
        if (p.type == type)
            return p.name;
    return "?";
}

void pre_tokenize(PreType type, std::span<const uint32_t> cps, PreTokenizeScratch& scratch,
                  Pieces& out) {
    out.clear();
    const size_t n = cps.size();
    if (n == 0)
        return;
    scratch.flags.resize(n);
    for (size_t i = 0; i < n; ++i)
        scratch.flags[i] = cp_flags(cps[i]);
    FragmentView f{cps.data(), scratch.flags.data(), nullptr};
    if (type == PreType::DeepSeekV3 || type == PreType::Default) {
        scratch.classes.resize(n);
        collapse_classes(cps.data(), scratch.flags.data(), n, scratch.classes.data());
        f.cls = scratch.classes.data();
    }
    switch (type) {
    case PreType::Default:
        split_default(f, n, scratch.tmp, out);
        break;
    case PreType::Gpt2:
        split_gpt2(f, 0, n, out);
        break;
    case PreType::Llama3:
        split_llama3(f, 0, n, 3, out);
        break;
    case PreType::Qwen2:
        split_llama3(f, 0, n, 1, out);
        break;
    case PreType::DeepSeekV3:
        split_deepseek_v3(f, n, scratch.tmp, out);
        break;
    case PreType::KimiK2:
        split_kimi_k2(f, 0, n, out);
        break;
    }
}

} // namespace folio::tokenizer
