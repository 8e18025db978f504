#include "core/chat/figure_results.h"

namespace folio::ui {

CheckedFigure::State checkedState(figures::FigureState state) {
    switch (state) {
    case figures::FigureState::Verified:
        return CheckedFigure::State::Verified;
    case figures::FigureState::OtherPage:
        return CheckedFigure::State::OtherPage;
    case figures::FigureState::NotFound:
        return CheckedFigure::State::NotFound;
    case figures::FigureState::Uncited:
        break;
    }
    return CheckedFigure::State::Uncited;
}

qsizetype Utf16Index::at(size_t byte) {
    if (byte < byte_) {
        byte_ = 0;
        index_ = 0;
    }
    while (byte_ < byte && byte_ < utf8_.size()) {
        const auto lead = static_cast<unsigned char>(utf8_[byte_]);
        const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        byte_ += n;
        index_ += n == 4 ? 2 : 1; // a 4-byte sequence is a surrogate pair
    }
    return index_;
}

} // namespace folio::ui
