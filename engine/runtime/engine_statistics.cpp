#include "runtime/engine_statistics.h"

#include "kernels/thread_scratch.h"
#include "runtime/mapped_residency.h"
#include "runtime/session_cache.h"

#include <algorithm>

namespace folio {

EngineStats EngineStatistics::snapshot() const {
    update_residency();
    std::lock_guard lk(m_);
    EngineStats out = st_;
    out.prefill_tokens_total = prefill_tokens_;
    out.decode_tokens_total = decode_tokens_;
    out.prefill_busy_seconds = prefill_busy_;
    out.decode_busy_seconds = decode_busy_;
    out.snapshot_seconds = std::chrono::duration<double>(Clock::now() - born_).count();
    // A copy in RAM is resident whole (anonymous memory: smaps no longer names the file).
    out.weights_resident_bytes = !out.model_loaded    ? 0
                                 : out.weights_in_ram ? out.weights_bytes
                                                      : resident_bytes_.load();
    return out;
}

void EngineStatistics::update_residency() const {
    std::unique_lock measuring(residency_m_, std::try_to_lock);
    if (!measuring) // another thread is reading smaps: its figure will do
        return;
    std::string path;
    {
        std::lock_guard lk(m_);
        path = weights_path_;
    }
    const auto now = Clock::now();
    if (path == residency_path_ && now - residency_time_ < kResidencyPeriod)
        return;
    resident_bytes_ = mapped_resident_bytes(path);
    residency_path_ = path;
    residency_time_ = now;
}

void EngineStatistics::set_state(const char* state) {
    std::lock_guard lk(m_);
    st_.state = state;
}

void EngineStatistics::set_sessions(int sessions) {
    std::lock_guard lk(m_);
    st_.sessions = sessions;
}

void EngineStatistics::set_queued_requests(int requests) {
    std::lock_guard lk(m_);
    st_.queued_requests = requests;
}

void EngineStatistics::reset(int sessions, const char* state) {
    std::lock_guard lk(m_);
    st_ = EngineStats{};
    st_.sessions = sessions;
    st_.state = state;
    weights_path_.clear();
}

void EngineStatistics::model_installed(const ModelFacts& facts) {
    std::lock_guard lk(m_);
    st_.model_loaded = true;
    st_.context_limit = facts.context_limit;
    st_.weights_bytes = facts.file_bytes;
    st_.weights_in_ram = facts.weights_in_ram;
    weights_path_ = facts.weights_in_ram ? std::string() : facts.path; // nothing to measure
}

void EngineStatistics::record_prefill(int64_t tokens, double seconds) {
    std::lock_guard lk(m_);
    prefill_tokens_ += tokens;
    prefill_busy_ += seconds;
}

void EngineStatistics::record_decode_step(double seconds, int64_t tokens) {
    std::lock_guard lk(m_);
    decode_tokens_ += tokens;
    decode_busy_ += seconds;
    const double seconds_per_token = seconds / static_cast<double>(std::max<int64_t>(1, tokens));
    const auto now = Clock::now();
    decode_window_.push_back({now, seconds_per_token});
    while (!decode_window_.empty() && now - decode_window_.front().first > std::chrono::seconds(30))
        decode_window_.pop_front();
}

void EngineStatistics::record_request(const RequestStats& s) {
    std::lock_guard lk(m_);
    st_.last_prefill_tps = s.prefill_tps > 0 ? s.prefill_tps : st_.last_prefill_tps;
    st_.last_decode_tps = s.decode_tps > 0 ? s.decode_tps : st_.last_decode_tps;
    st_.last_ttft_ms = s.ttft_ms > 0 ? s.ttft_ms : st_.last_ttft_ms;
    st_.prefix_hit_tokens += s.reused_tokens;
    last_prefix_hit_ = s.reused_tokens;
    spec_drafted_ += s.spec_drafted;
    spec_accepted_ += s.spec_accepted;
}

void EngineStatistics::record_threads(int in_use, int configured, double others_cpus) {
    std::lock_guard lk(m_);
    st_.threads_in_use = in_use;
    st_.threads_configured = configured;
    st_.other_cpu_load = others_cpus;
}

void EngineStatistics::refresh(const DecoderHandle* model, std::span<const SessionUsage> sessions,
                               int queued_requests) {
    std::lock_guard lk(m_);
    uint64_t kv = 0, scratch = 0;
    int64_t used = 0;
    for (const SessionUsage& s : sessions) {
        kv += s.cache->kv_bytes();
        scratch += s.cache->scratch_bytes();
        used = std::max<int64_t>(used, static_cast<int64_t>(s.cache->keys().size()));
    }
    // The sessions' decoder scratch and what the kernel threads keep (kernels/thread_scratch.h).
    scratch += thread_scratch_bytes();
    st_.kv_bytes = kv;
    st_.scratch_bytes = scratch;
    st_.sessions = static_cast<int>(sessions.size());
    st_.queued_requests = queued_requests;
    double sum = 0;
    for (const auto& [t, spt] : decode_window_)
        sum += spt;
    st_.window_decode_tps = decode_window_.empty() ? 0 : decode_window_.size() / sum;
    st_.spec_acceptance = spec_drafted_ > 0 ? double(spec_accepted_) / spec_drafted_ : 0;
    st_.context_used = used;
    st_.block_map.clear();
    if (!model) {
        st_.cache = CacheStats{};
        return;
    }
    CacheStats cs;
    fill_cache_stats(*model, cs);
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - cache_rate_time_).count();
    if (dt >= 1.0) { // rates over about a second
        cs.to_disk_rate = (cs.bytes_to_disk - cache_rate_base_.bytes_to_disk) / dt;
        cs.from_disk_rate = (cs.bytes_from_disk - cache_rate_base_.bytes_from_disk) / dt;
        cache_rate_base_ = cs;
        cache_rate_time_ = now;
    } else {
        cs.to_disk_rate = st_.cache.to_disk_rate;
        cs.from_disk_rate = st_.cache.from_disk_rate;
    }
    cs.last_prefix_hit_tokens = last_prefix_hit_;
    if (!cs.devices.empty()) {
        cs.devices[0].weights = static_cast<int64_t>(st_.weights_bytes);
        cs.devices[0].scratch = static_cast<int64_t>(scratch);
    }
    st_.cache = std::move(cs);
    for (const SessionUsage& s : sessions) {
        if (!s.cache->has_sequence())
            continue;
        SessionBlockMap bm;
        bm.session = s.id;
        s.cache->block_map(bm);
        st_.block_map.push_back(std::move(bm));
    }
}

} // namespace folio
