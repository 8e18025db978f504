// folio-cli report --template NAME|FILE DOC.pdf [DOC2.pdf] [IMG...] (-m M.gguf [--mmproj P] |
// --remote URL --model NAME [--api-key K]) -o OUT.pdf|.odt|.html|.md [--data F.csv|F.sqlite]
// [--language en|zh_CN]
// [--report F.folio-report] [--restart] [-n N] [-t N] [-c CTX] [--quiet]: a report made section
// by section (issue #49 §5). The work is done by the Qt-linked folio_summarize library; this file
// stays std only.
#include "cli/args.h"
#include "cli/commands.h"

#ifdef FOLIO_HAVE_SUMMARIZE
#include "report/report_job.h"
#endif

#include <cstdlib>

namespace folio::cli {

int cmd_report(std::vector<std::string> raw) {
    const Command& self = *find_command("report");
#ifndef FOLIO_HAVE_SUMMARIZE
    (void)raw;
    (void)self;
    return fail("report needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF)");
#else
    Args args(std::move(raw));
    folio::report::Options o;
    o.templateName = args.take_value("--template").value_or("");
    o.language = args.take_value("--language").value_or("en");
    o.remote = args.take_value("--remote").value_or("");
    o.apiKey = args.take_value("--api-key").value_or("");
    const std::string model = args.take_value("--model", "-m").value_or("");
    o.mmproj = args.take_value("--mmproj").value_or("");
    o.out = args.take_value("--out", "-o").value_or("");
    o.reportFile = args.take_value("--report").value_or("");
    // --data F.csv[,G.csv] or --data F.sqlite: what sections that draw on data query.
    for (std::string list = args.take_value("--data").value_or(""); !list.empty();) {
        const size_t comma = list.find(',');
        o.data.push_back(list.substr(0, comma));
        list = comma == std::string::npos ? std::string() : list.substr(comma + 1);
    }
    o.restart = args.take_switch("--restart");
    o.max_tokens = static_cast<int>(args.take_int("--n-predict", "-n").value_or(768));
    o.threads = static_cast<int>(args.take_int("--threads", "-t").value_or(0));
    o.context = args.take_int("--ctx-size", "-c").value_or(0);
    o.quiet = args.take_switch("--quiet");
    std::vector<std::string> files = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (o.templateName.empty())
        return usage_error(self, "no template given (--template equity-note|policy-brief|"
                                 "comparison|FILE)");
    if (o.language != "en" && o.language != "zh_CN")
        return usage_error(self, "--language is en or zh_CN");
    if (model.empty())
        return usage_error(self, "no model given (-m F.gguf, or --remote URL --model NAME)");
    if (o.out.empty())
        return usage_error(self, "no output file given (-o OUT.pdf|.odt|.html|.md)");
    if (o.max_tokens <= 0)
        return usage_error(self, "-n must be positive");
    if (o.remote.empty()) {
        o.model = model;
    } else {
        o.remoteModel = model;
        if (o.apiKey.empty())
            if (const char* env = std::getenv("FOLIO_API_KEY"))
                o.apiKey = env;
    }
    // PDFs first, then charts (by suffix).
    for (const std::string& f : files) {
        const bool pdf = f.size() > 4 && (f.compare(f.size() - 4, 4, ".pdf") == 0 ||
                                          f.compare(f.size() - 4, 4, ".PDF") == 0);
        (pdf ? o.documents : o.images).push_back(f);
    }
    if (o.documents.empty())
        return usage_error(self, "no document given (DOC.pdf)");
    std::string error;
    if (folio::report::run(o, error) != 0)
        return fail(error);
    return 0;
#endif
}

} // namespace folio::cli
