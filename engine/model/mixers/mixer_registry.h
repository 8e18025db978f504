#pragma once
// The registration of every token-mixer kind: MixerKind (model/layer/mixer_kind.h) -> its
// LayerMixer.

#include "model/layer/layer_mixer.h"
#include "model/layer/mixer_kind.h"

namespace folio {

const LayerMixer& layer_mixer(MixerKind kind);

} // namespace folio
