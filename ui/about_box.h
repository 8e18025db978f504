#pragma once
// Help → About Folio: the version, what Folio is, the kernel path this CPU runs, the license.

class QWidget;

namespace folio::ui {

void showAboutBox(QWidget* parent);

} // namespace folio::ui
