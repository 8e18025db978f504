#include "support/finance_db.h"

#include <QCryptographicHash>
#include <QFile>

#include <cstdlib>
#include <sqlite3.h>

namespace folio::test {

QString makeFinanceDatabase(const QString& dir) {
    const QString path = dir + QStringLiteral("/finance.db");
    QFile::remove(path);
    sqlite3* db = nullptr;
    sqlite3_open(path.toUtf8().constData(), &db);
    sqlite3_exec(db,
                 "CREATE TABLE revenue (year INTEGER, segment TEXT, amount REAL);"
                 "INSERT INTO revenue VALUES (2022, 'Cloud', 120.5), (2022, 'Devices', 80.0),"
                 " (2023, 'Cloud', 150.25), (2023, 'Devices', 70.0), (2024, 'Cloud', 190.0);",
                 nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return path;
}

int financeRowCount(const QString& path) {
    sqlite3* db = nullptr;
    int n = -1;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK)
        sqlite3_exec(
            db, "SELECT count(*) FROM revenue",
            [](void* out, int, char** v, char**) {
                *static_cast<int*>(out) = std::atoi(v[0]);
                return 0;
            },
            &n, nullptr);
    sqlite3_close(db);
    return n;
}

QByteArray fileDigest(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace folio::test
