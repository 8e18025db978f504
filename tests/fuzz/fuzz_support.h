#pragma once
// Shared by the libFuzzer targets (scripts/fuzz.sh NAME SECONDS): a scratch file for readers
// that take a path, and where the conformance material (models, vocabularies) lives.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace folio::fuzz {

// Writes the input to a per-process file (in /dev/shm when there is one) and returns its path.
inline std::string write_input(const uint8_t* data, size_t size) {
    static const std::string path =
        std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/folio-fuzz-" +
        std::to_string(getpid());
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        if (size > 0)
            std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

inline std::string conformance_dir() {
    const char* env = std::getenv("FOLIO_CONFORMANCE_DIR");
    return env && *env ? env : FOLIO_FUZZ_CONFORMANCE_DIR;
}

} // namespace folio::fuzz
