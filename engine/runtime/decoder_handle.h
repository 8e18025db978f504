#pragma once
// What the adapter's opaque handles hold (runtime-internal: decoder_adapter.cpp and
// sequence_snapshot.cpp only).

#include "cache/prefix_index.h"
#include "folio/cache.h"
#include "model/decoder/decoder_model.h"
#include "runtime/decoder_adapter.h"
#include "tokenizer/tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace folio {

struct DecoderHandle {
    std::unique_ptr<DecoderModel> model;
    tokenizer::Tokenizer tok;
    DecoderFacts facts;
    CacheOptions cache;
    std::shared_ptr<BlockPool> pool;     // every sequence's cache-row blocks
    std::unique_ptr<PrefixIndex> prefix; // null when prefix sharing is off or unsupported
    std::string path;
    uint64_t file_size = 0;
    uint64_t fingerprint = 0; // checksum of the file's first MiB (header, metadata, tensor infos)
    bool recurrent = false;   // some layer keeps a recurrent state: rewinds only to checkpoints
};

struct DecoderSequence {
    DecoderState state;
    DecoderScratch scratch;
    std::vector<uint64_t> block_hashes; // chain hash of each full block registered or adopted
};

} // namespace folio
