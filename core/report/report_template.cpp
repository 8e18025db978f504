#include "core/report/report_template.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui", text);
}

// A key line: a lowercase key (letters and spaces) and a colon. "Note: …" with a capital is
// instruction text, so an instruction may start with a word and a colon.
const QRegularExpression& keyLine() {
    static const QRegularExpression re(QStringLiteral("^([a-z][a-z ]*):\\s*(.*)$"));
    return re;
}

QStringList splitList(const QString& value, QChar separator) {
    QStringList items;
    for (const QString& part : value.split(separator)) {
        const QString item = part.trimmed();
        if (!item.isEmpty())
            items << item;
    }
    return items;
}

class Parser {
public:
    Parser(const QString& name) : name_(name) {}

    // lupdate files a tr() inside a class under the class: the same context here.
    static QString tr(const char* text) {
        return QCoreApplication::translate("folio::ui::Parser", text);
    }

    TemplateParse run(const QString& text) {
        const QStringList lines = text.split(QLatin1Char('\n'));
        bool inComment = false;
        for (int i = 0; i < lines.size() && error_.isEmpty(); ++i) {
            line_ = i + 1;
            QString line = lines[i];
            if (line.endsWith(QLatin1Char('\r')))
                line.chop(1);
            if (inComment || line.trimmed().startsWith(QLatin1String("<!--"))) {
                inComment = !line.contains(QLatin1String("-->"));
                continue;
            }
            if (!line.trimmed().isEmpty())
                lastContent_ = line_;
            take(line);
        }
        if (error_.isEmpty())
            finish();
        TemplateParse parse;
        parse.value = std::move(value_);
        parse.error = error_;
        return parse;
    }

private:
    void fail(const QString& what) {
        if (error_.isEmpty())
            error_ = tr("%1, line %2: %3").arg(name_).arg(line_).arg(what);
    }

    void take(const QString& raw) {
        const QString line = raw.trimmed();
        if (!sawTitle_) {
            if (line.isEmpty())
                return;
            if (!line.startsWith(QLatin1String("# ")) || line.mid(2).trimmed().isEmpty())
                return fail(tr("a template starts with its title: “# Title”"));
            value_.title = line.mid(2).trimmed();
            sawTitle_ = true;
            return;
        }
        if (line.startsWith(QLatin1String("## ")) || line == QLatin1String("##")) {
            closeSection();
            if (!error_.isEmpty())
                return;
            const QString heading = line.mid(3).trimmed();
            if (heading.isEmpty())
                return fail(tr("a section heading “## …” has no words"));
            ReportSectionTemplate section;
            section.heading = heading;
            section.line = line_;
            value_.sections << section;
            inKeys_ = true;
            return;
        }
        if (line.startsWith(QLatin1String("# ")))
            return fail(tr("a second title; sections start with “## ”"));
        if (value_.sections.isEmpty())
            return takeHeader(line);
        takeSectionLine(raw, line);
    }

    void takeHeader(const QString& line) {
        if (line.isEmpty())
            return;
        const QRegularExpressionMatch key = keyLine().match(line);
        if (!key.hasMatch())
            return fail(tr("text before the first section: put it under a “## Heading”, or in "
                           "“description:”"));
        const QString name = key.captured(1).trimmed();
        const QString value = key.captured(2).trimmed();
        if (name == QLatin1String("id")) {
            static const QRegularExpression idChars(QStringLiteral("^[a-z0-9][a-z0-9-]*$"));
            if (!idChars.match(value).hasMatch())
                return fail(tr("“id” takes lowercase letters, digits and “-”, such as "
                               "“equity-note”"));
            value_.id = value;
        } else if (name == QLatin1String("language")) {
            if (value != QLatin1String("en") && value != QLatin1String("zh_CN"))
                return fail(tr("unknown language “%1” (en or zh_CN)").arg(value));
            value_.language = value;
        } else if (name == QLatin1String("documents")) {
            bool ok = false;
            const int n = value.toInt(&ok);
            if (!ok || n < 1 || n > 4)
                return fail(tr("“documents” is how many documents the report reads: 1 to 4"));
            value_.documents = n;
        } else if (name == QLatin1String("description")) {
            value_.description = value;
        } else {
            fail(tr("unknown key “%1” (id, language, documents, description)").arg(name));
        }
    }

    void takeSectionLine(const QString& raw, const QString& line) {
        ReportSectionTemplate& section = value_.sections.last();
        if (inKeys_) {
            if (line.isEmpty()) {
                inKeys_ = false;
                return;
            }
            const QRegularExpressionMatch key = keyLine().match(line);
            if (key.hasMatch())
                return takeSectionKey(section, key.captured(1).trimmed(),
                                      key.captured(2).trimmed());
            inKeys_ = false;
        }
        if (section.instruction.isEmpty() && line.isEmpty())
            return;
        if (!section.instruction.isEmpty())
            section.instruction += QLatin1Char('\n');
        section.instruction += raw.trimmed().isEmpty() ? QString() : raw;
    }

    void takeSectionKey(ReportSectionTemplate& section, const QString& name, const QString& value) {
        if (name == QLatin1String("form")) {
            static const QStringList forms = {QStringLiteral("prose"), QStringLiteral("bullets"),
                                              QStringLiteral("table"), QStringLiteral("quotes"),
                                              QStringLiteral("sources")};
            const int at = forms.indexOf(value);
            if (at < 0)
                return fail(
                    tr("unknown form “%1” (prose, bullets, table, quotes or sources)").arg(value));
            section.form = SectionForm(at);
        } else if (name == QLatin1String("sources")) {
            SectionSources sources;
            sources.documents = false;
            const QStringList items = splitList(value, QLatin1Char(','));
            if (items.isEmpty())
                return fail(tr("“sources” names documents, data or images"));
            for (const QString& item : items) {
                if (item == QLatin1String("documents"))
                    sources.documents = true;
                else if (item == QLatin1String("data"))
                    sources.data = true;
                else if (item == QLatin1String("images"))
                    sources.images = true;
                else
                    return fail(tr("unknown source “%1” (documents, data or images)").arg(item));
            }
            section.sources = sources;
        } else if (name == QLatin1String("columns")) {
            section.columns = splitList(value, QLatin1Char('|'));
            if (section.columns.size() < 2)
                return fail(tr("“columns” names at least two columns, separated by “|”"));
        } else if (name == QLatin1String("rows")) {
            section.rows = splitList(value, QLatin1Char(';'));
            if (section.rows.isEmpty())
                return fail(tr("“rows” names the rows, separated by “;”"));
        } else if (name == QLatin1String("length")) {
            static const QRegularExpression length(
                QStringLiteral("^(\\d+)\\s*(words?|characters?|字)?$"));
            const QRegularExpressionMatch m = length.match(value);
            const int n = m.hasMatch() ? m.captured(1).toInt() : 0;
            if (n < 10 || n > 5000)
                return fail(tr("“length” is a number of words from 10 to 5000, such as "
                               "“150 words”"));
            section.length = n;
        } else {
            fail(tr("unknown key “%1” (form, sources, columns, rows, length)").arg(name));
        }
    }

    // Checks the section that ends here.
    void closeSection() {
        if (value_.sections.isEmpty())
            return;
        ReportSectionTemplate& section = value_.sections.last();
        section.instruction = section.instruction.trimmed();
        const int at = line_;
        line_ = section.line;
        if (section.instruction.isEmpty() && section.form != SectionForm::Sources)
            fail(tr("the section “%1” has no instruction: write what it should say in the "
                    "lines after its heading")
                     .arg(section.heading));
        else if (section.form == SectionForm::Table && section.columns.isEmpty())
            fail(tr("the section “%1” is a table but names no “columns:”").arg(section.heading));
        else if (section.form != SectionForm::Table &&
                 (!section.columns.isEmpty() || !section.rows.isEmpty()))
            fail(tr("the section “%1” has columns or rows but its form is not “table”")
                     .arg(section.heading));
        line_ = at;
    }

    void finish() {
        line_ = qMax(1, lastContent_); // the end of the file: its last line with words
        if (!sawTitle_)
            return fail(tr("the file is empty; a template starts with “# Title”"));
        closeSection();
        if (error_.isEmpty() && value_.sections.isEmpty())
            fail(tr("no sections: each starts with “## Heading”"));
        if (value_.language.isEmpty())
            value_.language = QStringLiteral("en");
    }

    QString name_;
    int line_ = 0;
    int lastContent_ = 0;
    bool sawTitle_ = false;
    bool inKeys_ = false;
    ReportTemplate value_;
    QString error_;
};

} // namespace

QString sectionFormName(SectionForm form) {
    switch (form) {
    case SectionForm::Prose:
        return QStringLiteral("prose");
    case SectionForm::Bullets:
        return QStringLiteral("bullets");
    case SectionForm::Table:
        return QStringLiteral("table");
    case SectionForm::Quotes:
        return QStringLiteral("quotes");
    case SectionForm::Sources:
        return QStringLiteral("sources");
    }
    return QString();
}

TemplateParse parseReportTemplate(const QString& text, const QString& name) {
    TemplateParse parse = Parser(name).run(text);
    if (parse.ok() && parse.value.id.isEmpty())
        parse.value.id = QFileInfo(name).completeBaseName();
    return parse;
}

TemplateParse readReportTemplate(const QString& path) {
    QFile file(path);
    const QString name = QFileInfo(path).fileName();
    TemplateParse parse;
    if (!file.open(QIODevice::ReadOnly)) {
        parse.error = tr("%1: cannot read the template (%2)").arg(name, file.errorString());
        return parse;
    }
    const QByteArray bytes = file.read(1 << 20);
    if (!file.atEnd()) {
        parse.error = tr("%1: a template is a short text file; this one is over 1 MiB").arg(name);
        return parse;
    }
    parse = parseReportTemplate(QString::fromUtf8(bytes), name);
    parse.value.source = path;
    return parse;
}

} // namespace folio::ui
