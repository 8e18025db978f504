#include "core/chat/chat_json.h"

#include "core/chat/message_versions.h"
#include "core/documents/ocr_languages.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace folio::ui {

namespace {

QJsonObject statsToJson(const MessageStats& st) {
    QJsonObject o{{QStringLiteral("prompt_tokens"), st.promptTokens},
                  {QStringLiteral("reused_tokens"), st.reusedTokens},
                  {QStringLiteral("generated_tokens"), st.generatedTokens},
                  {QStringLiteral("ttft_ms"), st.ttftMs},
                  {QStringLiteral("prefill_tps"), st.prefillTps},
                  {QStringLiteral("decode_tps"), st.decodeTps},
                  {QStringLiteral("stop_reason"), st.stopReason}};
    if (st.imageMs > 0)
        o.insert(QStringLiteral("image_ms"), st.imageMs);
    return o;
}

MessageStats statsFromJson(const QJsonObject& o) {
    MessageStats st;
    st.promptTokens = o.value(QStringLiteral("prompt_tokens")).toInteger();
    st.reusedTokens = o.value(QStringLiteral("reused_tokens")).toInteger();
    st.generatedTokens = o.value(QStringLiteral("generated_tokens")).toInteger();
    st.ttftMs = o.value(QStringLiteral("ttft_ms")).toDouble();
    st.imageMs = o.value(QStringLiteral("image_ms")).toDouble();
    st.prefillTps = o.value(QStringLiteral("prefill_tps")).toDouble();
    st.decodeTps = o.value(QStringLiteral("decode_tps")).toDouble();
    st.stopReason = o.value(QStringLiteral("stop_reason")).toString();
    return st;
}

QJsonArray toolCallsToJson(const QList<ToolCallRecord>& calls) {
    QJsonArray out;
    for (const ToolCallRecord& c : calls)
        out.append(QJsonObject{{QStringLiteral("id"), c.id},
                               {QStringLiteral("name"), c.name},
                               {QStringLiteral("arguments"), c.arguments},
                               {QStringLiteral("result"), c.result},
                               {QStringLiteral("ok"), c.ok},
                               {QStringLiteral("done"), c.done}});
    return out;
}

QList<ToolCallRecord> toolCallsFromJson(const QJsonArray& a) {
    QList<ToolCallRecord> out;
    for (const QJsonValue& v : a) {
        const QJsonObject o = v.toObject();
        ToolCallRecord c;
        c.id = o.value(QStringLiteral("id")).toString();
        c.name = o.value(QStringLiteral("name")).toString();
        c.arguments = o.value(QStringLiteral("arguments")).toString();
        c.result = o.value(QStringLiteral("result")).toString();
        c.ok = o.value(QStringLiteral("ok")).toBool();
        c.done = o.value(QStringLiteral("done")).toBool();
        out.append(c);
    }
    return out;
}

QJsonObject messageToJson(const ChatMessage& m) {
    QJsonObject o{{QStringLiteral("role"), roleKey(m.role)},
                  {QStringLiteral("text"), m.text},
                  {QStringLiteral("time"), m.time.toString(Qt::ISODateWithMs)}};
    if (m.id > 0) {
        o.insert(QStringLiteral("id"), m.id);
        o.insert(QStringLiteral("parent"), m.parentId);
    }
    if (!m.attachments.isEmpty())
        o.insert(QStringLiteral("attachments"), QJsonArray::fromStringList(m.attachments));
    if (!m.images.isEmpty()) {
        QJsonArray images;
        for (const QuestionImage& image : m.images)
            images.append(questionImageToJson(image));
        o.insert(QStringLiteral("images"), images);
    }
    if (!m.stats.stopReason.isEmpty())
        o.insert(QStringLiteral("stats"), statsToJson(m.stats));
    if (!m.toolCalls.isEmpty())
        o.insert(QStringLiteral("tool_calls"), toolCallsToJson(m.toolCalls));
    if (!m.interrupted.isEmpty())
        o.insert(QStringLiteral("interrupted"), m.interrupted);
    if (!m.contextNote.isEmpty())
        o.insert(QStringLiteral("context"), m.contextNote);
    if (m.leftOutTurns > 0)
        o.insert(QStringLiteral("left_out_turns"), m.leftOutTurns);
    if (!m.citedDocuments.isEmpty()) {
        QJsonArray cited;
        for (const CitedDocument& d : m.citedDocuments)
            cited.append(QJsonObject{{QStringLiteral("fingerprint"), d.fingerprint},
                                     {QStringLiteral("title"), d.title},
                                     {QStringLiteral("pages"), d.pageCount}});
        o.insert(QStringLiteral("cited_documents"), cited);
    }
    if (!m.figures.isEmpty())
        o.insert(QStringLiteral("figures"), figuresToJson(m.figures));
    return o;
}

// Chats saved before "left_out_turns" had the count only in the note, always in English then
// ("2 earlier turns left out").
int legacyLeftOutTurns(const QString& note) {
    static const QRegularExpression re(
        QStringLiteral(R"((\d+)\s+(?:earlier\s+|oldest\s+)?(?:turns?|messages?)\s+left\s+out)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(note);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

bool messageFromJson(const QJsonObject& o, ChatMessage& m) {
    if (!roleFromKey(o.value(QStringLiteral("role")).toString(), m.role))
        return false;
    m.text = o.value(QStringLiteral("text")).toString();
    m.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    m.id = o.value(QStringLiteral("id")).toInteger();
    m.parentId = o.value(QStringLiteral("parent")).toInteger();
    for (const QJsonValue& a : o.value(QStringLiteral("attachments")).toArray())
        m.attachments << a.toString();
    for (const QJsonValue& a : o.value(QStringLiteral("images")).toArray()) {
        QuestionImage image; // an entry this Folio cannot read is skipped, the message kept
        if (questionImageFromJson(a.toObject(), image))
            m.images.append(image);
    }
    m.stats = statsFromJson(o.value(QStringLiteral("stats")).toObject());
    m.toolCalls = toolCallsFromJson(o.value(QStringLiteral("tool_calls")).toArray());
    m.interrupted = o.value(QStringLiteral("interrupted")).toString();
    m.contextNote = o.value(QStringLiteral("context")).toString();
    m.leftOutTurns = o.contains(QStringLiteral("left_out_turns"))
                         ? o.value(QStringLiteral("left_out_turns")).toInt()
                         : legacyLeftOutTurns(m.contextNote);
    for (const QJsonValue& v : o.value(QStringLiteral("cited_documents")).toArray()) {
        const QJsonObject d = v.toObject();
        m.citedDocuments.append({d.value(QStringLiteral("fingerprint")).toString(),
                                 d.value(QStringLiteral("title")).toString(),
                                 d.value(QStringLiteral("pages")).toInt()});
    }
    m.figures = figuresFromJson(o.value(QStringLiteral("figures")).toArray());
    return true;
}

} // namespace

// As `folio-cli check-figures -o` writes them ("doc" 1-based, null for none), plus where the
// figure stands in the text.
QJsonArray figuresToJson(const QList<CheckedFigure>& figures) {
    QJsonArray out;
    for (const CheckedFigure& f : figures) {
        auto orNull = [](int n) { return n > 0 ? QJsonValue(n) : QJsonValue(QJsonValue::Null); };
        QJsonObject o{{QStringLiteral("figure"), f.figure},
                      {QStringLiteral("offset"), f.offset},
                      {QStringLiteral("length"), f.length},
                      {QStringLiteral("state"), figureStateKey(f.state)},
                      {QStringLiteral("doc"), orNull(f.document + 1)},
                      {QStringLiteral("page"), orNull(f.page)},
                      {QStringLiteral("found_page"), orNull(f.foundPage)},
                      {QStringLiteral("line"), f.line}};
        if (f.table != -1)
            o.insert(QStringLiteral("table"), f.table);
        if (!f.match.isEmpty())
            o.insert(QStringLiteral("match"), f.match);
        out.append(o);
    }
    return out;
}

QList<CheckedFigure> figuresFromJson(const QJsonArray& a) {
    QList<CheckedFigure> out;
    for (const QJsonValue& v : a) {
        const QJsonObject o = v.toObject();
        CheckedFigure f; // a figure of a state this Folio does not know is skipped
        if (!figureStateFromKey(o.value(QStringLiteral("state")).toString(), f.state))
            continue;
        f.figure = o.value(QStringLiteral("figure")).toString();
        f.offset = o.value(QStringLiteral("offset")).toInteger();
        f.length = o.value(QStringLiteral("length")).toInteger();
        f.document = o.value(QStringLiteral("doc")).toInt() - 1;
        f.page = o.value(QStringLiteral("page")).toInt();
        f.foundPage = o.value(QStringLiteral("found_page")).toInt();
        f.line = o.value(QStringLiteral("line")).toString();
        f.table = o.value(QStringLiteral("table")).toInt(-1);
        f.match = o.value(QStringLiteral("match")).toString();
        out.append(f);
    }
    return out;
}

QJsonObject documentToJson(const ChatDocument& d) {
    QJsonObject o{
        {QStringLiteral("path"), d.path},        {QStringLiteral("fingerprint"), d.fingerprint},
        {QStringLiteral("title"), d.title},      {QStringLiteral("pages"), d.pageCount},
        {QStringLiteral("is_image"), d.isImage}, {QStringLiteral("pinned_pages"), d.pinnedPages}};
    if (!d.readScannedPages)
        o.insert(QStringLiteral("read_scanned_pages"), false);
    if (d.ocrLanguages != QLatin1String("auto") && ocrLanguageChoices().contains(d.ocrLanguages))
        o.insert(QStringLiteral("ocr_languages"), d.ocrLanguages);
    return o;
}

ChatDocument documentFromJson(const QJsonObject& o) {
    ChatDocument d;
    d.readScannedPages = o.value(QStringLiteral("read_scanned_pages")).toBool(true);
    d.path = o.value(QStringLiteral("path")).toString();
    d.fingerprint = o.value(QStringLiteral("fingerprint")).toString();
    d.title = o.value(QStringLiteral("title")).toString();
    d.pageCount = o.value(QStringLiteral("pages")).toInt();
    d.isImage = o.value(QStringLiteral("is_image")).toBool();
    d.pinnedPages = o.value(QStringLiteral("pinned_pages")).toString();
    // A file from before the choice was kept, or with a value this version does not offer:
    // automatic.
    d.ocrLanguages = validOcrLanguages(o.value(QStringLiteral("ocr_languages")).toString());
    return d;
}

QJsonObject settingsToJson(const GenerationSettings& s) {
    return {{QStringLiteral("temperature"), s.temperature},
            {QStringLiteral("top_k"), s.topK},
            {QStringLiteral("top_p"), s.topP},
            {QStringLiteral("min_p"), s.minP},
            {QStringLiteral("repetition_penalty"), s.repetitionPenalty},
            {QStringLiteral("max_tokens"), s.maxTokens},
            {QStringLiteral("seed"), QString::number(s.seed)},
            {QStringLiteral("prompt_lookup"), s.promptLookup}};
}

GenerationSettings settingsFromJson(const QJsonObject& o) {
    GenerationSettings s;
    s.temperature = o.value(QStringLiteral("temperature")).toDouble(s.temperature);
    s.topK = o.value(QStringLiteral("top_k")).toInt(s.topK);
    s.topP = o.value(QStringLiteral("top_p")).toDouble(s.topP);
    s.minP = o.value(QStringLiteral("min_p")).toDouble(s.minP);
    s.repetitionPenalty =
        o.value(QStringLiteral("repetition_penalty")).toDouble(s.repetitionPenalty);
    s.maxTokens = o.value(QStringLiteral("max_tokens")).toInt(s.maxTokens);
    s.seed = o.value(QStringLiteral("seed")).toString().toULongLong();
    s.promptLookup = o.value(QStringLiteral("prompt_lookup")).toBool(s.promptLookup);
    return s;
}

QJsonObject chatToJson(const ChatSession& chat) {
    QJsonArray messages;
    for (const ChatMessage& m : chat.messages)
        messages.append(messageToJson(m));
    QJsonObject out{{QStringLiteral("format"), QStringLiteral("folio-chat")},
                    {QStringLiteral("version"), kChatFormatVersion},
                    {QStringLiteral("id"), chat.id},
                    {QStringLiteral("title"), chat.title},
                    {QStringLiteral("system_prompt"), chat.systemPrompt},
                    {QStringLiteral("settings"), settingsToJson(chat.settings)},
                    {QStringLiteral("created"), chat.created.toString(Qt::ISODateWithMs)},
                    {QStringLiteral("updated"), chat.updated.toString(Qt::ISODateWithMs)},
                    {QStringLiteral("messages"), messages}};
    if (!chat.dataSources.isEmpty() || !chat.toolsEnabled) {
        out.insert(QStringLiteral("data_sources"), QJsonArray::fromStringList(chat.dataSources));
        out.insert(QStringLiteral("tools"), chat.toolsEnabled);
    }
    if (!chat.otherVersions.isEmpty()) {
        QJsonArray versions;
        for (const ChatMessage& m : chat.otherVersions)
            versions.append(messageToJson(m));
        out.insert(QStringLiteral("versions"), versions);
    }
    QJsonArray documents;
    for (const ChatDocument& d : chat.documents)
        documents.append(documentToJson(d));
    out.insert(QStringLiteral("documents"), documents);
    return out;
}

bool chatFromJson(const QJsonObject& json, ChatSession& chat, QString* error) {
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (json.value(QStringLiteral("format")).toString() != QLatin1String("folio-chat"))
        return fail(QStringLiteral("not a Folio chat"));
    const int version = json.value(QStringLiteral("version")).toInt(-1);
    if (version < 1 || version > kChatFormatVersion)
        return fail(QStringLiteral("chat format version %1 is not supported (this Folio reads "
                                   "up to %2)")
                        .arg(version)
                        .arg(kChatFormatVersion));
    ChatSession c;
    c.id = json.value(QStringLiteral("id")).toString();
    if (c.id.isEmpty())
        return fail(QStringLiteral("chat without an id"));
    c.title = json.value(QStringLiteral("title")).toString();
    c.systemPrompt = json.value(QStringLiteral("system_prompt")).toString();
    c.settings = settingsFromJson(json.value(QStringLiteral("settings")).toObject());
    c.created =
        QDateTime::fromString(json.value(QStringLiteral("created")).toString(), Qt::ISODateWithMs);
    c.updated =
        QDateTime::fromString(json.value(QStringLiteral("updated")).toString(), Qt::ISODateWithMs);
    for (const QJsonValue& v : json.value(QStringLiteral("data_sources")).toArray())
        c.dataSources << v.toString();
    c.toolsEnabled = json.value(QStringLiteral("tools")).toBool(true);
    // Version 1 kept no documents (only titles on the questions): it migrates to none.
    if (version >= 2) {
        for (const QJsonValue& v : json.value(QStringLiteral("documents")).toArray()) {
            const ChatDocument d = documentFromJson(v.toObject());
            if (d.path.isEmpty())
                return fail(QStringLiteral("document without a path"));
            c.documents.append(d);
        }
    }
    for (const QJsonValue& v : json.value(QStringLiteral("messages")).toArray()) {
        ChatMessage m;
        if (!messageFromJson(v.toObject(), m))
            return fail(QStringLiteral("message with an unknown role"));
        c.messages.append(m);
    }
    // Version 3: the other branches' messages; every message has an id and names its parent.
    if (version >= 3) {
        for (const QJsonValue& v : json.value(QStringLiteral("versions")).toArray()) {
            ChatMessage m;
            if (!messageFromJson(v.toObject(), m))
                return fail(QStringLiteral("message with an unknown role"));
            c.otherVersions.append(m);
        }
    }
    // Older files (and messages without ids) migrate to one branch, numbered in order.
    linkMessages(c);
    chat = std::move(c);
    return true;
}

} // namespace folio::ui
