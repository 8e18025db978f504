#include "core/ocr/char_accuracy.h"

#include <QList>

#include <algorithm>
#include <vector>

namespace folio::ocr {

QString normalizedForAccuracy(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text.normalized(QString::NormalizationForm_KC))
        if (!c.isSpace())
            out += c;
    return out;
}

qsizetype editDistance(const QString& a, const QString& b) {
    const QList<uint> x = a.toUcs4(), y = b.toUcs4();
    std::vector<qsizetype> row(size_t(y.size()) + 1);
    for (size_t j = 0; j < row.size(); ++j)
        row[j] = qsizetype(j);
    for (qsizetype i = 1; i <= x.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= y.size(); ++j) {
            const qsizetype above = row[size_t(j)];
            row[size_t(j)] = std::min(
                {above + 1, row[size_t(j - 1)] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row.back();
}

double characterAccuracy(const QString& source, const QString& read) {
    const QString s = normalizedForAccuracy(source), r = normalizedForAccuracy(read);
    const qsizetype n = s.toUcs4().size();
    if (n == 0)
        return 0;
    return std::max(0.0, 1.0 - double(editDistance(s, r)) / double(n));
}

} // namespace folio::ocr
