#include "export/transcript_export.h"

#include <QFileInfo>
#include <QSaveFile>

namespace folio::ui {

QString transcriptToMarkdown(const QString& title, const QList<ChatMessage>& messages) {
    QString md = QStringLiteral("# %1\n\n").arg(title);
    for (const ChatMessage& m : messages) {
        md += QStringLiteral("## %1 (%2)\n\n%3\n\n")
                  .arg(roleName(m.role), m.time.toString(Qt::ISODate), m.text);
    }
    return md;
}

QString writeTextFileAtomic(const QString& path, const QString& text) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
    const QByteArray bytes = text.toUtf8();
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
    }
    if (!file.commit())
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
    return {};
}

} // namespace folio::ui
