// The workbench in a dark theme (issue #25): with a dark application palette the transcript's
// text, links and backgrounds come from the palette (every colour in its HTML reads on the
// palette's Base; no light background is left), links keep the palette's Link colour when it
// reads and are lightened when it does not, and a theme switch while the window is open lays
// the chat, the banners and the chart out again in the new colours.
#include <QApplication>
#include <QChart>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyle>
#include <QStyleFactory>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "devices/throughput_chart.h"
#include "main_window.h"
#include "style/palette_colors.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QPalette darkPalette(const QColor& link) {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x82, 0xda));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ToolTipText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Link, link);
    p.setColor(QPalette::LinkVisited, link);
    return p;
}

ChatMessage message(ChatMessage::Role role, const QString& text) {
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    return m;
}

// Every kind of line the transcript draws: names, times, chips, citations and Markdown links,
// code, a tool call (open), a context note, an interrupted answer, a notice, the footers.
QList<ChatMessage> sampleMessages() {
    ChatMessage q = message(ChatMessage::Role::User, QStringLiteral("What was revenue?"));
    q.attachments = {QStringLiteral("report.pdf")};
    q.contextNote = QStringLiteral("pages 1–3 of report.pdf");
    ChatMessage a = message(
        ChatMessage::Role::Assistant,
        QStringLiteral("Revenue was **$4.5 billion** [p. 2], see [the site](https://example.com)."
                       "\n\n```\nselect sum(x) from t;\n```\n"));
    ToolCallRecord call;
    call.name = QStringLiteral("sql_query");
    call.arguments = QStringLiteral(R"({"query": "select 1"})");
    call.result = QStringLiteral("| a |\n|---|\n| 1 |\n");
    call.ok = true;
    call.done = true;
    a.toolCalls = {call};
    a.stats.promptTokens = 1200;
    a.stats.generatedTokens = 40;
    a.stats.stopReason = QStringLiteral("eos");
    ChatMessage n = message(ChatMessage::Role::Notice, QStringLiteral("Document loaded."));
    ChatMessage q2 = message(ChatMessage::Role::User, QStringLiteral("And costs?"));
    ChatMessage a2 = message(ChatMessage::Role::Assistant, QStringLiteral("Costs were"));
    a2.interrupted = QStringLiteral("connection lost");
    return {q, a, n, q2, a2};
}

struct HtmlColours {
    QList<QColor> text, backgrounds;
};

HtmlColours coloursIn(const QString& html) {
    HtmlColours c;
    // (moc reads this file: no raw strings with parentheses)
    static const QRegularExpression textRe(
        QStringLiteral("(?<![-\\w])color:\\s*(#[0-9a-fA-F]{6})"));
    static const QRegularExpression backRe(QStringLiteral(
        "(?:background-color|background|bgcolor)\\s*[:=]\\s*[\"']?(#[0-9a-fA-F]{6})"));
    for (auto it = textRe.globalMatch(html); it.hasNext();)
        c.text << QColor(it.next().captured(1));
    for (auto it = backRe.globalMatch(html); it.hasNext();)
        c.backgrounds << QColor(it.next().captured(1));
    return c;
}

QList<QColor> linkColours(const QTextDocument* document) {
    QList<QColor> colours;
    for (QTextBlock b = document->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor() &&
                !it.fragment().charFormat().anchorHref().isEmpty())
                colours << it.fragment().charFormat().foreground().color();
    return colours;
}

QString describe(const QColor& c, const QColor& base) {
    return QStringLiteral("%1 on %2: contrast %3")
        .arg(c.name(), base.name())
        .arg(style::contrastRatio(c, base), 0, 'f', 2);
}

} // namespace

class TestPalette : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("palette-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_palette"));
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        light_ = QApplication::style()->standardPalette();
    }

    void cleanup() { QApplication::setPalette(light_); }

    void readableHelpers() {
        const QColor base(0x1e, 0x1e, 0x1e);
        QVERIFY(style::contrastRatio(Qt::black, Qt::white) > 20.9);
        QCOMPARE(style::readable(QColor(0x5d, 0xad, 0xe2), base), QColor(0x5d, 0xad, 0xe2));
        QVERIFY(style::contrastRatio(style::readable(QColor(0x1f, 0x4e, 0x8c), base), base) >= 4.5);
        QVERIFY(style::isDark(darkPalette(Qt::blue)));
        QVERIFY(!style::isDark(light_));
    }

    // A dark theme from the start: the palette's readable link colour is used as it is.
    void darkFromTheStart() {
        const QColor link(0x5d, 0xad, 0xe2);
        QApplication::setPalette(darkPalette(link));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.findChild<TranscriptView*>(QStringLiteral("chatTranscript"));
        QVERIFY(view);
        view->showMessages(sampleMessages(), false);
        checkDark(view);
        const QList<QColor> links = linkColours(view->document());
        QVERIFY(links.size() >= 5); // citation, web link, tool call, copy, edit, regenerate
        for (const QColor& c : links)
            QCOMPARE(c.name(), link.name());
    }

    // Adwaita-Dark (issue #48 §13): a theme whose PlaceholderText is its Text made the empty
    // question box look typed in, and Send and Stop looked alike. The placeholder is muted (and
    // readable), Send takes the accent, Stop the negative tone; a theme switch follows.
    void composerReadsInADarkThemeWhosePlaceholderIsText() {
        QPalette dark = darkPalette(QColor(0x5d, 0xad, 0xe2));
        dark.setColor(QPalette::PlaceholderText, dark.color(QPalette::Text));
        QApplication::setPalette(dark);
        ChatPane pane;
        auto* input = pane.findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        auto* send = pane.findChild<QPushButton*>(QStringLiteral("sendButton"));
        auto* stop = pane.findChild<QPushButton*>(QStringLiteral("stopButton"));
        QVERIFY(input && send && stop);
        const QColor text = dark.color(QPalette::Text), base = dark.color(QPalette::Base);
        const QColor placeholder = input->palette().color(QPalette::PlaceholderText);
        QVERIFY2(style::contrastRatio(placeholder, text) >= 2.0, qPrintable(placeholder.name()));
        QVERIFY2(style::contrastRatio(placeholder, base) >= 3.0, qPrintable(placeholder.name()));
        const QColor sendBg = send->palette().color(QPalette::Button);
        const QColor stopBg = stop->palette().color(QPalette::Button);
        QCOMPARE(sendBg, dark.color(QPalette::Highlight));
        QVERIFY(sendBg != stopBg);
        QVERIFY(style::contrastRatio(send->palette().color(QPalette::ButtonText), sendBg) >= 3.0);
        QVERIFY(style::contrastRatio(stop->palette().color(QPalette::ButtonText), stopBg) >= 3.0);
        // Back to the light theme: the placeholder follows (dark on light now).
        QApplication::setPalette(light_);
        QTRY_VERIFY(style::contrastRatio(input->palette().color(QPalette::PlaceholderText),
                                         light_.color(QPalette::Base)) >= 3.0 &&
                    !style::isDark(input->palette()));
    }

    // Switching to a dark theme whose Link is Qt's dark blue, with the window open.
    void followsAThemeSwitch() {
        QApplication::setPalette(light_);
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* view = w.findChild<TranscriptView*>(QStringLiteral("chatTranscript"));
        QVERIFY(view);
        view->showMessages(sampleMessages(), false);
        QVERIFY(!coloursIn(view->toHtml()).backgrounds.isEmpty());

        QApplication::setPalette(darkPalette(QColor(0x00, 0x00, 0xff)));
        QTRY_VERIFY(view->palette().color(QPalette::Base) == QColor(0x1e, 0x1e, 0x1e));
        QTest::qWait(20); // the queued re-layout
        checkDark(view);
        const QColor base = view->palette().color(QPalette::Base);
        for (const QColor& c : linkColours(view->document()))
            QVERIFY2(style::contrastRatio(c, base) >= 4.5, qPrintable(describe(c, base)));

        // The banner above the chat and the throughput chart follow too.
        auto* notice = w.findChild<QLabel*>(QStringLiteral("chatModelNotice"));
        QVERIFY(notice);
        const HtmlColours sheet = coloursIn(notice->styleSheet());
        QVERIFY(!sheet.backgrounds.isEmpty());
        for (const QColor& c : sheet.backgrounds)
            QVERIFY2(style::luminance(c) < 0.2, qPrintable(c.name()));
        auto* chart = w.findChild<ThroughputChart*>();
        QVERIFY(chart);
        QCOMPARE(chart->chart()->backgroundBrush().color(), base);
    }

private:
    // Every colour in the transcript's HTML reads on the dark Base; no light background.
    static void checkDark(TranscriptView* view) {
        const QColor base = view->palette().color(QPalette::Base);
        QVERIFY(style::luminance(base) < 0.05);
        const QString html = view->toHtml();
        const HtmlColours colours = coloursIn(html);
        QVERIFY(colours.text.size() >= 6);
        for (const QColor& c : colours.text)
            QVERIFY2(style::contrastRatio(c, base) >= 3.0, qPrintable(describe(c, base)));
        QVERIFY(colours.backgrounds.size() >= 3); // chip, tool call, code
        for (const QColor& c : colours.backgrounds)
            QVERIFY2(style::luminance(c) < 0.2 && style::contrastRatio(c, base) < 3.0,
                     qPrintable(describe(c, base)));
        for (const char* old : {"#f3f4f6", "#eef2f7", "#fbf3dc", "#e8eef7", "#1f4e8c", "#888888",
                                "#999999", "#666666"})
            QVERIFY2(!html.contains(QLatin1String(old), Qt::CaseInsensitive), old);
    }

    QPalette light_;
};

QTEST_MAIN(TestPalette)
#include "test_palette.moc"
