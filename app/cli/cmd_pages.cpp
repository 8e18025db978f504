// folio-cli pages DOC.pdf [--pages 3-7] [--ocr auto|always|off] [--lang eng+chi_sim]: each
// page's text with where it came from (the text layer, or OCR with its mean confidence). The
// work is done by the Qt-linked folio_ocr_job library; this file stays std only.
#include "cli/args.h"
#include "cli/commands.h"

#ifdef FOLIO_HAVE_OCR
#include "ocr/ocr_job.h"
#endif

namespace folio::cli {

int cmd_pages(std::vector<std::string> raw) {
    const Command& self = *find_command("pages");
#ifndef FOLIO_HAVE_OCR
    (void)raw;
    (void)self;
    return fail("pages needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF)");
#else
    Args args(std::move(raw));
    folio::ocrjob::PagesOptions o;
    o.pages = args.take_value("--pages").value_or("");
    o.ocr = args.take_value("--ocr").value_or("auto");
    o.lang = args.take_value("--lang").value_or("auto");
    o.threads = int(args.take_int("--threads", "-t").value_or(2));
    o.cacheDir = args.take_value("--cache-dir").value_or("");
    o.noCache = args.take_switch("--no-cache");
    o.quiet = args.take_switch("--quiet");
    const std::vector<std::string> files = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (files.size() != 1)
        return usage_error(self, "give one PDF");
    if (o.threads < 1 || o.threads > 64)
        return usage_error(self, "--threads must be 1 to 64");
    o.pdf = files.front();
    std::string error;
    if (folio::ocrjob::runPages(o, error) != 0)
        return fail(error);
    return 0;
#endif
}

} // namespace folio::cli
