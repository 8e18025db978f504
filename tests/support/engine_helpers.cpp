#include "support/engine_helpers.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace folio::test {

Request makeRequest(std::vector<int32_t> prompt, int max_tokens, Collected& out) {
    Request r;
    r.prompt_tokens = std::move(prompt);
    r.max_tokens = max_tokens;
    r.sampling.temperature = 0;
    r.ignore_eos = true;
    r.callbacks.on_token = [&out](std::string_view text, int32_t id) {
        std::lock_guard lk(out.m);
        if (id >= 0)
            out.ids.push_back(id);
        out.text += text;
    };
    r.callbacks.on_done = [&out](const RequestStats& s) {
        std::lock_guard lk(out.m);
        out.stats = s;
    };
    r.callbacks.on_error = [&out](const Error& e) {
        std::lock_guard lk(out.m);
        out.errors.push_back(e.to_string());
    };
    r.callbacks.on_prefill_progress = [&out](int64_t done, int64_t, double) {
        std::lock_guard lk(out.m);
        out.progress.push_back(done);
    };
    return r;
}

std::vector<int32_t> sequenceTokens(const QString& dir, const QString& model, int index) {
    QFile f(dir + QStringLiteral("/goldens/") + model + QStringLiteral(".json"));
    std::vector<int32_t> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    const QJsonObject seq = doc.object()[QStringLiteral("sequences")].toArray()[index].toObject();
    const QJsonArray tokens = seq[QStringLiteral("tokens")].toArray();
    for (const auto& v : tokens)
        out.push_back(v.toInt());
    return out;
}

} // namespace folio::test
