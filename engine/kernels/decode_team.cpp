#include "kernels/decode_team.h"

namespace folio {

void team_barrier(){
#pragma omp barrier
}

RowShare team_share(const KernelContext& ctx, int64_t n) {
    const DecodeTeam& t = *ctx.team;
    return row_share(t.threads > 1 ? ctx.balance : nullptr, t.threads, n, 1, t.me);
}

} // namespace folio
