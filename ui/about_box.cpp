#include "about_box.h"

#include "backend/kernel_path_text.h"
#include "folio/system_info.h"
#include "folio/version.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace folio::ui {

void showAboutBox(QWidget* parent) {
    // The window's strings: their translations are kept under its context.
    QMessageBox::about(
        parent, QCoreApplication::translate("folio::ui::MainWindow", "About Folio"),
        QCoreApplication::translate(
            "folio::ui::MainWindow",
            "<h3>Folio %1</h3><p>A local workbench for long documents and charts.</p>"
            "<p>Kernels: %2</p><p>License: GPL-3.0-or-later.</p>")
            .arg(QString::fromLatin1(version_string()),
                 KernelPathText::describe(detect_cpu_features())));
}

} // namespace folio::ui
