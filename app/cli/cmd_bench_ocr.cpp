// folio-cli bench-ocr [--pages 4] [-t 2] [--lang auto]: OCR pages per second on generated
// scanned pages (English and Simplified Chinese), with the character accuracy against their
// source text. The work is done by the Qt-linked folio_ocr_job library.
#include "cli/args.h"
#include "cli/commands.h"

#ifdef FOLIO_HAVE_OCR
#include "ocr/ocr_job.h"
#endif

namespace folio::cli {

int cmd_bench_ocr(std::vector<std::string> raw) {
    const Command& self = *find_command("bench-ocr");
#ifndef FOLIO_HAVE_OCR
    (void)raw;
    (void)self;
    return fail("bench-ocr needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF)");
#else
    Args args(std::move(raw));
    folio::ocrjob::BenchOptions o;
    o.pages = int(args.take_int("--pages").value_or(4));
    o.threads = int(args.take_int("--threads", "-t").value_or(2));
    o.lang = args.take_value("--lang").value_or("auto");
    const std::vector<std::string> rest = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (!rest.empty())
        return usage_error(self, "unexpected argument '" + rest.front() + "'");
    if (o.pages < 1 || o.pages > 1000 || o.threads < 1 || o.threads > 64)
        return usage_error(self, "--pages must be 1 to 1000, --threads 1 to 64");
    std::string error;
    if (folio::ocrjob::runBenchOcr(o, error) != 0)
        return fail(error);
    return 0;
#endif
}

} // namespace folio::cli
