#include "support/server_process.h"

#include "support/test_support.h"

#include <QElapsedTimer>
#include <QRegularExpression>

namespace folio::test {

ServerProcess::~ServerProcess() {
    if (p_.state() != QProcess::NotRunning) {
        p_.terminate();
        if (!p_.waitForFinished(10000)) {
            p_.kill();
            p_.waitForFinished(5000);
        }
    }
}

bool ServerProcess::start(const QString& model, const QStringList& extra, QString* error) {
    QStringList args = {QStringLiteral("serve"),  QStringLiteral("-m"), model,
                        QStringLiteral("--port"), QStringLiteral("0"),  QStringLiteral("-t"),
                        QStringLiteral("1")};
    args += extra;
    p_.start(builtProgram(QStringLiteral("app/folio-cli")), args);
    if (!p_.waitForStarted(10000)) {
        *error = QStringLiteral("cannot start folio-cli: ") + p_.errorString();
        return false;
    }
    static const QRegularExpression re(
        QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000) {
        p_.waitForReadyRead(100);
        out += p_.readAllStandardOutput();
        const auto m = re.match(QString::fromUtf8(out));
        if (m.hasMatch()) {
            port_ = m.captured(1).toInt();
            return true;
        }
        if (p_.state() == QProcess::NotRunning) {
            *error = QStringLiteral("folio-cli serve exited: ") +
                     QString::fromUtf8(p_.readAllStandardError());
            return false;
        }
    }
    *error = QStringLiteral("folio-cli serve did not report its port");
    return false;
}

void ServerProcess::kill() {
    p_.kill();
    p_.waitForFinished(10000);
}

} // namespace folio::test
