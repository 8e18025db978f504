#include "bench_model.h"

#include "folio/model_info.h"
#include "kernels/kernel_table.h"
#include "machine_peak.h"
#include "memory_bandwidth.h"
#include "model/decoder/decoder_model.h"
#include "runtime/mapped_residency.h"
#include "runtime/sampler.h"
#include "runtime/thread_park.h"
#include "runtime/weights_memory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace folio::bench {

namespace {

struct Stat {
    double mean = 0, stddev = 0;
};

Stat stats(const std::vector<double>& v) {
    Stat s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
    double sq = 0;
    for (double x : v)
        sq += (x - s.mean) * (x - s.mean);
    s.stddev = v.size() > 1 ? std::sqrt(sq / (v.size() - 1)) : 0.0;
    return s;
}

// Weight bytes one decode step streams: every tensor except the embedding table (one row is
// gathered), with routed experts counted at expert_used / expert_count.
double active_bytes_per_token(const DecoderModel& m) {
    const ModelConfig& c = m.config;
    double bytes = 0;
    for (const auto& t : m.file->tensors()) {
        if (t.name == "token_embd.weight") {
            bytes += static_cast<double>(t.row_bytes());
            continue;
        }
        double b = static_cast<double>(t.size_bytes);
        if (t.name.find("_exps.") != std::string::npos && c.n_expert > 0)
            b *= static_cast<double>(c.n_expert_used) / c.n_expert;
        bytes += b;
    }
    return bytes;
}

// Linux: the peak resident set size of this process (VmHWM), reset by reset_peak_rss().
double peak_rss_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::stod(line.substr(6)) * 1024.0;
    return -1;
}

// CPU seconds (user + sys, all threads) of this process so far.
double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// The engine's threads must sleep once a request is done: the CPU time this process uses over
// 300 ms of doing nothing right after a decode, as the OpenMP runtime leaves its workers (they
// spin before they sleep), then again after park_kernel_threads(), as the engine leaves them.
void print_idle_cpu(std::FILE* out) {
    constexpr auto kIdle = std::chrono::milliseconds(300);
    auto idle_ms = [&] {
        const double c0 = process_cpu_seconds();
        std::this_thread::sleep_for(kIdle);
        return 1e3 * (process_cpu_seconds() - c0);
    };
    const double spinning = idle_ms();
    const bool parked = park_kernel_threads();
    const double after = idle_ms();
    std::fprintf(out,
                 "  (idle after decode: %.1f ms of CPU over %lld ms; %.1f ms when the team is "
                 "parked%s, as the engine does)\n",
                 spinning, static_cast<long long>(kIdle.count()), after,
                 parked ? "" : " (park failed)");
}

void reset_peak_rss() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

} // namespace

int run_bench_model(const BenchModelOptions& o, std::FILE* out) {
    auto loaded = load_decoder(o.model);
    if (!loaded) {
        std::fprintf(stderr, "error: %s\n", loaded.error().to_string().c_str());
        return 1;
    }
    const DecoderModel& m = **loaded;
    settle_weights(*m.file, o.weights, nullptr, nullptr);
    const uint64_t huge = huge_page_bytes(m.file->bytes(), m.file->file_size());
    std::fprintf(out, "weights: %s (%.0f of %.0f MiB in 2 MiB pages)\n",
                 m.file->in_memory() ? "copied into RAM" : "mapped from the file",
                 static_cast<double>(huge) / 1048576.0,
                 static_cast<double>(m.file->file_size()) / 1048576.0);
    auto info = inspect_model(o.model);
    const std::string size = info ? format_bytes(info->file_size) : "?";
    const std::string params = info ? format_count(info->parameter_count) : "?";
    std::string types;
    if (info)
        for (const auto& t : info->by_type)
            types += (types.empty() ? "" : "+") + t.type_name;

    std::fprintf(out, "kernels: %s (FOLIO_KERNELS=avx2 or portable takes another path)\n",
                 kernel_path_name(KernelPath::Auto));
    EvalOptions opt;
    opt.kernels.n_threads = o.threads;
    opt.mla = o.mla;
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int32_t> tok(0, static_cast<int32_t>(m.config.n_vocab) - 1);

    std::fprintf(out, "| model | size | params | backend | threads | test | t/s |\n");
    std::fprintf(out, "| --- | ---: | ---: | --- | ---: | ---: | ---: |\n");
    const std::string name = m.config.arch + " " + types;
    auto row = [&](const std::string& test, const Stat& s) {
        std::fprintf(out, "| %s | %s | %s | CPU | %d | %s | %.2f ± %.2f |\n", name.c_str(),
                     size.c_str(), params.c_str(), o.threads, test.c_str(), s.mean, s.stddev);
        std::fflush(out);
    };

    // A fresh block pool per measurement, configured as the user asked.
    auto pool = [&] { return std::make_shared<BlockPool>(pool_config_for(m.config, o.cache)); };
    DecoderScratch scratch;
    std::vector<float> logits;
    if (o.n_prompt > 0) {
        std::vector<int32_t> prompt(static_cast<size_t>(o.n_prompt));
        std::vector<double> rates;
        for (int r = 0; r <= o.reps; ++r) { // rep 0 warms up caches and page mappings
            for (auto& t : prompt)
                t = tok(rng);
            DecoderState state =
                make_decoder_state(m.config, o.n_prompt, pool(), o.cache.index_type);
            auto t0 = std::chrono::steady_clock::now();
            Status s = decoder_eval(m, state, scratch, prompt.data(), o.n_prompt, opt, logits);
            auto t1 = std::chrono::steady_clock::now();
            if (!s) {
                std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                return 1;
            }
            if (r > 0)
                rates.push_back(o.n_prompt / std::chrono::duration<double>(t1 - t0).count());
        }
        row("pp" + std::to_string(o.n_prompt), stats(rates));
    }
    // --phases: where a decode step's time goes (StepPhase), per token of the timed rounds.
    auto print_phases = [&](const std::string& where, const StepProfile& profile) {
        if (!o.phases || profile.steps == 0)
            return;
        std::fprintf(out, "  (decode ms/token %s:", where.c_str());
        for (int p = 0; p < static_cast<int>(StepPhase::Count); ++p)
            std::fprintf(out, " %s %.3f;", step_phase_name(static_cast<StepPhase>(p)),
                         1e3 * profile.seconds[p] / profile.steps);
        std::fprintf(out, " total %.3f)\n", 1e3 * profile.total() / profile.steps);
    };
    Stat tg;
    std::vector<double> tg_rates, paired_probe; // per timed decode run, and its probe
    std::vector<double> paired_compute;         // the int8 probe's G MAC/s before each run
    std::string compute_instruction;
    if (o.n_gen > 0) {
        std::vector<double> rates;
        StepProfile profile;
        for (int r = 0; r <= o.reps; ++r) {
            // The machine's bandwidth moves from minute to minute: each timed run gets its own
            // probe just before it, and the fraction below is also given per run (paired).
            if (o.measure_bandwidth && r > 0) {
                paired_compute.push_back(measure_int8_peak_now(o.threads, &compute_instruction));
                paired_probe.push_back(
                    measure_read_bandwidth(size_t(1) << 30, o.threads, 3).gb_per_s);
            }
            DecoderState state =
                make_decoder_state(m.config, o.n_gen + 1, pool(), o.cache.index_type);
            EvalOptions timed = opt;
            if (o.phases && r > 0)
                timed.profile = &profile;
            int32_t next = tok(rng);
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < o.n_gen; ++i) {
                Status s = decoder_eval(m, state, scratch, &next, 1, timed, logits);
                if (!s) {
                    std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                    return 1;
                }
                next = argmax(logits);
            }
            auto t1 = std::chrono::steady_clock::now();
            if (r > 0)
                rates.push_back(o.n_gen / std::chrono::duration<double>(t1 - t0).count());
        }
        tg = stats(rates);
        tg_rates = rates;
        row("tg" + std::to_string(o.n_gen), tg);
        print_phases("from an empty context", profile);
        print_idle_cpu(out);
    }
    // Depths: prefill each (ascending, timed once), then decode at every depth in turn, reps
    // times, so slow and fast phases of a noisy machine fall on all depths alike; the ratios
    // below compare medians of the same rounds.
    struct Depth {
        int64_t n = 0;
        std::unique_ptr<DecoderState> state;
        int32_t first = 0;
        double peak_rss = -1;
        std::vector<double> rates;
        std::vector<double> pp_rates, pp_cpu_rates; // depth_prefill: per wall / CPU second
        StepProfile profile;
    };
    std::vector<Depth> depths;
    for (int64_t n : o.depths) {
        Depth d;
        d.n = n;
        reset_peak_rss();
        d.state = std::make_unique<DecoderState>(make_decoder_state(
            m.config, n + std::max({o.n_gen, o.depth_prefill, 1}), pool(), o.cache.index_type));
        std::vector<int32_t> prompt(static_cast<size_t>(n));
        for (auto& t : prompt)
            t = tok(rng);
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < n; i += o.ubatch) {
            const int64_t b = std::min<int64_t>(o.ubatch, n - i);
            Status s = decoder_eval(m, *d.state, scratch, prompt.data() + i, b, opt, logits);
            if (!s) {
                std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                return 1;
            }
        }
        auto t1 = std::chrono::steady_clock::now();
        d.peak_rss = peak_rss_bytes();
        row("pp" + std::to_string(n), {n / std::chrono::duration<double>(t1 - t0).count(), 0.0});
        d.first = argmax(logits);
        d.state->checkpoint(); // KDA states can rewind to here
        depths.push_back(std::move(d));
    }
    // Decode n_gen tokens after each prompt, reps + 1 rounds (the first warms up, e.g. the
    // caches' first growth past the prompt, and is not counted), rewinding in between.
    for (int r = 0; o.n_gen > 0 && r <= o.reps; ++r) {
        for (Depth& d : depths) {
            if (Status s = d.state->truncate(d.n); !s) {
                std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                return 1;
            }
            EvalOptions timed = opt;
            if (o.phases && r > 0)
                timed.profile = &d.profile;
            int32_t next = d.first;
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < o.n_gen; ++i) {
                Status s = decoder_eval(m, *d.state, scratch, &next, 1, timed, logits);
                if (!s) {
                    std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                    return 1;
                }
                next = argmax(logits);
            }
            const auto t1 = std::chrono::steady_clock::now();
            if (r > 0)
                d.rates.push_back(o.n_gen / std::chrono::duration<double>(t1 - t0).count());
        }
    }
    // Prefill of depth_prefill tokens at each depth, in rounds as above (round 0 warms up).
    std::vector<int32_t> chunk(static_cast<size_t>(std::max(o.depth_prefill, 0)));
    for (auto& t : chunk)
        t = tok(rng);
    for (int r = 0; o.depth_prefill > 0 && r <= o.reps; ++r) {
        for (Depth& d : depths) {
            if (Status s = d.state->truncate(d.n); !s) {
                std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                return 1;
            }
            const double c0 = process_cpu_seconds();
            const auto t0 = std::chrono::steady_clock::now();
            for (int64_t i = 0; i < o.depth_prefill; i += o.ubatch) {
                const int64_t b = std::min<int64_t>(o.ubatch, o.depth_prefill - i);
                Status s = decoder_eval(m, *d.state, scratch, chunk.data() + i, b, opt, logits);
                if (!s) {
                    std::fprintf(stderr, "error: %s\n", s.error().to_string().c_str());
                    return 1;
                }
            }
            const auto t1 = std::chrono::steady_clock::now();
            const double c1 = process_cpu_seconds();
            if (r > 0) {
                d.pp_rates.push_back(o.depth_prefill /
                                     std::chrono::duration<double>(t1 - t0).count());
                d.pp_cpu_rates.push_back(o.depth_prefill / std::max(c1 - c0, 1e-9));
            }
        }
    }
    for (const Depth& d : depths) {
        if (d.pp_rates.empty())
            continue;
        row("pp" + std::to_string(o.depth_prefill) + " @ d" + std::to_string(d.n),
            stats(d.pp_rates));
        std::fprintf(out, "  (pp%d @ d%lld per CPU second: median %.1f t/s)\n", o.depth_prefill,
                     static_cast<long long>(d.n), median_of(d.pp_cpu_rates));
    }
    for (size_t i = 1; i < depths.size() && !depths[0].pp_rates.empty(); ++i) {
        std::vector<double> wall, cpu;
        for (size_t r = 0; r < depths[i].pp_rates.size(); ++r) {
            wall.push_back(depths[i].pp_rates[r] / depths[0].pp_rates[r]);
            cpu.push_back(depths[i].pp_cpu_rates[r] / depths[0].pp_cpu_rates[r]);
        }
        std::fprintf(out,
                     "prefill at d%lld / prefill at d%lld: %.3f wall, %.3f CPU (medians of %zu "
                     "rounds)\n",
                     static_cast<long long>(depths[i].n), static_cast<long long>(depths[0].n),
                     median_of(wall), median_of(cpu), wall.size());
    }
    for (const Depth& d : depths) {
        if (d.rates.empty())
            continue;
        row("tg" + std::to_string(o.n_gen) + " @ d" + std::to_string(d.n), stats(d.rates));
        std::fprintf(out,
                     "  (state at depth %lld: %.1f MiB in RAM, %.1f MiB on disk; peak RSS %s MiB "
                     "after its prefill; index keys %s)\n",
                     static_cast<long long>(d.n), d.state->bytes() / 1048576.0,
                     d.state->kv().disk_bytes() / 1048576.0,
                     d.peak_rss > 0
                         ? std::to_string(static_cast<long long>(d.peak_rss / 1048576.0)).c_str()
                         : "?",
                     kv_type_name(d.state->token_row_type()));
        print_phases("at depth " + std::to_string(d.n), d.profile);
    }
    // Decode speed at each depth relative to the first depth: the median of the per-round
    // ratios (the rounds ran back to back), with their range.
    for (size_t i = 1; i < depths.size() && !depths[0].rates.empty(); ++i) {
        std::vector<double> ratio;
        for (size_t r = 0; r < depths[i].rates.size(); ++r)
            ratio.push_back(depths[i].rates[r] / depths[0].rates[r]);
        std::sort(ratio.begin(), ratio.end());
        const double median = ratio.size() % 2
                                  ? ratio[ratio.size() / 2]
                                  : 0.5 * (ratio[ratio.size() / 2 - 1] + ratio[ratio.size() / 2]);
        std::fprintf(out, "decode at d%lld / decode at d%lld: %.3f (rounds %.3f .. %.3f, n=%zu)\n",
                     static_cast<long long>(depths[i].n), static_cast<long long>(depths[0].n),
                     median, ratio.front(), ratio.back(), ratio.size());
    }
    if (o.n_gen > 0 && o.measure_bandwidth) {
        const BandwidthResult bw = measure_read_bandwidth(size_t(1) << 30, o.threads, 5);
        const double active = active_bytes_per_token(m);
        std::fprintf(
            out,
            "\ndecode: %.1f MB of weights per token x %.2f t/s = %.2f GB/s; read bandwidth "
            "(%d threads, 1 GiB) %.2f GB/s; fraction %.2f\n",
            active / 1e6, tg.mean, active * tg.mean / 1e9, o.threads, bw.gb_per_s,
            bw.gb_per_s > 0 ? active * tg.mean / 1e9 / bw.gb_per_s : 0.0);
        std::vector<double> paired;
        for (size_t i = 0; i < tg_rates.size() && i < paired_probe.size(); ++i)
            if (paired_probe[i] > 0)
                paired.push_back(active * tg_rates[i] / 1e9 / paired_probe[i]);
        if (!paired.empty()) {
            std::fprintf(out, "paired: fraction of the probe read just before each run");
            for (size_t i = 0; i < paired.size(); ++i)
                std::fprintf(out, "%s %.2f (%.1f GB/s)", i ? " /" : "", paired[i], paired_probe[i]);
            std::fprintf(out, "; median %.2f\n", median_of(paired));
        }
        // Decode needs compute as well as memory, and on shared machines the compute moves on
        // its own: the int8 probe just before each run says which phase a fraction came from.
        if (!compute_instruction.empty()) {
            std::fprintf(out,
                         "compute before each run (%s, %d threads):", compute_instruction.c_str(),
                         o.threads);
            for (size_t i = 0; i < paired_compute.size(); ++i)
                std::fprintf(out, "%s %.0f G MAC/s", i ? " /" : "", paired_compute[i]);
            std::fprintf(out, "\n");
        }
    }
    return 0;
}

} // namespace folio::bench
