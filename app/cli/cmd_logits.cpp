// folio-cli logits: evaluates a token sequence (no BOS added) and prints the top logits of the
// last position; --dump writes float32 logits for every position ([n_tokens][n_vocab]).
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/token_list.h"

#include "model/decoder_model.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>

namespace folio::cli {

int cmd_logits(std::vector<std::string> args) {
    const Command& self = *find_command("logits");
    Args a(std::move(args));
    auto model_path = a.take_value("-m", "--model");
    auto tokens_text = a.take_value("--tokens");
    auto top = a.take_int("--top");
    auto dump = a.take_value("--dump");
    auto threads = a.take_int("-t", "--threads");
    const bool seq = a.take_switch("--seq");
    auto form = a.take_value("--mla");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (!model_path || !tokens_text)
        return usage_error(self, "-m and --tokens are required");
    std::string err;
    auto tokens = parse_token_list(*tokens_text, &err);
    if (!tokens)
        return usage_error(self, err);

    auto model = load_decoder(*model_path);
    if (!model)
        return fail(model.error().to_string());
    const ModelConfig& c = (*model)->config;
    const int64_t n = static_cast<int64_t>(tokens->size()), V = c.n_vocab;

    EvalOptions opt;
    opt.kernels.n_threads = threads ? static_cast<int>(std::max<long long>(1, *threads)) : 2;
    if (form && *form == "naive")
        opt.mla = MlaForm::Naive;
    else if (form && *form == "absorbed")
        opt.mla = MlaForm::Absorbed;
    else if (form && *form != "auto")
        return usage_error(self, "--mla must be auto, naive or absorbed");

    DecoderState state = make_decoder_state(c, std::max<int64_t>(n, 1));
    DecoderScratch scratch;
    std::vector<float> all(static_cast<size_t>(n * V)), step;
    if (seq) {
        for (int64_t i = 0; i < n; ++i) {
            Status s = decoder_eval(**model, state, scratch, tokens->data() + i, 1, opt, step);
            if (!s)
                return fail(s.error().to_string());
            std::copy(step.begin(), step.end(), all.begin() + i * V);
        }
    } else {
        opt.all_logits = true;
        Status s = decoder_eval(**model, state, scratch, tokens->data(), n, opt, all);
        if (!s)
            return fail(s.error().to_string());
    }

    if (dump) {
        std::ofstream out(*dump, std::ios::binary);
        out.write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(all.size() * sizeof(float)));
        out.close();
        if (!out)
            return fail("cannot write " + *dump);
    }
    const float* last = all.data() + (n - 1) * V;
    std::vector<int32_t> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    const int64_t k = std::clamp<int64_t>(top ? *top : 5, 1, V);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int32_t x, int32_t y) { return last[x] > last[y] || (last[x] == last[y] && x < y); });
    for (int64_t i = 0; i < k; ++i)
        std::printf("top%lld id=%d logit=%.6f\n", static_cast<long long>(i + 1), order[i], last[order[i]]);
    return 0;
}

} // namespace folio::cli
