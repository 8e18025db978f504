#include "export_job.h"

#include "core/chat/chat_json.h"
#include "core/export/export_chat.h"

#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonParseError>

#include <memory>

namespace folio::exporting {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// Laying out a PDF needs fonts, so a GUI application object; the CLI has none and no display.
std::unique_ptr<QGuiApplication> ensureApplication() {
    if (QCoreApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "folio-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

} // namespace

int run(const Options& o, std::string& error) {
    const auto app = ensureApplication();
    QFile file(q(o.chat));
    if (!file.open(QIODevice::ReadOnly)) {
        error = o.chat + ": cannot be read (" + file.errorString().toStdString() + ")";
        return 1;
    }
    QJsonParseError parse;
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError || !json.isObject()) {
        error = o.chat + ": not a chat file (JSON: " + parse.errorString().toStdString() +
                " at byte " + std::to_string(parse.offset) + ")";
        return 1;
    }
    folio::ui::ChatSession chat;
    QString why;
    if (!folio::ui::chatFromJson(json.object(), chat, &why)) {
        error = o.chat + ": " + why.toStdString();
        return 1;
    }
    // The chat's own documents, as the window lists the loaded ones.
    folio::ui::ExportContext context;
    context.title = chat.displayTitle();
    for (const folio::ui::ChatDocument& d : chat.documents) {
        context.documents << d.title;
        if (context.documentPath.isEmpty() && !d.isImage)
            context.documentPath = d.path;
    }
    context.model = q(o.model);
    const QString message = folio::ui::exportChat(q(o.out), chat, context);
    if (!message.isEmpty()) {
        error = message.toStdString();
        return 1;
    }
    return 0;
}

} // namespace folio::exporting
