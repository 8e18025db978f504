#pragma once
// Heads in groups of four for the SIMD index-score kernels, which keep one accumulator per head
// of a group in registers: fn(std::integral_constant<int, NH>{}, h0) for h0 = 0, 4, 8, ... with
// NH = 4, or the 1–3 heads left in the last group.

#include <cstdint>
#include <type_traits>

namespace folio {

template <typename Fn> inline void for_head_groups_of_4(int64_t n_heads, Fn&& fn) {
    for (int64_t h0 = 0; h0 < n_heads; h0 += 4) {
        switch (n_heads - h0) {
        case 1:
            fn(std::integral_constant<int, 1>{}, h0);
            break;
        case 2:
            fn(std::integral_constant<int, 2>{}, h0);
            break;
        case 3:
            fn(std::integral_constant<int, 3>{}, h0);
            break;
        default:
            fn(std::integral_constant<int, 4>{}, h0);
        }
    }
}

} // namespace folio
