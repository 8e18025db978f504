#pragma once
// The figure checker's results (core/figures, UTF-8 and its own states) in the workbench's terms
// (QString indices, CheckedFigure::State): shared by the answers' and the tables' checks.

#include "core/chat/message_figures.h"
#include "core/figures/check_figures.h"

#include <QtGlobal>

#include <string>

namespace folio::ui {

CheckedFigure::State checkedState(figures::FigureState state);

// The QString index of each UTF-8 byte offset, walking the text once (offsets ascend; a
// smaller offset than the last starts the walk again).
class Utf16Index {
public:
    explicit Utf16Index(const std::string& utf8) : utf8_(utf8) {}
    qsizetype at(size_t byte);

private:
    const std::string& utf8_;
    size_t byte_ = 0;
    qsizetype index_ = 0;
};

} // namespace folio::ui
