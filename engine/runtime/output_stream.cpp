#include "runtime/output_stream.h"

#include <algorithm>

namespace folio {

namespace {

// Length of the longest suffix of `text` that is a proper prefix of some stop string.
size_t held_back(const std::string& text, const std::vector<std::string>& stops) {
    size_t hold = 0;
    for (const std::string& s : stops)
        for (size_t n = std::min(s.size() - 1, text.size()); n > hold; --n)
            if (text.compare(text.size() - n, n, s, 0, n) == 0) {
                hold = n;
                break;
            }
    return hold;
}

} // namespace

OutputStream::OutputStream(const tokenizer::Tokenizer& tok, std::vector<std::string> stop_strings,
                           bool render_special)
    : decoder_(tok, render_special) {
    for (auto& s : stop_strings)
        if (!s.empty())
            stops_.push_back(std::move(s));
}

Expected<OutputStream::Step> OutputStream::push(int32_t id) {
    FOLIO_TRY(piece, decoder_.push(id));
    pending_ += piece;
    Step step;
    size_t cut = std::string::npos;
    for (const auto& s : stops_) {
        const size_t at = pending_.find(s);
        if (at != std::string::npos)
            cut = std::min(cut, at);
    }
    if (cut != std::string::npos) {
        step.text = pending_.substr(0, cut);
        step.stopped = true;
        pending_.clear();
    } else {
        const size_t safe = pending_.size() - held_back(pending_, stops_);
        step.text = pending_.substr(0, safe);
        pending_.erase(0, safe);
    }
    final_ += step.text;
    return step;
}

std::string OutputStream::finish() {
    std::string rest = pending_ + decoder_.finish();
    pending_.clear();
    final_ += rest;
    return rest;
}

} // namespace folio
