#pragma once
// The kinds of token mixer ("attention") a decoder layer can have, and which one a layer of a
// file has. Each kind is implemented by one LayerMixer in model/mixers/ (registered in
// mixers/mixer_registry.cpp); docs/ATTENTION_KINDS.md says how to add one.

#include <cstdint>
#include <string>

namespace folio {

// MLA attention (optionally with the DSA lightning indexer, when the file has its keys) or KDA.
enum class MixerKind : uint8_t { Mla, Kda };

// The mixer of a layer with `n_head_kv` KV heads in an `arch` file: kimi-linear and kimi-hybrid
// mark a KDA (recurrent) layer with head_count_kv 0 (an INT32 array per layer); everything else is
// MLA.
inline MixerKind mixer_kind_of_layer(const std::string& arch, uint32_t n_head_kv) {
    const bool kimi = arch == "kimi-linear" || arch == "kimi-hybrid";
    return kimi && n_head_kv == 0 ? MixerKind::Kda : MixerKind::Mla;
}

} // namespace folio
