#include "core/text_file.h"

#include <fstream>
#include <sstream>

namespace folio {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        return {};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace folio
