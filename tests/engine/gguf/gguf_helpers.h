#pragma once
// Helpers the GGUF suites share (test_gguf, test_gguf_conformance).

#include "support/test_support.h"

#include <QString>

#include <string>

namespace folio::test {

// The suite's scratch folder `name` (emptied), as a path.
inline std::string scratch(const QString& name) {
    return scratchDir(name).toStdString();
}

inline QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace folio::test
