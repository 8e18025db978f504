#include "jobs/table_request.h"

namespace folio::ui {

QString tableExtractionInstruction() {
    // Every rule here is checked by parseMarkdownTable or makes the cells usable as numbers;
    // the example fixes the shape (models copy a shown format more reliably than a described one).
    return QStringLiteral(
        "Extract the data shown in this image as one table.\n"
        "Answer with the table only, in this exact Markdown form:\n"
        "- the first line is the header row: | column | column |, with the unit of each "
        "column in its header in parentheses, e.g. Revenue (EUR m);\n"
        "- the second line is the separator row: | --- | --- |, one --- per column;\n"
        "- then one row per data point (one bar, point or category), every row with exactly "
        "as many cells as the header;\n"
        "- numbers in cells are plain numbers without units, currency signs, percent signs or "
        "thousands separators, with a dot as the decimal point (1234.5, not 1,234.5 EUR);\n"
        "- a value you cannot read is left empty, never guessed;\n"
        "- no text before or after the table, no code fence.\n"
        "Example:\n"
        "| Year | Revenue (EUR m) |\n"
        "| --- | --- |\n"
        "| 2023 | 118.4 |\n"
        "| 2024 | 127.1 |");
}

QList<ChatTurn> tableExtractionTurns(const QString& imagePath) {
    return {{QStringLiteral("system"),
             QStringLiteral("You read charts and tables from images and transcribe their "
                            "numbers exactly."),
             {}},
            {QStringLiteral("user"), tableExtractionInstruction(), {imagePath}}};
}

GenerationSettings tableExtractionSettings() {
    GenerationSettings s;
    s.temperature = 0;
    s.topK = 0;
    s.topP = 1;
    s.minP = 0;
    s.maxTokens = 1024;
    s.promptLookup = false;
    return s;
}

} // namespace folio::ui
