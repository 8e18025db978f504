// Answers display as written (issue #48 §2): "<" and "&" in a model's Markdown are text, not
// HTML, wherever they stand; code spans and fenced blocks stay literal; Markdown itself still
// works. Checked through what QTextDocument's Markdown reader (the transcript's and the
// export's) makes of the escaped text.
#include <QTextDocument>
#include <QtTest>

#include "core/pipeline/markdown_literal.h"

using folio::ui::escapeRawHtml;

namespace {

// What a reader sees of `markdown` once rendered.
QString shown(const QString& markdown) {
    QTextDocument doc;
    doc.setMarkdown(markdown);
    return doc.toPlainText();
}

} // namespace

class TestMarkdownLiteral : public QObject {
    Q_OBJECT
private slots:
    void unescapedTextVanishes() {
        // Why the escape exists: without it the rest of the answer is gone.
        QVERIFY(!shown(QStringLiteral("R_init_<pkg>. See [p. 146]."))
                     .contains(QStringLiteral("See [p. 146]")));
    }

    void displaysAsWritten_data() {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QString>("expected");
        QTest::newRow("tag-like") << QStringLiteral("R_init_<pkg>. See [p. 146] and [p. 2].")
                                  << QStringLiteral("R_init_<pkg>. See [p. 146] and [p. 2].");
        QTest::newRow("html") << QStringLiteral("Use <b>bold</b> and <br> here.")
                              << QStringLiteral("Use <b>bold</b> and <br> here.");
        QTest::newRow("comparison") << QStringLiteral("a < b and c <= d, x<y>z")
                                    << QStringLiteral("a < b and c <= d, x<y>z");
        QTest::newRow("entities") << QStringLiteral("R&D costs &amp; fees &#169; &lt;")
                                  << QStringLiteral("R&D costs &amp; fees &#169; &lt;");
        QTest::newRow("autolink") << QStringLiteral("<https://example.com> stays")
                                  << QStringLiteral("<https://example.com> stays");
        QTest::newRow("comment") << QStringLiteral("before <!-- hidden --> after")
                                 << QStringLiteral("before <!-- hidden --> after");
        QTest::newRow("code span")
            << QStringLiteral("call `f<T>(a && b)` now") << QStringLiteral("call f<T>(a && b) now");
        QTest::newRow("double backticks")
            << QStringLiteral("``a ` <b>`` and <c>") << QStringLiteral("a ` <b> and <c>");
        QTest::newRow("lone backtick")
            << QStringLiteral("a ` b <c> d") << QStringLiteral("a ` b <c> d");
        QTest::newRow("escaped already")
            << QStringLiteral("a \\<b> c") << QStringLiteral("a <b> c");
        QTest::newRow("markdown works")
            << QStringLiteral("**Revenue** rose <10%") << QStringLiteral("Revenue rose <10%");
        QTest::newRow("math") << QStringLiteral("$x < y$ and $a & b$")
                              << QStringLiteral("$x < y$ and $a & b$");
        QTest::newRow("chinese") << QStringLiteral("营收<增长>12.4% [p. 14]")
                                 << QStringLiteral("营收<增长>12.4% [p. 14]");
    }
    void displaysAsWritten() {
        QFETCH(QString, markdown);
        QFETCH(QString, expected);
        QCOMPARE(shown(escapeRawHtml(markdown)), expected);
    }

    void fencedBlocksStayLiteral() {
        const QString md = QStringLiteral("Before <x>\n\n```cpp\nif (a < b && c) {}\n```\n\n"
                                          "~~~~\n<div>&amp;</div>\n```\nstill code <y>\n~~~~\n"
                                          "After <z>");
        const QString escaped = escapeRawHtml(md);
        // The code lines are untouched.
        QVERIFY(escaped.contains(QStringLiteral("\nif (a < b && c) {}\n")));
        QVERIFY(escaped.contains(QStringLiteral("\n<div>&amp;</div>\n")));
        QVERIFY(escaped.contains(QStringLiteral("\nstill code <y>\n")));
        const QString text = shown(escaped);
        QVERIFY2(text.contains(QStringLiteral("Before <x>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("if (a < b && c) {}")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("<div>&amp;</div>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("still code <y>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("After <z>")), qPrintable(text));
    }

    void tablesKeepTheirCells() {
        const QString md =
            QStringLiteral("| Item | Value |\n| --- | --- |\n| <b>x</b> | a & b |\n\nend");
        const QString text = shown(escapeRawHtml(md));
        QVERIFY2(text.contains(QStringLiteral("<b>x</b>")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("a & b")), qPrintable(text));
    }

    void plainTextIsUnchanged() {
        const QString md = QStringLiteral("No brackets here.\n\n- one\n- two [p. 3]");
        QCOMPARE(escapeRawHtml(md), md);
        QCOMPARE(escapeRawHtml(QString()), QString());
    }
};

QTEST_MAIN(TestMarkdownLiteral)
#include "test_markdown_literal.moc"
