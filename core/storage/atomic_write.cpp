#include "core/storage/atomic_write.h"

#include <QFileInfo>
#include <QSaveFile>

namespace folio::ui {

QString writeFileAtomic(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    auto error = [&] {
        return QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), file.errorString());
    };
    if (!file.open(QIODevice::WriteOnly))
        return error();
    if (file.write(bytes) != bytes.size()) {
        const QString e = error();
        file.cancelWriting();
        return e;
    }
    if (!file.commit())
        return error();
    return {};
}

QString writeTextFileAtomic(const QString& path, const QString& text) {
    return writeFileAtomic(path, text.toUtf8());
}

} // namespace folio::ui
