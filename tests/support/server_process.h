#pragma once
// A `folio-cli serve` process on a free loopback port (--port 0; the port is read from its
// "listening on" line), stopped when the object goes away.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace folio::test {

class ServerProcess {
public:
    ~ServerProcess();
    // Starts `folio-cli serve -m model --port 0 -t 1 extra...`; false (with `error`) on failure.
    bool start(const QString& model, const QStringList& extra, QString* error);
    int port() const { return port_; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    void kill(); // SIGKILL, as a crash would
    QProcess& process() { return p_; }

private:
    QProcess p_;
    int port_ = 0;
};

} // namespace folio::test
