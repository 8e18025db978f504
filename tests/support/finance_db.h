#pragma once
// A small SQLite database for the tool-call tests (engine agent and workbench): table
// revenue(year, segment, amount) with 5 rows, plus what the tests check it with.

#include <QByteArray>
#include <QString>

namespace folio::test {

// Writes `dir`/finance.db (replacing it) and returns its path.
QString makeFinanceDatabase(const QString& dir);
// Rows of table revenue, or -1 when the file cannot be read.
int financeRowCount(const QString& path);
// SHA-256 of the file's bytes (to show a file was not changed).
QByteArray fileDigest(const QString& path);

} // namespace folio::test
