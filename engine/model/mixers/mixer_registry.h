#pragma once
// The registration of every token-mixer kind: MixerKind (model/mixer_kind.h) -> its LayerMixer.

#include "model/layer_mixer.h"
#include "model/mixer_kind.h"

namespace folio {

const LayerMixer& layer_mixer(MixerKind kind);

} // namespace folio
