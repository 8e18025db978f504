// Report templates (issue #49 §1): the Markdown format of docs/REPORTS.md read into sections,
// each rule of the format with a malformed file naming its line, and the six built-in
// templates (three ids in English and Simplified Chinese) as the issue lists their sections.
#include <QtTest>

#include "core/report/builtin_templates.h"
#include "core/report/report_template.h"

using namespace folio::ui;

namespace {

const char* kGood = R"(# Quarterly note
<!-- a comment
     over two lines -->
id: q-note
language: en
documents: 2
description: Two quarters side by side.

## Summary
form: prose
length: 120 words
Summarise the quarter.
Note: cite every figure.

## Numbers
form: table
sources: documents, data
columns: Metric | Q1 | Q2
rows: Revenue; Net profit
Fill the table.

### Details
Keep the units.

## Charts
sources: images
form: bullets
What do the charts show?

## Sources
form: sources
)";

} // namespace

class TestReportTemplate : public QObject {
    Q_OBJECT
private slots:
    void aWellFormedTemplateIsReadSectionBySection() {
        const TemplateParse parse = parseReportTemplate(QString::fromUtf8(kGood), "q.md");
        QVERIFY2(parse.ok(), qPrintable(parse.error));
        const ReportTemplate& t = parse.value;
        QCOMPARE(t.title, QStringLiteral("Quarterly note"));
        QCOMPARE(t.id, QStringLiteral("q-note"));
        QCOMPARE(t.language, QStringLiteral("en"));
        QCOMPARE(t.documents, 2);
        QCOMPARE(t.description, QStringLiteral("Two quarters side by side."));
        QCOMPARE(t.sections.size(), 4);

        const ReportSectionTemplate& summary = t.sections[0];
        QCOMPARE(summary.heading, QStringLiteral("Summary"));
        QCOMPARE(summary.line, 9);
        QCOMPARE(summary.form, SectionForm::Prose);
        QCOMPARE(summary.length, 120);
        // "Note:" has a capital: instruction text, not a key.
        QCOMPARE(summary.instruction,
                 QStringLiteral("Summarise the quarter.\nNote: cite every figure."));
        QVERIFY(summary.sources.documents && !summary.sources.data && !summary.sources.images);

        const ReportSectionTemplate& numbers = t.sections[1];
        QCOMPARE(numbers.form, SectionForm::Table);
        QCOMPARE(numbers.columns, (QStringList{"Metric", "Q1", "Q2"}));
        QCOMPARE(numbers.rows, (QStringList{"Revenue", "Net profit"}));
        QVERIFY(numbers.sources.documents && numbers.sources.data && !numbers.sources.images);
        // A deeper heading belongs to the instruction.
        QCOMPARE(numbers.instruction,
                 QStringLiteral("Fill the table.\n\n### Details\nKeep the units."));

        const ReportSectionTemplate& charts = t.sections[2];
        QCOMPARE(charts.form, SectionForm::Bullets);
        QVERIFY(!charts.sources.documents && charts.sources.images);
        QCOMPARE(charts.length, 0);

        QCOMPARE(t.sections[3].form, SectionForm::Sources);
        QVERIFY(t.sections[3].instruction.isEmpty());
    }

    void defaultsFillWhatAFileLeavesOut() {
        const TemplateParse parse =
            parseReportTemplate("# Brief\n\n## One\nSay it.\n", "my-brief.md");
        QVERIFY2(parse.ok(), qPrintable(parse.error));
        QCOMPARE(parse.value.id, QStringLiteral("my-brief")); // from the file name
        QCOMPARE(parse.value.language, QStringLiteral("en"));
        QCOMPARE(parse.value.documents, 1);
        QCOMPARE(parse.value.sections[0].form, SectionForm::Prose);
        // Windows line ends read the same.
        const TemplateParse crlf =
            parseReportTemplate("# Brief\r\n\r\n## One\r\nform: bullets\r\nSay it.\r\n", "b.md");
        QVERIFY2(crlf.ok(), qPrintable(crlf.error));
        QCOMPARE(crlf.value.sections[0].instruction, QStringLiteral("Say it."));
        QCOMPARE(crlf.value.sections[0].form, SectionForm::Bullets);
    }

    void malformedFilesNameTheirLine_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("says");
        QTest::newRow("no title") << "\n\nid: x\n## A\nDo.\n" << 3 << "title";
        QTest::newRow("empty file") << "\n\n" << 1 << "empty";
        QTest::newRow("unknown form") << "# T\n\n## A\nform: tabel\nDo.\n" << 4 << "tabel";
        QTest::newRow("unknown header key") << "# T\nauthor: me\n## A\nDo.\n" << 2 << "author";
        QTest::newRow("unknown section key") << "# T\n## A\nform: prose\nwords: 100\nDo.\n"
                                             << 4 << "words";
        QTest::newRow("bad language") << "# T\nlanguage: fr\n## A\nDo.\n" << 2 << "fr";
        QTest::newRow("documents out of range") << "# T\ndocuments: 9\n## A\nDo.\n"
                                                << 2 << "1 to 4";
        QTest::newRow("bad id") << "# T\nid: Equity Note\n## A\nDo.\n" << 2 << "id";
        QTest::newRow("text before sections") << "# T\nSome words.\n## A\nDo.\n"
                                              << 2 << "first section";
        QTest::newRow("section without instruction") << "# T\n\n## A\nform: prose\n\n## B\nDo.\n"
                                                     << 3 << "“A” has no instruction";
        QTest::newRow("last section without instruction") << "# T\n\n## A\nDo.\n## B\n"
                                                          << 5 << "“B” has no instruction";
        QTest::newRow("table without columns") << "# T\n## A\nform: table\nFill.\n"
                                               << 2 << "no “columns:”";
        QTest::newRow("one column") << "# T\n## A\nform: table\ncolumns: Only\nFill.\n"
                                    << 4 << "two columns";
        QTest::newRow("rows on prose") << "# T\n## A\nrows: Revenue\nSay.\n" << 2 << "not “table”";
        QTest::newRow("unknown source") << "# T\n## A\nsources: documents, web\nSay.\n"
                                        << 3 << "web";
        QTest::newRow("length too short") << "# T\n## A\nlength: 5 words\nSay.\n" << 3 << "length";
        QTest::newRow("length not a number") << "# T\n## A\nlength: long\nSay.\n" << 3 << "length";
        QTest::newRow("empty heading") << "# T\n## \nSay.\n" << 2 << "no words";
        QTest::newRow("second title") << "# T\n## A\nSay.\n# U\n" << 4 << "second title";
        QTest::newRow("no sections") << "# T\nid: t\n" << 2 << "no sections";
    }

    void malformedFilesNameTheirLine() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, says);
        const TemplateParse parse = parseReportTemplate(text, "bad.md");
        QVERIFY(!parse.ok());
        QVERIFY2(parse.error.startsWith(QStringLiteral("bad.md, line %1: ").arg(line)),
                 qPrintable(parse.error));
        QVERIFY2(parse.error.contains(says), qPrintable(parse.error));
    }

    void theBuiltInTemplatesHaveTheIssuesSections_data() {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << "en";
        QTest::newRow("zh_CN") << "zh_CN";
    }

    void theBuiltInTemplatesHaveTheIssuesSections() {
        QFETCH(QString, language);
        const QList<ReportTemplate> templates = builtInReportTemplates(language);
        QCOMPARE(templates.size(), 3);
        QStringList ids;
        for (const ReportTemplate& t : templates) {
            ids << t.id;
            QCOMPARE(t.language, language);
        }
        QCOMPARE(ids, (QStringList{"equity-note", "policy-brief", "comparison"}));

        // Equity note: summary, business, a financial table of five metrics, charts, risks,
        // outlook, sources.
        const ReportTemplate& note = templates[0];
        QCOMPARE(note.sections.size(), 7);
        const ReportSectionTemplate& money = note.sections[2];
        QCOMPARE(money.form, SectionForm::Table);
        QCOMPARE(money.rows.size(), 5);
        QVERIFY(money.sources.data);
        QVERIFY(note.sections[3].sources.images);
        QCOMPARE(note.sections.last().form, SectionForm::Sources);

        // Policy brief: key clauses quoted word for word.
        const ReportTemplate& brief = templates[1];
        QCOMPARE(brief.sections.size(), 7);
        QCOMPARE(brief.sections[5].form, SectionForm::Quotes);
        QCOMPARE(brief.sections[3].form, SectionForm::Table); // dates and deadlines

        // Comparison: two documents, a table per metric.
        const ReportTemplate& comparison = templates[2];
        QCOMPARE(comparison.documents, 2);
        QCOMPARE(comparison.sections[1].form, SectionForm::Table);
        QCOMPARE(comparison.sections[1].columns.size(), 4);
        if (language == QLatin1String("zh_CN"))
            QCOMPARE(brief.title, QStringLiteral("政策要点"));
    }

    void templatesAreFoundByIdOrFile() {
        QVERIFY(findReportTemplate("policy-brief", "zh_CN").ok());
        QCOMPARE(findReportTemplate("policy-brief", "de").value.language,
                 QStringLiteral("en")); // no German: English
        const TemplateParse unknown = findReportTemplate("annual-review", "en");
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error.contains("equity-note, policy-brief, comparison"));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("mine.md");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Mine\n\n## Only\nform: bullets\nList it.\n");
        file.close();
        const TemplateParse mine = findReportTemplate(path, "en");
        QVERIFY2(mine.ok(), qPrintable(mine.error));
        QCOMPARE(mine.value.id, QStringLiteral("mine"));
        QCOMPARE(mine.value.source, path);

        const TemplateParse missing = readReportTemplate(dir.filePath("gone.md"));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error.startsWith("gone.md: "));
    }
};

QTEST_GUILESS_MAIN(TestReportTemplate)
#include "test_report_template.moc"
