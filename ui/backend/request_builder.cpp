#include "backend/request_builder.h"

namespace folio::ui {

Request buildRequest(const QList<ChatTurn>& turns, const GenerationSettings& s, bool withImages,
                     bool speculation) {
    Request r;
    for (const ChatTurn& t : turns) {
        Message m{t.role.toStdString(), t.content.toStdString(), {}, {}};
        if (withImages)
            for (const QString& image : t.images)
                m.images.push_back(ImageInput{image.toStdString(), 0, 0, {}});
        r.messages.push_back(std::move(m));
    }
    r.sampling.temperature = static_cast<float>(s.temperature);
    r.sampling.top_k = s.topK;
    r.sampling.top_p = static_cast<float>(s.topP);
    r.sampling.min_p = static_cast<float>(s.minP);
    r.sampling.repetition_penalty = static_cast<float>(s.repetitionPenalty);
    r.sampling.seed = s.seed;
    r.max_tokens = s.maxTokens;
    r.ignore_eos = s.ignoreEos;
    r.speculation =
        s.promptLookup && speculation ? SpeculationMode::PromptLookup : SpeculationMode::Off;
    return r;
}

} // namespace folio::ui
