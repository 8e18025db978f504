#include "cli/generate_remote.h"

#include "cli/answer_collector.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/request_flags.h"

#include "folio/remote_backend.h"

#include <cstdio>
#include <cstdlib>

namespace folio::cli {

bool wants_remote(const std::vector<std::string>& args) {
    for (const std::string& a : args)
        if (a == "--remote" || a.rfind("--remote=", 0) == 0)
            return true;
    return false;
}

int generate_remote(std::vector<std::string> args) {
    const Command& self = *find_command("generate");
    Args a(std::move(args));
    auto url = a.take_value("--remote");
    auto api_key = a.take_value("--api-key");
    auto model = a.take_value("--model");
    const RequestFlags flags =
        take_request_flags(a, kPromptFlags | kChatFlags | kLengthFlags | kSamplingFlags);
    auto timeout = a.take_double("--timeout");
    auto retries = a.take_int("--retries");
    auto ca_cert = a.take_value("--ca-cert");
    const bool ids_only = a.take_switch("--ids");
    const bool print_stats = a.take_switch("--stats");
    const bool quiet = a.take_switch("--quiet");
    const bool list = a.take_switch("--list-models");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);

    RemoteOptions o;
    o.base_url = url.value_or("");
    if (!api_key)
        if (const char* env = std::getenv("FOLIO_API_KEY"))
            api_key = env;
    o.api_key = api_key.value_or("");
    o.model = model.value_or("");
    o.token_ids = ids_only;
    if (timeout)
        o.read_timeout_s = *timeout;
    if (retries)
        o.max_retries = static_cast<int>(std::max<long long>(0, *retries));
    o.ca_cert_file = ca_cert.value_or("");
    RemoteBackend backend(o);
    if (auto v = backend.valid(); !v)
        return usage_error(self, v.error().message);
    if (list) {
        auto models = backend.list_models();
        if (!models)
            return fail(models.error().to_string());
        for (const RemoteModel& m : *models)
            std::printf("%s\n", m.id.c_str());
        return 0;
    }
    if (!model)
        return usage_error(self, "--remote needs --model NAME (see --list-models)");
    if (std::string bad = check_request_flags(flags); !bad.empty())
        return usage_error(self, bad);

    Request r;
    std::string err;
    if (!make_request(flags, r, err))
        return usage_error(self, err);

    AnswerCollector answer; // read only after wait()
    answer.attach(r.callbacks, ids_only);
    backend.wait(backend.submit(std::move(r)));
    std::lock_guard lk(answer.mu);
    const RequestStats& stats = answer.stats;
    if (ids_only)
        answer.print_ids();
    std::printf("\n");
    if (!answer.error.empty())
        return fail(answer.error); // after the partial answer, which stays on stdout
    if (print_stats)
        std::printf("stats: ttft_ms=%.2f prefill_tps=%.2f decode_tps=%.2f prompt_tokens=%lld "
                    "reused=%lld generated=%lld stop=%s\n",
                    stats.ttft_ms, stats.prefill_tps, stats.decode_tps,
                    static_cast<long long>(stats.prompt_tokens),
                    static_cast<long long>(stats.reused_tokens),
                    static_cast<long long>(stats.generated_tokens), stats.stop_reason.c_str());
    else if (!quiet)
        std::fprintf(stderr, "remote: ttft %.1f ms; generated %lld tokens, %.2f t/s\n",
                     stats.ttft_ms, static_cast<long long>(stats.generated_tokens),
                     stats.decode_tps);
    return 0;
}

} // namespace folio::cli
