#include "core/report/section_request.h"

#include "core/pipeline/prompt_builder.h"

#include <QCoreApplication>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

// Room left for the tokens a template adds around the counted turns (rounding of counts).
constexpr qint64 kSlack = 16;

bool chinese(const ReportTemplate& shape) {
    return shape.language == QLatin1String("zh_CN");
}

// The words of the request are the report's language, not the window's: a Chinese note is
// asked for in Chinese whatever language the UI speaks.
QString formDirection(const ReportSectionTemplate& s, bool zh) {
    switch (s.form) {
    case SectionForm::Prose:
        return zh ? QStringLiteral("用连贯的段落写作，不要标题，不要列表。")
                  : QStringLiteral("Write it as prose: one or more paragraphs, no headings, no "
                                   "lists.");
    case SectionForm::Bullets:
        return zh ? QStringLiteral("写成列表：每行一点，以“- ”开头。")
                  : QStringLiteral("Write it as a list: one point per line, each line starting "
                                   "with \"- \".");
    case SectionForm::Quotes:
        return zh ? QStringLiteral(
                        "逐字引用原文：每条引文单独一行，写成“- “……” [p. K]”，与原文完全一致。")
                  : QStringLiteral("Quote the document word for word: each quotation on its own "
                                   "line as - \"...\" [p. K], exactly as the document writes it.");
    case SectionForm::Table: {
        const QString header =
            QStringLiteral("| ") + s.columns.join(QStringLiteral(" | ")) + QStringLiteral(" |");
        QString text = zh ? QStringLiteral("写成一个 Markdown 表格，列必须是：%1").arg(header)
                          : QStringLiteral("Write it as one Markdown table with exactly these "
                                           "columns: %1")
                                .arg(header);
        if (!s.rows.isEmpty())
            text += zh ? QStringLiteral("\n按此顺序各占一行：%1。")
                             .arg(s.rows.join(QStringLiteral("；")))
                       : QStringLiteral("\nOne row for each of these, in this order: %1.")
                             .arg(s.rows.join(QStringLiteral("; ")));
        text += zh ? QStringLiteral("\n每个数字后在同一单元格内注明出处页码。")
                   : QStringLiteral("\nPut each figure's page citation in its cell, right after "
                                    "the figure.");
        return text;
    }
    case SectionForm::Sources:
        break;
    }
    return QString();
}

} // namespace

QString sectionInstruction(const ReportTemplate& shape, const ReportSectionTemplate& section,
                           int documents, bool withImages, bool withData) {
    const bool zh = chinese(shape);
    QStringList parts;
    parts << (zh ? QStringLiteral("撰写报告“%1”中的“%2”一节。").arg(shape.title, section.heading)
                 : QStringLiteral("Write the section \"%1\" of the report \"%2\".")
                       .arg(section.heading, shape.title));
    parts << section.instruction;
    QStringList rules;
    rules << formDirection(section, zh);
    if (section.length > 0)
        rules << (zh ? QStringLiteral("篇幅约 %1 字。").arg(section.length)
                     : QStringLiteral("About %1 words.").arg(section.length));
    const QString cite = documents > 1 ? QStringLiteral("[doc N, p. K]") : QStringLiteral("[p. K]");
    if (withImages)
        rules << (zh ? QStringLiteral(
                           "只使用上面的文件和所附图片。每个来自文件的数字都按 %1 注明页码。")
                           .arg(cite)
                     : QStringLiteral("Use only the documents above and the attached images. "
                                      "Cite the page of every figure from a document as %1.")
                           .arg(cite));
    else
        rules << (zh ? QStringLiteral("只使用上面的文件。每个数字都按 %1 注明页码。").arg(cite)
                     : QStringLiteral("Use only the documents above. Cite the page of every "
                                      "figure as %1.")
                           .arg(cite));
    if (withData)
        rules << (zh ? QStringLiteral(
                           "可以用 sql_query 工具查询所附数据；取自查询结果的数字无需注明页码。")
                     : QStringLiteral("You may query the attached data with the sql_query tool; "
                                      "figures taken from its results need no page citation."));
    rules << (zh ? QStringLiteral("只写本节正文，不要写本节标题。")
                 : QStringLiteral("Write only the section's text, without its heading."));
    parts << rules.join(QLatin1Char('\n'));
    return parts.join(QStringLiteral("\n\n"));
}

SectionRequest planSectionRequest(const ReportTemplate& shape, int index,
                                  const ReportInputs& inputs, const TokenCounter& counter,
                                  PageTokenCache& cache, QString* error) {
    const ReportSectionTemplate& section = shape.sections[index];
    SectionRequest r;
    r.index = index;
    r.heading = section.heading;
    r.maxTokens = int(qMin<qint64>(inputs.answerTokens, inputs.contextTokens / 2));
    r.imagesIn = section.sources.images && inputs.vision && !inputs.images.isEmpty();
    r.wantsData = section.sources.data && !inputs.dataSources.isEmpty();
    const int documents = section.sources.documents ? int(inputs.documents.size()) : 0;
    ChatTurn user{QStringLiteral("user"),
                  sectionInstruction(shape, section, qMax(1, documents), r.imagesIn, r.wantsData),
                  r.imagesIn ? inputs.images : QStringList()};

    // The frame: the system prompt without documents and the user turn, counted exactly.
    const ChatTurn bare{QStringLiteral("system"), buildSystemPrompt(defaultSystemPrompt(), {}), {}};
    const qint64 frame = counter.prompt({bare, user});
    const qint64 budget = inputs.contextTokens - r.maxTokens - frame - kSlack;
    if (budget <= 0 || r.maxTokens <= 0) {
        if (error)
            *error = tr("the section “%1” does not fit a context of %2 tokens: its instruction "
                        "takes %3; load the model with a larger context")
                         .arg(section.heading)
                         .arg(inputs.contextTokens)
                         .arg(frame);
        return r;
    }
    if (documents > 0) {
        const QString query = section.heading + QLatin1Char('\n') + section.instruction;
        r.selection = selectPages(inputs.documents, query, {}, budget, counter, cache);
    }
    ChatTurn system{QStringLiteral("system"),
                    buildSystemPrompt(defaultSystemPrompt(), r.selection.sources),
                    {}};
    system.images = documentImages(r.selection.sources);
    r.turns = {system, user};
    r.promptTokens = counter.prompt(r.turns);
    if (error)
        error->clear();
    return r;
}

} // namespace folio::ui
