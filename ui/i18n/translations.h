#pragma once
// The workbench's language (issue #25): the translation of the system locale (QLocale::system(),
// which follows LANGUAGE, LC_ALL, LC_MESSAGES and LANG), built from translations/folio_*.ts into
// .qm files at build time and embedded at :/folio/translations; Qt's own strings (standard
// dialogs) from Qt's translations folder where they are installed. English needs none.

#include <QLocale>

class QCoreApplication;

namespace folio::ui {

// Installs the translators for `locale` on `app` (replacing any installed before). Returns true
// when Folio's own translation for it was found.
bool installTranslations(QCoreApplication* app, const QLocale& locale = QLocale::system());

} // namespace folio::ui
