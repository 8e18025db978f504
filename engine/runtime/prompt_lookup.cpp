#include "runtime/prompt_lookup.h"

#include <algorithm>

namespace folio {

std::vector<int32_t> draft_prompt_lookup(std::span<const int32_t> ctx,
                                         const PromptLookupParams& p) {
    const int64_t n = static_cast<int64_t>(ctx.size());
    for (int64_t len = std::min<int64_t>(p.max_ngram, n - 1); len >= p.min_ngram; --len) {
        const int32_t* suffix = ctx.data() + n - len;
        // Scan backwards so the most recent occurrence wins; it must end before the suffix.
        for (int64_t start = n - len - 1; start >= 0; --start) {
            if (!std::equal(suffix, suffix + len, ctx.data() + start))
                continue;
            const int64_t from = start + len;
            const int64_t count = std::min<int64_t>(p.max_draft, n - from);
            if (count <= 0)
                continue;
            return std::vector<int32_t>(ctx.begin() + from, ctx.begin() + from + count);
        }
    }
    return {};
}

} // namespace folio
