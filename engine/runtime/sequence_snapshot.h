#pragma once
// KV-cache snapshots of one sequence (docs/KV_CACHE.md "Snapshots"): everything a session holds
// for a document, from all tiers, so another process can answer the next question without
// prefilling it again. The model file's identity, the cache's storage type and block size must
// match; a corrupt, truncated or mismatched snapshot is refused with a message and the sequence
// is left unchanged.

#include "folio/error.h"
#include "runtime/decoder_adapter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace folio {

struct SnapshotStats {
    uint64_t bytes = 0;
    int64_t tokens = 0;
};

// Writes sequence `s`, whose positions have keys[0 .. sequence_length(s)), to `path` (atomic).
Expected<SnapshotStats> save_sequence_snapshot(const DecoderHandle& h, const DecoderSequence& s,
                                               const uint64_t* keys, const std::string& path);
// Replaces `s` with the snapshot's tokens; their keys go to `keys`.
Expected<SnapshotStats> load_sequence_snapshot(const DecoderHandle& h, DecoderSequence& s,
                                               const std::string& path,
                                               std::vector<uint64_t>& keys);

} // namespace folio
