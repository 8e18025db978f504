#pragma once
// Shared helpers of the QtTest suites.

#include <QString>
#include <QStringList>

namespace folio::test {

// The conformance folder (FOLIO_CONFORMANCE_DIR env, else the build's default), or an empty
// string when it does not exist. Under CI=true a missing folder is a test failure: call
// requireConformanceDir() from a test and return when it gives an empty string.
QString conformanceDir();

// Returns the conformance dir; when absent, QSKIPs (locally) or QFAILs (CI=true) the current
// test with a message. Use through the FOLIO_REQUIRE_CONFORMANCE macro.
bool isCi();

// A fresh empty directory under the test's temporary area.
QString scratchDir(const QString& name);

// Path of a built program (e.g. "app/folio-cli") in the build tree.
QString builtProgram(const QString& relativePath);

// True in the tsan build. LLVM 14's ThreadSanitizer aborts in a child process started from a
// threaded program (QProcess), so tests that start programs skip there.
constexpr bool underThreadSanitizer() {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return true;
#endif
#endif
#if defined(__SANITIZE_THREAD__)
    return true;
#endif
    return false;
}

// A finished run of the built folio-cli.
struct CliRun {
    int exitCode = -1; // -1: did not finish within the timeout, -2: crashed
    QString out, err;
};
CliRun runCli(const QStringList& args, int timeoutMs);

} // namespace folio::test

#define FOLIO_REQUIRE_CONFORMANCE(dirVar)                                                          \
    const QString dirVar = folio::test::conformanceDir();                                          \
    do {                                                                                           \
        if (dirVar.isEmpty()) {                                                                    \
            if (folio::test::isCi())                                                               \
                QFAIL("conformance data missing (FOLIO_CONFORMANCE_DIR) and CI=true");             \
            QSKIP("conformance data not found: set FOLIO_CONFORMANCE_DIR");                        \
        }                                                                                          \
    } while (0)
