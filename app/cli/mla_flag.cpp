#include "cli/mla_flag.h"

namespace folio::cli {

std::optional<MlaForm> parse_mla_form(const std::string& text) {
    if (text == "auto")
        return MlaForm::Auto;
    if (text == "naive")
        return MlaForm::Naive;
    if (text == "absorbed")
        return MlaForm::Absorbed;
    return std::nullopt;
}

} // namespace folio::cli
