// folio-cli summarize DOC.pdf [IMAGE.png...] -m F.gguf [--mmproj P] -o OUT.md [-n N] [-t N]
// [-c CTX] [--figures OUT.json] [--quiet]: the workbench's summary, headless, with its figures
// checked against the PDF ("Figures: …" on stdout; the table with --figures). The work is done by
// the Qt-linked folio_summarize library (QtPdf reads the PDF); this file stays std only.
#include "cli/args.h"
#include "cli/commands.h"

#ifdef FOLIO_HAVE_SUMMARIZE
#include "summarize/summarize_job.h"
#endif

namespace folio::cli {

int cmd_summarize(std::vector<std::string> raw) {
    const Command& self = *find_command("summarize");
#ifndef FOLIO_HAVE_SUMMARIZE
    (void)raw;
    (void)self;
    return fail("summarize needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF)");
#else
    Args args(std::move(raw));
    folio::summarize::Options o;
    o.model = args.take_value("--model", "-m").value_or("");
    o.mmproj = args.take_value("--mmproj").value_or("");
    o.out = args.take_value("--out", "-o").value_or("");
    o.figures = args.take_value("--figures").value_or("");
    o.max_tokens = static_cast<int>(args.take_int("--n-predict", "-n").value_or(512));
    o.threads = static_cast<int>(args.take_int("--threads", "-t").value_or(0));
    o.context = args.take_int("--ctx-size", "-c").value_or(0);
    o.quiet = args.take_switch("--quiet");
    std::vector<std::string> files = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (files.empty())
        return usage_error(self, "no document given");
    if (o.model.empty())
        return usage_error(self, "no model given (-m F.gguf)");
    if (o.out.empty())
        return usage_error(self, "no output file given (-o OUT.md)");
    if (o.max_tokens <= 0)
        return usage_error(self, "-n must be positive");
    o.document = files.front();
    o.images.assign(files.begin() + 1, files.end());
    std::string error;
    if (folio::summarize::run(o, error) != 0)
        return fail(error);
    return 0;
#endif
}

} // namespace folio::cli
