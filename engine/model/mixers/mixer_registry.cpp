#include "model/mixers/mixer_registry.h"

#include "model/mixers/kda_mixer.h"
#include "model/mixers/mla_mixer.h"

namespace folio {

const LayerMixer& layer_mixer(MixerKind kind) {
    static const MlaMixer mla; // with the DSA indexer when the config has one
    static const KdaMixer kda;
    switch (kind) {
    case MixerKind::Kda:
        return kda;
    case MixerKind::Mla:
        break;
    }
    return mla;
}

} // namespace folio
