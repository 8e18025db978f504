// libFuzzer target: any bytes as a chat file (core/chat/chat_json.h, what ChatStore reads at
// start-up). Must be refused with a message or read; what is read must write back to JSON that
// reads again to the same chat (a saved chat never turns into one that cannot be opened).
#include "core/chat/chat_json.h"

#include <QByteArray>
#include <QJsonDocument>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (!doc.isObject())
        return 0;
    folio::ui::ChatSession chat;
    QString error;
    if (!folio::ui::chatFromJson(doc.object(), chat, &error)) {
        if (error.isEmpty())
            std::abort(); // refused without saying why
        return 0;
    }
    const QJsonObject written = folio::ui::chatToJson(chat);
    const QJsonDocument reparsed = QJsonDocument::fromJson(QJsonDocument(written).toJson());
    folio::ui::ChatSession again;
    if (!folio::ui::chatFromJson(reparsed.object(), again, &error))
        std::abort(); // we wrote a chat we cannot read
    if (folio::ui::chatToJson(again) != written)
        std::abort(); // reading and writing is not stable
    return 0;
}
