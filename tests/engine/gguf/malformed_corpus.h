#pragma once
// The malformed corpus of test_gguf: cases built from the valid base file of gguf_fixtures.h.

#include "gguf_fixtures.h"

#include <QStringList>

#include <vector>

namespace folio::test {

struct MalformedCase {
    const char* name;
    Bytes bytes;
    QStringList expected;
};

// The malformed corpus: each case mutates the valid base file and names what the reader's
// message must contain (besides the file name and "at byte").
std::vector<MalformedCase> malformed_corpus();

} // namespace folio::test
