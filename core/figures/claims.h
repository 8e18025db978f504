#pragma once
// The figures of an answer: its sentences, their citations and the numbers that are claims.
//
// Sentences end at . ! ? 。！？ (not inside "3.2", "e.g.", "p. 14") and at every line break (a
// list item, a table row and a paragraph are each their own sentence). A citation written
// right after a sentence's full stop ("… 12.4 %. [p. 14]") belongs to that sentence.
//
// Which numbers are claims (numbers.h, NumberRole): everything but a year standing alone
// ("in 2024"), a month or day of a year ("December 2024", "1 March", "12月"), a list marker
// opening a line ("1. ", "(2) "), a reference ("note 5", "table 2", "第3页", "#4") and part of
// a name ("Q3", "FY2024", "COVID-19", "5G", "1st", "10:30"). Numbers inside citations, code and
// link targets are not read. A four-digit whole number from 1900 to 2100 with no currency,
// scale, sign, % or separator is a year; "2,024", "$2024" and "2024 million" are amounts.
//
// Each figure is checked against the sentence's citation that follows it (else the one before
// it); the sentence's other citations are second choices.

#include "core/figures/citations.h"
#include "core/figures/numbers.h"

#include <string>
#include <string_view>
#include <vector>

namespace folio::figures {

struct AnswerFigure {
    NumberToken number;            // positions in the answer's code points
    std::string text;              // as written: "RMB 3.2 billion", "(3.4)", "12.4 %"
    size_t offset = 0;             // bytes into the answer (UTF-8)
    size_t length = 0;             // bytes
    std::vector<size_t> citations; // indices into AnswerFigures::citations, best first
};

struct AnswerFigures {
    std::vector<Citation> citations;
    std::vector<AnswerFigure> figures;
};

AnswerFigures extract_figures(std::string_view answer,
                              const std::vector<CitationTarget>& documents);

// Every claim of a text with no regard to citations (a table check, tests).
std::vector<AnswerFigure> claims_in(std::string_view text);

} // namespace folio::figures
