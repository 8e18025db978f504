#pragma once
// The recurrent per-sequence state of one decoder layer, as its mixer defines it (e.g. a
// linear-attention layer's recurrent matrix and convolution tail, model/mixers/). Constant in
// the sequence length, cannot be rewound token by token: DecoderState keeps a copy at the
// checkpoint, the prefix cache keeps copies at block boundaries, snapshots save it as sections
// (llama.cpp's recurrent memory, llama_memory_recurrent). Layers whose state is only their
// KV-cache rows have none.

#include "cache/snapshot_file.h"
#include "folio/error.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace folio {

class LayerState {
public:
    virtual ~LayerState() = default;
    virtual std::unique_ptr<LayerState> clone() const = 0;
    // Back to the state before the first token.
    virtual void reset() = 0;
    // Bytes of the state's values (what a snapshot or prefix entry holds).
    virtual size_t bytes() const = 0;
    // Bytes of RAM held (capacity).
    virtual size_t capacity_bytes() const = 0;
    // Writes the values as snapshot sections.
    virtual Status save(SnapshotWriter& w) const = 0;
    // Reads the sections save() wrote, sized as this state; `what` names it in errors.
    virtual Status load(SnapshotReader& r, const std::string& what) = 0;
};

// One entry per layer; null where the layer has no recurrent state.
using LayerStates = std::vector<std::unique_ptr<LayerState>>;

inline LayerStates clone_states(const LayerStates& states) {
    LayerStates out(states.size());
    for (size_t i = 0; i < states.size(); ++i)
        if (states[i])
            out[i] = states[i]->clone();
    return out;
}

} // namespace folio
