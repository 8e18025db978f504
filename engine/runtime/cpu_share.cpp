#include "runtime/cpu_share.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

namespace folio {

namespace {

constexpr std::chrono::milliseconds kInterval{500};

#ifdef __linux__
// utime + stime (clock ticks) of one thread of this process, or false when it is gone.
bool thread_ticks(int tid, uint64_t& ticks) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    std::FILE* f = std::fopen(path, "r");
    if (!f)
        return false;
    char buf[1024];
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // Fields after the command name, which is in parentheses and may hold spaces: state is
    // field 3, utime 14 and stime 15 (proc(5)).
    const char* p = std::strrchr(buf, ')');
    if (!p)
        return false;
    unsigned long long utime = 0, stime = 0;
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                    &stime) != 2)
        return false;
    ticks = utime + stime;
    return true;
}
#endif

} // namespace

int threads_for_load(const CpuSample& before, const CpuSample& after, int n_cpus, int configured,
                     double* others_cpus) {
    const double total = static_cast<double>(after.total - before.total);
    if (after.total <= before.total || n_cpus <= 0) {
        if (others_cpus)
            *others_cpus = 0;
        return configured;
    }
    const double busy = static_cast<double>(after.busy - before.busy);
    const double team = static_cast<double>(after.team - before.team);
    // Ticks are per CPU: the interval holds `total` ticks over n_cpus CPUs.
    const double others = std::max(0.0, (busy - team) / total * n_cpus);
    if (others_cpus)
        *others_cpus = others;
    const double free = n_cpus - others;
    return std::clamp(static_cast<int>(std::floor(free + 0.35)), 1, std::max(1, configured));
}

CpuShare::CpuShare(int configured)
    : configured_(std::max(1, configured)), current_(configured_), adapt_(configured_ > 1) {
    if (const char* env = std::getenv("FOLIO_ADAPTIVE_THREADS"); env && std::string(env) == "0")
        adapt_ = false;
#ifndef __linux__
    adapt_ = false;
#endif
}

void CpuShare::find_team() {
    team_.clear();
#if defined(__linux__) && defined(_OPENMP)
    std::vector<int> ids(static_cast<size_t>(configured_), 0);
#pragma omp parallel num_threads(configured_)
    ids[static_cast<size_t>(omp_get_thread_num())] = static_cast<int>(syscall(SYS_gettid));
    for (int id : ids)
        if (id > 0 && std::find(team_.begin(), team_.end(), id) == team_.end())
            team_.push_back(id);
#elif defined(__linux__)
    team_.push_back(static_cast<int>(syscall(SYS_gettid)));
#endif
}

bool CpuShare::sample(CpuSample& out) {
#ifdef __linux__
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f)
        return false;
    char line[512];
    unsigned long long v[8] = {};
    bool ok = std::fgets(line, sizeof line, f) &&
              std::sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                          &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7;
    if (ok && n_cpus_ == 0)
        while (std::fgets(line, sizeof line, f) && std::strncmp(line, "cpu", 3) == 0)
            ++n_cpus_;
    std::fclose(f);
    if (!ok || n_cpus_ == 0)
        return false;
    out.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    out.total = out.busy + v[3] + v[4];
    out.team = 0;
    for (int tid : team_) {
        uint64_t t = 0;
        if (!thread_ticks(tid, t)) {
            find_team(); // the runtime replaced its threads: start over
            return false;
        }
        out.team += t;
    }
    return true;
#else
    (void)out;
    return false;
#endif
}

int CpuShare::threads() {
    if (!adapt_)
        return configured_;
    const auto now = std::chrono::steady_clock::now();
    if (have_last_ && now - last_time_ < kInterval)
        return current_;
    if (team_.empty())
        find_team();
    CpuSample s;
    if (!sample(s)) {
        have_last_ = false;
        return current_;
    }
    if (have_last_) {
        const int want = threads_for_load(last_, s, n_cpus_, configured_, &others_);
        if (want < current_) {
            current_ = want;
            want_more_ = 0;
        } else if (want > current_) {
            if (++want_more_ >= 2) {
                current_ = want;
                want_more_ = 0;
            }
        } else {
            want_more_ = 0;
        }
    }
    last_ = s;
    last_time_ = now;
    have_last_ = true;
    return current_;
}

} // namespace folio
