#include "core/report/report_json.h"

#include "core/chat/chat_json.h"
#include "core/storage/atomic_write.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

bool stateFromKey(const QString& key, ReportSection::State& out) {
    for (ReportSection::State s : {ReportSection::State::Pending, ReportSection::State::Done,
                                   ReportSection::State::Edited, ReportSection::State::Failed})
        if (reportSectionStateKey(s) == key) {
            out = s;
            return true;
        }
    return false;
}

QJsonArray intArray(const QList<int>& values) {
    QJsonArray a;
    for (int v : values)
        a.append(v);
    return a;
}

QList<int> intList(const QJsonArray& a) {
    QList<int> out;
    for (const QJsonValue& v : a)
        if (v.toInt() > 0)
            out << v.toInt();
    return out;
}

QJsonObject sectionToJson(const ReportSection& s, const QString& heading) {
    QJsonArray used;
    for (const ReportPagesUsed& u : s.pagesUsed)
        used.append(QJsonObject{{QStringLiteral("doc"), u.document + 1},
                                {QStringLiteral("pages"), intArray(u.pages)},
                                {QStringLiteral("page_count"), u.pageCount}});
    QJsonObject o{{QStringLiteral("heading"), heading},
                  {QStringLiteral("state"), reportSectionStateKey(s.state)},
                  {QStringLiteral("text"), s.text},
                  {QStringLiteral("pages_used"), used},
                  {QStringLiteral("figures"), figuresToJson(s.figures)},
                  {QStringLiteral("prompt_tokens"), s.promptTokens},
                  {QStringLiteral("seconds"), s.seconds},
                  {QStringLiteral("images_used"), s.imagesUsed}};
    if (!s.error.isEmpty())
        o.insert(QStringLiteral("error"), s.error);
    return o;
}

ReportSection sectionFromJson(const QJsonObject& o) {
    ReportSection s;
    if (!stateFromKey(o.value(QStringLiteral("state")).toString(), s.state))
        s.state = ReportSection::State::Pending; // a state we do not know: made again
    s.text = o.value(QStringLiteral("text")).toString();
    s.error = o.value(QStringLiteral("error")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("pages_used")).toArray()) {
        const QJsonObject u = v.toObject();
        s.pagesUsed << ReportPagesUsed{u.value(QStringLiteral("doc")).toInt() - 1,
                                       intList(u.value(QStringLiteral("pages")).toArray()),
                                       u.value(QStringLiteral("page_count")).toInt()};
    }
    s.figures = figuresFromJson(o.value(QStringLiteral("figures")).toArray());
    s.promptTokens = o.value(QStringLiteral("prompt_tokens")).toInteger();
    s.seconds = o.value(QStringLiteral("seconds")).toDouble();
    s.imagesUsed = o.value(QStringLiteral("images_used")).toBool();
    return s;
}

} // namespace

QJsonObject reportToJson(const Report& r) {
    QJsonArray documents;
    for (const ReportDocument& d : r.documents)
        documents.append(QJsonObject{{QStringLiteral("path"), d.path},
                                     {QStringLiteral("title"), d.title},
                                     {QStringLiteral("fingerprint"), d.fingerprint},
                                     {QStringLiteral("pages"), d.pageCount}});
    QJsonArray sections;
    for (int i = 0; i < r.sections.size(); ++i)
        sections.append(sectionToJson(
            r.sections[i], i < r.shape.sections.size() ? r.shape.sections[i].heading : QString()));
    return QJsonObject{
        {QStringLiteral("format"), QStringLiteral("folio-report")},
        {QStringLiteral("version"), kReportFormatVersion},
        {QStringLiteral("title"), r.title},
        {QStringLiteral("template"), QJsonObject{{QStringLiteral("name"), r.templateName},
                                                 {QStringLiteral("text"), r.templateText}}},
        {QStringLiteral("documents"), documents},
        {QStringLiteral("images"), QJsonArray::fromStringList(r.images)},
        {QStringLiteral("data_sources"), QJsonArray::fromStringList(r.dataSources)},
        {QStringLiteral("model"), r.model},
        {QStringLiteral("created"), r.created.toString(Qt::ISODateWithMs)},
        {QStringLiteral("updated"), r.updated.toString(Qt::ISODateWithMs)},
        {QStringLiteral("sections"), sections}};
}

bool reportFromJson(const QJsonObject& o, Report& out, QString* error) {
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("folio-report"))
        return fail(tr("not a Folio report"));
    const int version = o.value(QStringLiteral("version")).toInt();
    if (version < 1 || version > kReportFormatVersion)
        return fail(tr("a report of version %1, made by a newer Folio: update Folio to open it")
                        .arg(version));
    Report r;
    r.title = o.value(QStringLiteral("title")).toString();
    const QJsonObject t = o.value(QStringLiteral("template")).toObject();
    r.templateName = t.value(QStringLiteral("name")).toString();
    r.templateText = t.value(QStringLiteral("text")).toString();
    const TemplateParse shape = parseReportTemplate(
        r.templateText, r.templateName.isEmpty() ? QStringLiteral("template") : r.templateName);
    if (!shape.ok())
        return fail(tr("its template does not read: %1").arg(shape.error));
    r.shape = shape.value;
    for (const QJsonValue& v : o.value(QStringLiteral("documents")).toArray()) {
        const QJsonObject d = v.toObject();
        r.documents << ReportDocument{d.value(QStringLiteral("path")).toString(),
                                      d.value(QStringLiteral("title")).toString(),
                                      d.value(QStringLiteral("fingerprint")).toString(),
                                      d.value(QStringLiteral("pages")).toInt()};
    }
    for (const QJsonValue& v : o.value(QStringLiteral("images")).toArray())
        r.images << v.toString();
    for (const QJsonValue& v : o.value(QStringLiteral("data_sources")).toArray())
        r.dataSources << v.toString();
    r.model = o.value(QStringLiteral("model")).toString();
    r.created = QDateTime::fromString(o.value(QStringLiteral("created")).toString(), Qt::ISODate);
    r.updated = QDateTime::fromString(o.value(QStringLiteral("updated")).toString(), Qt::ISODate);
    const QJsonArray sections = o.value(QStringLiteral("sections")).toArray();
    if (sections.size() != r.shape.sections.size())
        return fail(tr("it has %1 sections but its template %2")
                        .arg(sections.size())
                        .arg(r.shape.sections.size()));
    for (const QJsonValue& v : sections)
        r.sections << sectionFromJson(v.toObject());
    out = std::move(r);
    return true;
}

QString saveReport(const QString& path, const Report& report) {
    QDir().mkpath(QFileInfo(path).absolutePath()); // the first report of a new folder
    return writeFileAtomic(path, QJsonDocument(reportToJson(report)).toJson());
}

bool loadReport(const QString& path, Report& report, QString* error) {
    const QString name = QFileInfo(path).fileName();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot open the report (%2)").arg(name, file.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = tr("%1: the report file is damaged (%2 at byte %3); an earlier copy may be "
                        "in your backups")
                         .arg(name, parseError.errorString())
                         .arg(parseError.offset);
        return false;
    }
    QString why;
    if (!reportFromJson(doc.object(), report, &why)) {
        if (error)
            *error = tr("%1: %2").arg(name, why);
        return false;
    }
    return true;
}

} // namespace folio::ui
