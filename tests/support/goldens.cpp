#include "support/goldens.h"

#include "runtime/sampler.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtGlobal>

#include <algorithm>
#include <cmath>

namespace folio::test {

namespace {

std::vector<int32_t> ids(const QJsonArray& a) {
    std::vector<int32_t> out;
    for (const auto& v : a)
        out.push_back(v.toInt());
    return out;
}

} // namespace

Golden loadGolden(const QString& dir, const QString& model) {
    Golden g;
    QFile f(dir + QStringLiteral("/goldens/") + model + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly)) {
        qWarning("cannot open %s", qPrintable(f.fileName()));
        return g;
    }
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    g.modelPath = dir + QStringLiteral("/models/") + model + QStringLiteral(".gguf");
    for (const auto& sv : root.value(QStringLiteral("sequences")).toArray()) {
        const QJsonObject s = sv.toObject();
        GoldenSequence seq;
        seq.name = s.value(QStringLiteral("name")).toString();
        seq.tokens = ids(s.value(QStringLiteral("tokens")).toArray());
        QFile raw(dir + QStringLiteral("/goldens/") + s.value(QStringLiteral("file")).toString());
        if (!raw.open(QIODevice::ReadOnly)) {
            qWarning("cannot open %s", qPrintable(raw.fileName()));
            return g;
        }
        const QByteArray bytes = raw.readAll();
        seq.logits.resize(static_cast<size_t>(bytes.size()) / sizeof(float));
        std::memcpy(seq.logits.data(), bytes.constData(), seq.logits.size() * sizeof(float));
        g.sequences.append(seq);
    }
    for (const auto& gv : root.value(QStringLiteral("greedy")).toArray()) {
        const QJsonObject o = gv.toObject();
        g.greedy.append({ids(o.value(QStringLiteral("prompt_tokens")).toArray()),
                         ids(o.value(QStringLiteral("generated")).toArray())});
    }
    g.n_vocab = root.value(QStringLiteral("n_vocab")).toInt();
    return g;
}

LogitComparison compareLogits(const std::vector<float>& ours, const std::vector<float>& ref,
                              int V) {
    LogitComparison c;
    if (ours.size() != ref.size() || V <= 0)
        return {1e30, 1e30, 0, 0};
    c.rows = static_cast<int>(ref.size() / static_cast<size_t>(V));
    double sum = 0;
    for (int r = 0; r < c.rows; ++r) {
        const float* a = ours.data() + static_cast<size_t>(r) * V;
        const float* b = ref.data() + static_cast<size_t>(r) * V;
        double row_max = 0;
        for (int i = 0; i < V; ++i)
            row_max = std::max(row_max, std::abs(double(a[i]) - double(b[i])));
        c.maxAbsDiff = std::max(c.maxAbsDiff, row_max);
        sum += row_max;
        if (std::max_element(a, a + V) - a == std::max_element(b, b + V) - b)
            ++c.argmaxAgree;
    }
    c.meanRowMax = sum / c.rows;
    return c;
}

std::unique_ptr<DecoderModel> loadDecoder(const QString& path) {
    auto m = load_decoder(path.toStdString());
    if (!m) {
        qWarning("%s", m.error().to_string().c_str());
        return nullptr;
    }
    return std::move(m).value();
}

std::vector<float> evaluateAll(const DecoderModel& m, const std::vector<int32_t>& tokens, bool seq,
                               MlaForm form, int threads, std::shared_ptr<BlockPool> pool,
                               KvType index_type) {
    DecoderState state = make_decoder_state(m.config, static_cast<int64_t>(tokens.size()),
                                            std::move(pool), index_type);
    DecoderScratch s;
    EvalOptions opt;
    opt.kernels.n_threads = threads;
    opt.mla = form;
    const int64_t V = m.config.n_vocab, n = static_cast<int64_t>(tokens.size());
    std::vector<float> all;
    if (!seq) {
        opt.all_logits = true;
        if (!decoder_eval(m, state, s, tokens.data(), n, opt, all))
            return {};
        return all;
    }
    all.resize(static_cast<size_t>(n * V));
    std::vector<float> step;
    for (int64_t i = 0; i < n; ++i) {
        if (!decoder_eval(m, state, s, tokens.data() + i, 1, opt, step))
            return {};
        std::copy(step.begin(), step.end(), all.begin() + i * V);
    }
    return all;
}

std::vector<int32_t> greedyContinuation(const DecoderModel& m, const std::vector<int32_t>& prompt,
                                        size_t n_generate) {
    DecoderState state =
        make_decoder_state(m.config, static_cast<int64_t>(prompt.size() + n_generate));
    DecoderScratch s;
    EvalOptions opt;
    opt.kernels.n_threads = 2;
    std::vector<float> logits;
    if (!decoder_eval(m, state, s, prompt.data(), static_cast<int64_t>(prompt.size()), opt, logits))
        return {};
    std::vector<int32_t> out;
    for (size_t i = 0; i < n_generate; ++i) {
        const int32_t next = argmax(logits);
        out.push_back(next);
        if (i + 1 < n_generate && !decoder_eval(m, state, s, &next, 1, opt, logits))
            return {};
    }
    return out;
}

} // namespace folio::test
