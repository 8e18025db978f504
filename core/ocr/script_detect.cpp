#include "core/ocr/script_detect.h"

#include <QList>

#include <QRegularExpression>

namespace folio::ocr {

namespace {

bool isCjk(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF)      // unified ideographs
           || (c >= 0x3400 && c <= 0x4DBF)   // extension A
           || (c >= 0x20000 && c <= 0x2FA1F) // extensions B.., compatibility supplement
           || (c >= 0xF900 && c <= 0xFAFF)   // compatibility ideographs
           || (c >= 0x3000 && c <= 0x303F)   // CJK punctuation
           || (c >= 0xFF01 && c <= 0xFF60);  // full-width forms
}

} // namespace

double cjkShare(const QString& text) {
    qsizetype cjk = 0, counted = 0;
    for (const char32_t c : text.toUcs4()) {
        if (isCjk(c)) {
            ++cjk;
            ++counted;
        } else if (QChar::isLetterOrNumber(c)) {
            ++counted;
        }
    }
    return counted ? double(cjk) / double(counted) : 0.0;
}

QString languagesForText(const QString& text) {
    const double share = cjkShare(text);
    if (share >= 0.6)
        return QStringLiteral("chi_sim");
    if (share < 0.02)
        return QStringLiteral("eng");
    return QStringLiteral("eng+chi_sim");
}

QString joinCjkSpaces(const QString& text) {
    const QList<uint> in = text.toUcs4();
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char32_t c = in[i];
        if (c == U' ' && !out.isEmpty()) {
            qsizetype j = i;
            while (j < in.size() && in[j] == U' ')
                ++j;
            const char32_t before = out.back().isLowSurrogate() && out.size() >= 2
                                        ? QChar::surrogateToUcs4(out[out.size() - 2], out.back())
                                        : out.back().unicode();
            if (j < in.size() && isCjk(before) && isCjk(in[j])) {
                i = j - 1;
                continue;
            }
        }
        out += QString::fromUcs4(&c, 1);
    }
    return out;
}

bool validLanguageSpec(const QString& spec, QString* error) {
    if (spec.isEmpty() || spec == QLatin1String("auto"))
        return true;
    static const QRegularExpression kSpec(QStringLiteral("^[A-Za-z0-9_]+(\\+[A-Za-z0-9_]+)*$"));
    if (kSpec.match(spec).hasMatch())
        return true;
    if (error)
        *error = QStringLiteral("'%1' is not a language list: give auto or Tesseract codes "
                                "joined by '+' (eng, chi_sim, eng+chi_sim)")
                     .arg(spec);
    return false;
}

} // namespace folio::ocr
