#include "support/test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QtGlobal>

namespace folio::test {

QString conformanceDir() {
    QString dir = qEnvironmentVariable("FOLIO_CONFORMANCE_DIR");
    if (dir.isEmpty())
        dir = QStringLiteral(FOLIO_DEFAULT_CONFORMANCE_DIR);
    QFileInfo info(dir);
    if (!info.isDir())
        return {};
    return info.absoluteFilePath();
}

bool isCi() {
    const QString ci = qEnvironmentVariable("CI").toLower();
    return ci == QLatin1String("true") || ci == QLatin1String("1");
}

QString scratchDir(const QString& name) {
    QString base = qEnvironmentVariable("FOLIO_TEST_TMP");
    if (base.isEmpty())
        base = QDir::tempPath() + QStringLiteral("/folio-tests");
    QDir dir(base + QLatin1Char('/') + name);
    dir.removeRecursively();
    dir.mkpath(QStringLiteral("."));
    return dir.absolutePath();
}

QString builtProgram(const QString& relativePath) {
    return QStringLiteral(FOLIO_TEST_BINARY_DIR) + QLatin1Char('/') + relativePath;
}

CliRun runCli(const QStringList& args, int timeoutMs) {
    QProcess p;
    p.start(builtProgram(QStringLiteral("app/folio-cli")), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace folio::test
