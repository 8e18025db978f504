#include "summarize/engine_turns.h"

#include <QGuiApplication>

#include <algorithm>

namespace folio::jobs {

using folio::ui::ChatTurn;

std::unique_ptr<QCoreApplication> ensureApplication() {
    if (QCoreApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // no window: page rendering needs no display
    static int argc = 1;
    static char name[] = "folio-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

Request toRequest(const QList<ChatTurn>& turns, bool withImages) {
    Request r;
    for (const ChatTurn& t : turns) {
        Message m{t.role.toStdString(), t.content.toStdString(), {}, {}};
        if (withImages)
            for (const QString& image : t.images)
                m.images.push_back(ImageInput{image.toStdString(), 0, 0, {}});
        r.messages.push_back(std::move(m));
    }
    return r;
}

folio::ui::TokenCounter exactCounter(const Engine& engine, bool withImages) {
    auto prompt = [&engine, withImages](const QList<ChatTurn>& turns) -> qint64 {
        Expected<int64_t> n = engine.count_tokens(toRequest(turns, withImages));
        return n ? *n : -1;
    };
    // Text inside a prompt: its tokens without what encoding adds to any text (a BOS token).
    auto text = [&engine](const QString& t) -> qint64 {
        Request r, one;
        r.prompt_text = t.toStdString();
        one.prompt_text.push_back(' ');
        Expected<int64_t> n = engine.count_tokens(r);
        Expected<int64_t> base = engine.count_tokens(one);
        return n && base ? std::max<int64_t>(0, *n - (*base - 1)) : -1;
    };
    return folio::ui::TokenCounter(QStringLiteral("engine"), text, prompt);
}

} // namespace folio::jobs
