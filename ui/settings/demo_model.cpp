#include "settings/demo_model.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QStandardPaths>

namespace folio::ui {

QString findDemoModel() {
    const QString name = QStringLiteral("demo-deepseek2.gguf");
    const QDir app(QCoreApplication::applicationDirPath());
    const QStringList candidates = {
        app.filePath(QStringLiteral("../generated/models/") + name),
        app.filePath(QStringLiteral("../share/folio/models/") + name),
        QStandardPaths::locate(QStandardPaths::GenericDataLocation,
                               QStringLiteral("folio/models/") + name),
    };
    for (const QString& c : candidates)
        if (!c.isEmpty() && QFileInfo(c).isFile())
            return QFileInfo(c).canonicalFilePath();
    return {};
}

QString firstRunNotice(bool haveDemo) {
    QString text = QObject::tr("<b>No model loaded.</b> Folio answers with a GGUF model on this "
                               "machine. ");
    if (haveDemo)
        text += QObject::tr("<a href='folio:demo'>Try the demo model</a> (tiny, random weights: "
                            "it shows every part of the workbench but writes nonsense). ");
    text += QObject::tr("For real answers download a GGUF file, e.g. Kimi-VL-A3B-Instruct with "
                        "its mmproj file (converted by llama.cpp, from Hugging Face), and open "
                        "it with File → Open model… or Settings.");
    return text;
}

} // namespace folio::ui
