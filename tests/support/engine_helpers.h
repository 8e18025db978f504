#pragma once
// Shared by the engine-level suites: a request that collects what the engine reports, and the
// token sequences of the conformance goldens.

#include "folio/engine.h"

#include <QString>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace folio::test {

struct Collected {
    std::mutex m;
    std::vector<int32_t> ids;
    std::string text;
    RequestStats stats;
    std::vector<std::string> errors;
    std::vector<int64_t> progress;
};

// Greedy, EOS ignored, max_tokens tokens; the callbacks fill `out`.
Request makeRequest(std::vector<int32_t> prompt, int max_tokens, Collected& out);

// Token sequence `index` of goldens/<model>.json (empty when missing).
std::vector<int32_t> sequenceTokens(const QString& dir, const QString& model, int index);

} // namespace folio::test
