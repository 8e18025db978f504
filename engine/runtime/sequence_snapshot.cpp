#include "runtime/sequence_snapshot.h"

#include "cache/kv_codec.h"
#include "cache/snapshot_file.h"
#include "runtime/decoder_handle.h"

#include <cstring>

namespace folio {

namespace {

// The header section (little-endian, as the x86-64 / aarch64 machines Folio runs on).
struct Header {
    uint32_t version = kSnapshotVersion;
    uint32_t n_layer = 0;
    uint64_t model_size = 0;
    uint64_t model_fingerprint = 0;
    uint32_t block_tokens = 0;
    uint32_t kv_type = 0;
    uint64_t row_floats = 0;
    uint64_t row_bytes = 0;
    uint64_t n_tokens = 0;
    uint64_t token_row_values = 0; // values per token row (TokenRows), 0 without any
    uint32_t token_row_type = 0;   // their KvType
    uint32_t reserved = 0;
    uint64_t recurrent_bytes = 0; // recurrent state bytes, 0 without recurrent layers
    char arch[32] = {};
};

// What a snapshot of `s` holds: everything, except that a recurrent model that went on past
// the end of its prompt (the checkpoint) is saved at the checkpoint, where the next question
// can continue (its state cannot be rewound to any other position).
int64_t saved_tokens(const DecoderSequence& s) {
    const int64_t cp = s.state.checkpoint_position();
    return s.state.recurrent() && cp > 0 && cp < s.state.size() ? cp : s.state.size();
}

Header make_header(const DecoderHandle& h, const DecoderSequence& s) {
    const ModelConfig& c = h.model->config;
    const PoolConfig& pc = h.pool->config();
    Header hd;
    hd.n_layer = c.n_layer;
    hd.model_size = h.file_size;
    hd.model_fingerprint = h.fingerprint;
    hd.block_tokens = static_cast<uint32_t>(pc.block_tokens);
    hd.kv_type = static_cast<uint32_t>(pc.type);
    hd.row_floats = static_cast<uint64_t>(pc.row_floats);
    hd.row_bytes = h.pool->row_bytes();
    hd.n_tokens = static_cast<uint64_t>(saved_tokens(s));
    hd.token_row_values = s.state.token_row_values();
    hd.token_row_type = static_cast<uint32_t>(s.state.token_row_type());
    hd.recurrent_bytes = s.state.recurrent_bytes();
    std::strncpy(hd.arch, c.arch.c_str(), sizeof hd.arch - 1);
    return hd;
}

} // namespace

Expected<SnapshotStats> save_sequence_snapshot(const DecoderHandle& h, const DecoderSequence& s,
                                               const uint64_t* keys, const std::string& path) {
    const ModelConfig& c = h.model->config;
    const PagedKv& kv = s.state.kv();
    const BlockPool& pool = *kv.pool();
    const Header hd = make_header(h, s);
    const int64_t n = saved_tokens(s);
    const bool at_checkpoint = n < s.state.size();
    FOLIO_TRY(w, SnapshotWriter::create(path));
    FOLIO_CHECK(w->section(&hd, sizeof hd));
    FOLIO_CHECK(w->section(keys, sizeof(uint64_t) * static_cast<size_t>(n)));
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        if (!kv.layer_has_rows(il))
            continue;
        const int64_t nb = (n + kv.block_tokens() - 1) / kv.block_tokens();
        for (int64_t b = 0; b < nb; ++b) // from RAM or from the disk tier's mapping
            FOLIO_CHECK(w->section(pool.data(kv.blocks(il)[b]), pool.block_bytes()));
    }
    for (uint32_t il = 0; il < c.n_layer; ++il)
        if (const TokenRows* rows = s.state.token_rows(il))
            FOLIO_CHECK(w->section(rows->raw(), rows->bytes_for(n)));
    FOLIO_CHECK(s.state.save_recurrent(*w, at_checkpoint));
    FOLIO_CHECK(w->commit());
    return SnapshotStats{w->bytes_written(), n};
}

Expected<SnapshotStats> load_sequence_snapshot(const DecoderHandle& h, DecoderSequence& s,
                                               const std::string& path,
                                               std::vector<uint64_t>& keys) {
    const ModelConfig& c = h.model->config;
    BlockPool& pool = *h.pool;
    FOLIO_TRY(r, SnapshotReader::open(path));
    FOLIO_TRY(hp, r->section(sizeof(Header), "header"));
    Header hd;
    std::memcpy(&hd, hp, sizeof hd);
    const Header want = make_header(h, s);
    auto refuse = [&](const std::string& why) {
        return Error{ErrorCode::InvalidArgument, path + ": " + why};
    };
    if (hd.version != kSnapshotVersion)
        return refuse("snapshot version " + std::to_string(hd.version) + " (this Folio reads " +
                      std::to_string(kSnapshotVersion) + ")");
    if (hd.model_size != want.model_size || hd.model_fingerprint != want.model_fingerprint ||
        hd.n_layer != want.n_layer || std::strncmp(hd.arch, want.arch, sizeof hd.arch) != 0)
        return refuse(std::string("the snapshot belongs to another model file (") +
                      std::string(hd.arch, strnlen(hd.arch, sizeof hd.arch)) + ", " +
                      std::to_string(hd.model_size) + " bytes) than " + h.path);
    if (hd.block_tokens != want.block_tokens || hd.kv_type != want.kv_type ||
        hd.row_floats != want.row_floats || hd.row_bytes != want.row_bytes ||
        hd.token_row_values != want.token_row_values || hd.token_row_type != want.token_row_type)
        return refuse(std::string("the snapshot was saved with kv type ") +
                      kv_type_name(static_cast<KvType>(hd.kv_type & 3)) + " and " +
                      std::to_string(hd.block_tokens) + "-token blocks; this cache uses " +
                      kv_type_name(pool.config().type) + " and " +
                      std::to_string(want.block_tokens));
    const int64_t n = static_cast<int64_t>(hd.n_tokens);
    if (n <= 0 || n > s.state.max_tokens())
        return refuse("the snapshot holds " + std::to_string(n) +
                      " tokens; the session's context holds " +
                      std::to_string(s.state.max_tokens()));
    if (s.state.recurrent() && hd.recurrent_bytes != want.recurrent_bytes)
        return refuse("recurrent state size differs");

    // Check every section before anything changes.
    FOLIO_TRY(kp, r->section(sizeof(uint64_t) * static_cast<size_t>(n), "token keys"));
    const int64_t bt = hd.block_tokens, nb = (n + bt - 1) / bt;
    std::vector<std::vector<const uint8_t*>> blocks(c.n_layer);
    for (uint32_t il = 0; il < c.n_layer; ++il) {
        if (!s.state.kv().layer_has_rows(il))
            continue;
        for (int64_t b = 0; b < nb; ++b) {
            FOLIO_TRY(p, r->section(pool.block_bytes(),
                                    "layer " + std::to_string(il) + " block " + std::to_string(b)));
            blocks[il].push_back(p);
        }
    }
    std::vector<const uint8_t*> token_rows(c.n_layer, nullptr);
    for (uint32_t il = 0; il < c.n_layer; ++il)
        if (const TokenRows* rows = s.state.token_rows(il)) {
            FOLIO_TRY(
                p, r->section(rows->bytes_for(n), "layer " + std::to_string(il) + " token rows"));
            token_rows[il] = p;
        }
    FOLIO_TRY(states, s.state.read_recurrent(*r));
    FOLIO_CHECK(r->finish());

    // Everything checked: build the blocks, then the sequence.
    std::vector<std::vector<BlockId>> ids(c.n_layer);
    auto release_all = [&] {
        for (auto& layer : ids)
            for (BlockId id : layer)
                pool.release(id);
    };
    for (uint32_t il = 0; il < c.n_layer; ++il)
        for (int64_t b = 0; b < static_cast<int64_t>(blocks[il].size()); ++b) {
            auto id = pool.allocate(b);
            if (!id) {
                release_all();
                return id.error();
            }
            std::memcpy(pool.data(*id), blocks[il][b], pool.block_bytes());
            ids[il].push_back(*id);
        }
    s.state.adopt_prefix(ids, n, s.state.recurrent() ? &states : nullptr);
    release_all(); // the sequence holds them now
    for (uint32_t il = 0; il < c.n_layer; ++il)
        if (token_rows[il])
            FOLIO_CHECK(s.state.token_rows(il)->append_raw(token_rows[il], n));
    s.state.commit_token_rows(n);
    s.state.checkpoint();
    s.block_hashes.clear();
    keys.assign(reinterpret_cast<const uint64_t*>(kp), reinterpret_cast<const uint64_t*>(kp) + n);
    return SnapshotStats{r->size(), n};
}

} // namespace folio
