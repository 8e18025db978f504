#pragma once
// nx (1..4 activation rows, or weight rows) -> a kernel unrolled over them, for the SIMD kernel
// files. Internal linkage (an unnamed namespace), like avx2_intrinsics.h: each kernel file keeps
// its own instantiations.
#include <type_traits>

namespace folio {

namespace {

// Fn<nx>::run(args...).
template <template <int> class Fn, typename... Args> void by_nx(int nx, Args... args) {
    switch (nx) {
    case 1:
        Fn<1>::run(args...);
        break;
    case 2:
        Fn<2>::run(args...);
        break;
    case 3:
        Fn<3>::run(args...);
        break;
    default:
        Fn<4>::run(args...);
        break;
    }
}

// f(std::integral_constant<int, nx>{}).
template <typename F> void by_nx(int nx, F&& f) {
    switch (nx) {
    case 1:
        return f(std::integral_constant<int, 1>{});
    case 2:
        return f(std::integral_constant<int, 2>{});
    case 3:
        return f(std::integral_constant<int, 3>{});
    default:
        return f(std::integral_constant<int, 4>{});
    }
}

} // namespace

} // namespace folio
