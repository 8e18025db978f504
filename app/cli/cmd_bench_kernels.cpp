// folio-cli bench-kernels: matvec GB/s per weight type against the memory read bandwidth, and
// prefill matmul GFLOP/s (bench/bench_kernels.h).
#include "cli/args.h"
#include "cli/commands.h"

#include "bench_indexer.h"
#include "bench_kernels.h"

#include <cstdio>

namespace folio::cli {

int cmd_bench_kernels(std::vector<std::string> args) {
    const Command& self = *find_command("bench-kernels");
    Args a(std::move(args));
    bench::BenchKernelsOptions o;
    if (a.take_switch("--help") || a.take_switch("-h")) {
        std::printf("usage: folio-cli %s\n"
                    "  -t, --threads N   OpenMP threads (default 2)\n"
                    "  --rows R          weight rows N (default 8192)\n"
                    "  --cols C          weight columns K, a multiple of 256 (default 4096)\n"
                    "  --reps R          timed repetitions (default 7)\n"
                    "  --no-prefill      skip the T = 64 / 512 matmul timings\n"
                    "  --gemm            only the int8 peak and the prefill GEMMs' share of it\n"
                    "  --indexer N       instead: the DSA indexer decode work over N keys\n",
                    self.synopsis);
        return 0;
    }
    if (auto t = a.take_int("--threads", "-t"))
        o.threads = static_cast<int>(*t);
    if (auto r = a.take_int("--rows"))
        o.rows = *r;
    if (auto c = a.take_int("--cols"))
        o.cols = *c;
    if (auto r = a.take_int("--reps"))
        o.reps = static_cast<int>(*r);
    if (a.take_switch("--no-prefill"))
        o.prefill = false;
    if (a.take_switch("--gemm"))
        o.gemm_only = true;
    auto indexer = a.take_int("--indexer");
    auto rest = a.positionals();
    if (!a.ok())
        return usage_error(self, a.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument " + rest[0]);
    if (indexer) {
        if (*indexer < 1 || *indexer > (1LL << 26) || o.threads < 1 || o.reps < 1)
            return usage_error(self, "--indexer needs 1 <= N <= 2^26 keys");
        bench::BenchIndexerOptions io;
        io.keys = *indexer;
        io.threads = o.threads;
        io.reps = o.reps;
        return bench::run_bench_indexer(io, stdout);
    }
    if (o.threads < 1 || o.threads > 1024 || o.rows < 1 || o.rows > (1 << 24) || o.cols < 256 ||
        o.cols % 256 != 0 || o.cols > (1 << 20) || o.reps < 1 || o.rows * o.cols > (1LL << 29))
        return usage_error(self, "need 1 <= threads <= 1024, 1 <= rows <= 2^24, cols a multiple "
                                 "of 256 up to 2^20, rows x cols <= 2^29, reps >= 1");
    return bench::run_bench_kernels(o, stdout);
}

} // namespace folio::cli
