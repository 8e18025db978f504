#pragma once
// Long synthetic reports for tests of documents far larger than a model's context (issue #22):
// a cover, a table of contents on page 2, chapters of varied text made deterministically from a
// seed (every page distinct), tables, and scanned pages that are only an image (no text layer).
//
// What a test may look for, computable by hand from the rules below:
// - every text page K >= 3 holds the sentence "Field note K: the <rareTerm(K)> procedure was
//   logged under lot <lotNumber(K)>." — rareTerm(K) is "Xa" followed by one syllable per decimal
//   digit of K (0 ba, 1 ko, 2 ri, 3 ze, 4 mu, 5 ta, 6 ne, 7 lo, 8 vi, 9 su), e.g. 137 ->
//   "Xakozelo"; lotNumber(K) = K * 7919 mod 100000, e.g. 137 -> 84903;
// - page K >= 3 is scanned when scanEvery > 0 and K is a multiple of scanEvery;
// - text page K >= 3 has a table ("Table K: ...") when K mod 7 == 3;
// - page 2 starts with "Contents"; chapter c starts on page chapterStart(c).

#include <QString>

namespace folio::sample {

struct LongReportOptions {
    int pages = 300;
    quint64 seed = 2026;
    int wordsPerPage = 380; // body words of a text page without a table (a table takes ~40%)
    int scanEvery = 25;     // 0: no scanned pages
};

QString rareTerm(int page);
int lotNumber(int page);
bool isScannedPage(int page, const LongReportOptions& options);
bool hasTable(int page);
// Pages per chapter: 12, more for very long reports so the contents fit on page 2.
int chapterPages(const LongReportOptions& options);
int chapterStart(int chapter, const LongReportOptions& options); // chapters count from 1

// Writes the PDF; false with a message naming the file when it cannot.
bool writeLongReport(const QString& path, const LongReportOptions& options, QString* error);

} // namespace folio::sample
