#include "bench_tokenizer.h"

#include "gguf/gguf_file.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <vector>

namespace folio::bench {

namespace {

using Clock = std::chrono::steady_clock;

const char* const kEnglish[] = {
    "The company reported revenue of $4.5 billion for the year, an increase of 7.4% on 2023. ",
    "Operating margin improved to 15.8 percent while net debt fell below one times EBITDA. ",
    "In the fourth quarter, free cash flow reached 603 million and the order book grew. ",
    "The board proposes a dividend of 0.35 per share, payable on 12 June 2025.\n",
    "Risks include currency movements, supply-chain disruption and regulatory change. ",
    "We've invested in research & development; it's the basis of next year's growth. ",
};
const char* const kChinese[] = {
    "本公司2024年度营业收入为人民币1,234.56亿元，同比增长12.3%。",
    "董事会建议派发末期股息每股0.35元，须经股东大会批准。",
    "深度学习模型的推理速度取决于内存带宽和缓存命中率。",
    "第四季度经营活动产生的现金流量净额为603亿元。\n",
};

} // namespace

std::string synthesize_report_text(size_t bytes) {
    std::mt19937 rng(20240607);
    std::string s;
    s.reserve(bytes + 256);
    int row = 0;
    while (s.size() < bytes) {
        const unsigned r = rng() % 10;
        if (r < 6) {
            s += kEnglish[rng() % std::size(kEnglish)];
        } else if (r < 9) {
            s += kChinese[rng() % std::size(kChinese)];
        } else {
            std::ostringstream t;
            t << "| Segment " << ++row << " | " << (rng() % 100000) << "." << (rng() % 100) << " | "
              << (rng() % 2000) / 10.0 << "% |\n";
            s += t.str();
        }
    }
    return s;
}

int run_bench_tokenizer(const BenchTokenizerOptions& o, std::FILE* out) {
    auto file = gguf::File::open(o.model_path);
    if (!file) {
        std::fprintf(stderr, "error: %s\n", file.error().to_string().c_str());
        return 1;
    }
    const auto t_load0 = Clock::now();
    auto tok = tokenizer::Tokenizer::from_gguf(**file);
    const double load_s = std::chrono::duration<double>(Clock::now() - t_load0).count();
    if (!tok) {
        std::fprintf(stderr, "error: %s\n", tok.error().to_string().c_str());
        return 1;
    }
    std::string text;
    if (!o.text_path.empty()) {
        std::ifstream in(o.text_path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "error: cannot read %s\n", o.text_path.c_str());
            return 1;
        }
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } else {
        text = synthesize_report_text(o.synth_bytes);
    }

    size_t n_tokens = 0;
    std::vector<double> times;
    for (int r = 0; r <= o.reps; ++r) {
        const auto t0 = Clock::now();
        auto ids = tok->encode(text, true, false);
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!ids) {
            std::fprintf(stderr, "error: %s\n", ids.error().to_string().c_str());
            return 1;
        }
        n_tokens = ids->size();
        if (r > 0) // the first run is a warm-up
            times.push_back(dt);
    }
    std::sort(times.begin(), times.end());
    const double best = times.front();
    const double median = times[times.size() / 2];
    const double mb = static_cast<double>(text.size()) / 1e6;

    std::fprintf(out, "model: %s (pre-tokenizer %s, %zu tokens, %zu merges; loaded in %.1f ms)\n",
                 o.model_path.c_str(),
                 std::string(tokenizer::pre_type_name(tok->pre_type())).c_str(), tok->vocab_size(),
                 tok->merge_count(), load_s * 1e3);
    std::fprintf(out, "text: %s, %zu bytes -> %zu tokens (%.2f bytes/token)\n",
                 o.text_path.empty() ? "synthesized report" : o.text_path.c_str(), text.size(),
                 n_tokens, static_cast<double>(text.size()) / std::max<size_t>(n_tokens, 1));
    std::fprintf(out, "encode, 1 thread, %d runs: best %.1f ms, median %.1f ms\n",
                 static_cast<int>(times.size()), best * 1e3, median * 1e3);
    std::fprintf(out, "throughput: %.2f MB/s, %.0f tokens/s (best); %.2f MB/s (median)\n",
                 mb / best, static_cast<double>(n_tokens) / best, mb / median);
    return 0;
}

} // namespace folio::bench
