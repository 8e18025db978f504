#include "model/attention/top_k_select.h"

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

// The scores of [part.begin, part.end) with key >= thr (every score when all is set), in
// ascending position order, into part.key / part.pos. For non-NaN scores,
// score >= key_score(thr) <=> key >= thr.
void collect_at_least(const float* scores, uint32_t thr, bool all, TopKCandidates& part) {
    const int64_t n = part.end - part.begin;
    if (part.key.size() < static_cast<size_t>(n)) {
        part.key.resize(static_cast<size_t>(n));
        part.pos.resize(static_cast<size_t>(n));
    }
    part.threshold = all ? 0 : thr;
    uint32_t* key = part.key.data();
    int32_t* pos = part.pos.data();
    const int64_t b = part.begin;
    int64_t c = 0, i = b;
    if (all) {
        for (; i < part.end; ++i, ++c) {
            key[c] = order_key(scores[i]);
            pos[c] = static_cast<int32_t>(i);
        }
        part.count = c;
        return;
    }
    const float t = key_score(thr);
    constexpr int kChunk = 16;
    for (; i + kChunk <= part.end; i += kChunk) {
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
    for (; i < part.end; ++i) {
        if (scores[i] >= t) {
            key[c] = order_key(scores[i]);
            pos[c++] = static_cast<int32_t>(i);
        }
    }
    part.count = c;
}

// Radix select (11 + 11 + 10 bits) of the k-th largest key T among the candidates of all parts
// (at least k of them); r returns how many keys equal to T belong to the top k.
uint32_t kth_largest_key(const TopKCandidates* parts, int n_parts, int64_t k,
                         std::vector<uint32_t>& hist_buf, int64_t& r) {
    uint32_t prefix = 0, mask = 0;
    r = k;
    for (const auto& [shift, bits] : {std::pair{21, 11}, std::pair{10, 11}, std::pair{0, 10}}) {
        const uint32_t nbins = 1u << bits, digit = nbins - 1;
        hist_buf.assign(nbins, 0);
        uint32_t* hist = hist_buf.data();
        for (int p = 0; p < n_parts; ++p) {
            const uint32_t* key = parts[p].key.data();
            for (int64_t i = 0; i < parts[p].count; ++i)
                if ((key[i] & mask) == prefix)
                    ++hist[(key[i] >> shift) & digit];
        }
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
    return prefix;
}

} // namespace

void collect_top_k_candidates(const float* scores, int64_t begin, int64_t end, int64_t n, int64_t k,
                              TopKCandidates& part) {
    part.begin = begin;
    part.end = std::max(begin, end);
    const int64_t np = part.end - begin;
    // This range's share of k, and a threshold a little below its share-th largest score,
    // guessed from a strided sample.
    const int64_t share = n > 0 ? (k * np + n - 1) / n : 0;
    if (np < 4096 || share * 4 > np)
        return collect_at_least(scores, 0, true, part);
    const int64_t m = std::min<int64_t>(1024, np / 8), stride = np / m;
    part.sample.resize(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i)
        part.sample[i] = order_key(scores[begin + i * stride + stride / 2]);
    int64_t r = (share * m + np - 1) / np;
    r = std::min<int64_t>(m, r + r / 4 + 16);
    std::nth_element(part.sample.begin(), part.sample.begin() + (r - 1), part.sample.end(),
                     std::greater<uint32_t>());
    const uint32_t thr = part.sample[static_cast<size_t>(r - 1)];
    collect_at_least(scores, thr, thr == 0, part); // a NaN threshold: take everything
}

void select_top_k_of_parts(const float* scores, int64_t k, TopKCandidates* parts, int n_parts,
                           std::vector<uint32_t>& hist, int32_t* out) {
    if (k <= 0)
        return;
    int64_t total = 0;
    for (int p = 0; p < n_parts; ++p)
        total += parts[p].count;
    if (total < k) // the guesses were too high: every score
        for (int p = 0; p < n_parts; ++p)
            collect_at_least(scores, 0, true, parts[p]);
    int64_t r = 0;
    uint32_t T = kth_largest_key(parts, n_parts, k, hist, r);
    bool again = false;
    for (int p = 0; p < n_parts; ++p) {
        if (parts[p].threshold > T) { // it may have dropped scores in [T, threshold)
            collect_at_least(scores, T, T == 0, parts[p]);
            again = true;
        }
    }
    if (again)
        T = kth_largest_key(parts, n_parts, k, hist, r);
    int64_t m = 0;
    for (int p = 0; p < n_parts && m < k; ++p) {
        const uint32_t* key = parts[p].key.data();
        const int32_t* pos = parts[p].pos.data();
        for (int64_t i = 0; i < parts[p].count && m < k; ++i)
            if (key[i] > T || (key[i] == T && r-- > 0))
                out[m++] = pos[i];
    }
}

void select_top_k(const float* scores, int64_t n, int64_t k, TopKScratch& w, int32_t* out) {
    if (k >= n) {
        std::iota(out, out + std::max<int64_t>(n, 0), 0);
        return;
    }
    if (k <= 0)
        return;
    collect_top_k_candidates(scores, 0, n, n, k, w.candidates);
    select_top_k_of_parts(scores, k, &w.candidates, 1, w.hist, out);
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
