#pragma once
// Decode as one parallel region: the team of threads a decode step opens once, and what the
// kernels do inside it.
//
// A fork and join of an OpenMP region costs ~3 µs on the 2-core machines, a barrier ~1.4 µs;
// a token through the bench deepseek2 file used to open six regions per layer. Inside a decode
// region every thread walks the same steps; a one-token matvec called with a KernelContext
// whose `team` is set computes this thread's contiguous share of the rows (the share
// matvec_sets would give it: team_share) with the input converted into the thread's own
// buffer, and returns without waiting: the caller puts a team_barrier() where a later step
// reads rows another thread wrote. Which thread computes a row never changes its bits, so the
// results are those of the forked kernels (tests/engine/model/test_decode_region.cpp).
//
// ctx.balance (kernels/thread_balance.h) is read for the shares and written by record() only;
// the region's opener calls update() after the join, so every share of one region is cut by
// the same speeds.

#include "kernels/kernel_context.h"
#include "kernels/thread_balance.h"

#include <cstdint>

namespace folio {

struct DecodeTeam {
    int me = 0;      // this thread's number in the team
    int threads = 1; // the team's size
};

// Waits for every thread of the innermost enclosing OpenMP region (nothing outside one).
void team_barrier();

// The rows [begin, end) of an n-row one-token matvec that the team member of `ctx` computes
// (ctx.team must be set): by the threads' speeds in ctx.balance, equal shares without it.
RowShare team_share(const KernelContext& ctx, int64_t n);

} // namespace folio
