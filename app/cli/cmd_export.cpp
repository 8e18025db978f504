// folio-cli export CHAT.json -o OUT.md|.html|.pdf|.json [--model NAME]: a saved chat written as
// the workbench's File → Export chat… writes it. The work is done by the Qt-linked folio_export
// library (folio_core); this file stays std only.
#include "cli/args.h"
#include "cli/commands.h"

#ifdef FOLIO_HAVE_EXPORT
#include "export/export_job.h"
#endif

namespace folio::cli {

int cmd_export(std::vector<std::string> raw) {
    const Command& self = *find_command("export");
#ifndef FOLIO_HAVE_EXPORT
    (void)raw;
    (void)self;
    return fail("export needs the Qt part of Folio (built with FOLIO_BUILD_UI=OFF)");
#else
    Args args(std::move(raw));
    folio::exporting::Options o;
    o.out = args.take_value("--out", "-o").value_or("");
    o.model = args.take_value("--model").value_or("");
    const std::vector<std::string> files = args.positionals();
    if (!args.ok())
        return usage_error(self, args.error());
    if (files.size() != 1)
        return usage_error(self, "give one chat file (CHAT.json)");
    if (o.out.empty())
        return usage_error(self, "no output file given (-o OUT.pdf|.html|.md|.json)");
    o.chat = files.front();
    std::string error;
    if (folio::exporting::run(o, error) != 0)
        return fail(error);
    return 0;
#endif
}

} // namespace folio::cli
