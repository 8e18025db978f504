#pragma once
// The base of a token mixer's own tensors (model/mixers/<kind>_weights.h). A DecoderLayer holds
// its mixer's weights through this base, so the layer names no attention kind: the layer's
// LayerMixer binds them (LayerMixer::bind) and is the only code that reads them back.

namespace folio {

struct MixerWeights {
    virtual ~MixerWeights() = default;
};

// The weights of layer `L` as the kind `W` that bound them (only that kind's mixer calls this).
template <class W, class Layer> const W& mixer_weights_of(const Layer& L) {
    return static_cast<const W&>(*L.mixer);
}
template <class W, class Layer> W& mixer_weights_of(Layer& L) {
    return static_cast<W&>(*L.mixer);
}

} // namespace folio
