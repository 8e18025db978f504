#include "model/top_k_select.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>

namespace folio {

namespace {

// Keys of scores that compare as unsigned integers in the order of the scores: -0.0 equals
// +0.0, NaN is the lowest of all (key 0), below -inf (key 0x007FFFFF).
inline uint32_t order_key(float x) {
    if (std::isnan(x))
        return 0;
    x += 0.0f;
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// The score of a key (inverse of order_key for keys of non-NaN scores).
inline float key_score(uint32_t k) {
    const uint32_t u = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// The scores >= thr (every score when all is set), in ascending position order, into w.key /
// w.pos; returns how many. For non-NaN scores, score >= key_score(thr) <=> key >= thr.
int64_t collect_at_least(const float* scores, int64_t n, uint32_t thr, bool all, TopKScratch& w) {
    if (w.key.size() < static_cast<size_t>(n)) {
        w.key.resize(static_cast<size_t>(n));
        w.pos.resize(static_cast<size_t>(n));
    }
    uint32_t* key = w.key.data();
    int32_t* pos = w.pos.data();
    int64_t c = 0, i = 0;
    if (all) {
        for (; i < n; ++i) {
            key[i] = order_key(scores[i]);
            pos[i] = static_cast<int32_t>(i);
        }
        return n;
    }
    const float t = key_score(thr);
    constexpr int kChunk = 16;
    for (; i + kChunk <= n; i += kChunk) {
#if defined(__SSE2__)
        const __m128 tv = _mm_set1_ps(t);
        const __m128 m0 = _mm_cmpge_ps(_mm_loadu_ps(scores + i), tv);
        const __m128 m1 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 4), tv);
        const __m128 m2 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 8), tv);
        const __m128 m3 = _mm_cmpge_ps(_mm_loadu_ps(scores + i + 12), tv);
        if (_mm_movemask_ps(_mm_or_ps(_mm_or_ps(m0, m1), _mm_or_ps(m2, m3))) == 0)
            continue;
#else
        int hit = 0;
        for (int j = 0; j < kChunk; ++j)
            hit |= scores[i + j] >= t;
        if (hit == 0)
            continue;
#endif
        for (int j = 0; j < kChunk; ++j) {
            if (scores[i + j] >= t) {
                key[c] = order_key(scores[i + j]);
                pos[c++] = static_cast<int32_t>(i + j);
            }
        }
    }
    for (; i < n; ++i) {
        if (scores[i] >= t) {
            key[c] = order_key(scores[i]);
            pos[c++] = static_cast<int32_t>(i);
        }
    }
    return c;
}

} // namespace

void select_top_k(const float* scores, int64_t n, int64_t k, TopKScratch& w, int32_t* out) {
    if (k >= n) {
        std::iota(out, out + std::max<int64_t>(n, 0), 0);
        return;
    }
    if (k <= 0)
        return;
    // A threshold a little below the k-th largest score, guessed from a strided sample.
    bool all = true;
    uint32_t thr = 0;
    if (n >= 4096 && k * 4 <= n) {
        const int64_t m = std::min<int64_t>(1024, n / 8), stride = n / m;
        w.sample.resize(static_cast<size_t>(m));
        for (int64_t i = 0; i < m; ++i)
            w.sample[i] = order_key(scores[i * stride + stride / 2]);
        int64_t r = (k * m + n - 1) / n;
        r = std::min<int64_t>(m, r + r / 4 + 16);
        std::nth_element(w.sample.begin(), w.sample.begin() + (r - 1), w.sample.end(),
                         std::greater<uint32_t>());
        thr = w.sample[static_cast<size_t>(r - 1)];
        all = thr == 0; // a NaN threshold: take everything
    }
    int64_t c = collect_at_least(scores, n, thr, all, w);
    if (c < k) // the guess was too high: take every score
        c = collect_at_least(scores, n, 0, true, w);
    // Radix select of the k-th largest key T among the c candidates (11 + 11 + 10 bits); r ends
    // as the number of keys equal to T that belong to the top k.
    const uint32_t* key = w.key.data();
    uint32_t prefix = 0, mask = 0;
    int64_t r = k;
    for (const auto& [shift, bits] : {std::pair{21, 11}, std::pair{10, 11}, std::pair{0, 10}}) {
        const uint32_t nbins = 1u << bits, digit = nbins - 1;
        w.hist.assign(nbins, 0);
        uint32_t* hist = w.hist.data();
        for (int64_t i = 0; i < c; ++i)
            if ((key[i] & mask) == prefix)
                ++hist[(key[i] >> shift) & digit];
        uint32_t b = nbins - 1;
        int64_t above = 0;
        while (above + hist[b] < r) {
            above += hist[b];
            --b;
        }
        r -= above;
        prefix |= b << shift;
        mask |= digit << shift;
    }
    const uint32_t T = prefix;
    const int32_t* pos = w.pos.data();
    int64_t m = 0;
    for (int64_t i = 0; i < c && m < k; ++i) {
        if (key[i] > T || (key[i] == T && r-- > 0))
            out[m++] = pos[i];
    }
}

void select_top_k_reference(const float* scores, int64_t n, int64_t k,
                            std::vector<std::pair<float, int32_t>>& work, int32_t* out) {
    if (k >= n) {
        std::iota(out, out + n, 0);
        return;
    }
    work.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        work[i] = {scores[i], static_cast<int32_t>(i)};
    // A strict total order: higher score first, then lower position.
    auto before = [](const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    };
    std::nth_element(work.begin(), work.begin() + (k - 1), work.end(), before);
    const std::pair<float, int32_t> last = work[static_cast<size_t>(k - 1)];
    int64_t m = 0;
    for (int64_t i = 0; i < n && m < k; ++i) {
        const std::pair<float, int32_t> p{scores[i], static_cast<int32_t>(i)};
        if (!before(last, p)) // p is `last` or comes before it
            out[m++] = static_cast<int32_t>(i);
    }
}

} // namespace folio
