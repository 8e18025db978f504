#include "i18n/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace folio::ui {

bool installTranslations(QCoreApplication* app, const QLocale& locale) {
    static QTranslator* folio = nullptr;
    static QTranslator* qt = nullptr;
    for (QTranslator** t : {&folio, &qt}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    folio = new QTranslator(app);
    const bool found = folio->load(locale, QStringLiteral("folio"), QStringLiteral("_"),
                                   QStringLiteral(":/folio/translations"));
    if (found)
        QCoreApplication::installTranslator(folio);
    qt = new QTranslator(app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    return found;
}

} // namespace folio::ui
