// A question about a report far longer than the model's context, through the real window
// (issue #22 acceptance): a generated 300-page PDF (about 40,000 tokens of text) and the demo
// model with its 4,096-token context. The question gets an answer (not an error, not empty),
// and the question records the pages its prompt held — the page with its rare term among them —
// in the transcript and in the saved chat.
#include <QApplication>
#include <QDirIterator>
#include <QPainter>
#include <QPdfWriter>
#include <QSignalSpy>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "core/pipeline/page_ranges.h"
#include "documents/documents_pane.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString demoModel() {
    return folio::test::builtProgram(QStringLiteral("generated/models/demo-deepseek2.gguf"));
}

// Page `p`: distinct sentences from a small vocabulary (a linear congruential sequence seeded
// by the page), about 90 words.
QString syntheticPage(int p) {
    static const QStringList words = {
        QStringLiteral("revenue"),   QStringLiteral("margin"),    QStringLiteral("segment"),
        QStringLiteral("growth"),    QStringLiteral("customers"), QStringLiteral("costs"),
        QStringLiteral("quarter"),   QStringLiteral("region"),    QStringLiteral("outlook"),
        QStringLiteral("risk"),      QStringLiteral("capital"),   QStringLiteral("supply"),
        QStringLiteral("demand"),    QStringLiteral("pricing"),   QStringLiteral("inventory"),
        QStringLiteral("contracts"), QStringLiteral("the"),       QStringLiteral("of"),
        QStringLiteral("and"),       QStringLiteral("in")};
    quint32 state = 2654435761u * quint32(p + 1);
    QString text = QStringLiteral("Section %1.\n").arg(p);
    for (int w = 0; w < 90; ++w) {
        state = state * 1664525u + 1013904223u;
        text += words[int((state >> 16) % quint32(words.size()))];
        text += (w % 12 == 11) ? QStringLiteral(".\n") : QStringLiteral(" ");
    }
    return text + QStringLiteral("Figure %1 shows %2 units.\n").arg(p).arg(p * 37 % 1000);
}

bool writeLongReport(const QString& path, int pages, int rarePage) {
    QPdfWriter pdf(path);
    pdf.setTitle(QStringLiteral("Long synthetic report"));
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(72);
    QPainter painter;
    if (!painter.begin(&pdf))
        return false;
    QFont font = painter.font();
    font.setPointSize(9);
    painter.setFont(font);
    for (int p = 1; p <= pages; ++p) {
        if (p > 1)
            pdf.newPage();
        QString text = syntheticPage(p);
        if (p == rarePage)
            text += QStringLiteral("The xylophonist quartet recorded 4,812 units.\n");
        painter.drawText(QRect(40, 40, 500, 760), Qt::TextWordWrap, text);
    }
    return painter.end();
}

} // namespace

class TestWorkbenchLong : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("workbench-long-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_workbench_long"));
        QVERIFY2(QFile::exists(demoModel()), "no demo model (built with the tests)");
    }

    void aQuestionAboutA300PageReportGetsAnAnswerAndItsPages() {
        const QString dir = folio::test::scratchDir(QStringLiteral("workbench-long"));
        const QString report = dir + QStringLiteral("/long-report.pdf");
        QVERIFY(writeLongReport(report, 300, 217));

        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openDocuments({report});
        w.openModel(demoModel());
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(w.modelReady(), 60000);
        const Document doc = w.documentsPane()->documents().first();
        QCOMPARE(doc.state, Document::State::Ready);
        QCOMPARE(doc.pageCount, 300);
        QVERIFY2(doc.pageTexts[216].contains(QStringLiteral("xylophonist")),
                 qPrintable(doc.pageTexts[216]));

        QSignalSpy done(&w, &MainWindow::answerFinished);
        w.ask(QStringLiteral("What did the xylophonist quartet record?"));
        QVERIFY(w.chatPane()->isGenerating()); // at once, while the prompt is prepared
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 240000);
        QVERIFY2(done.first().first().toString() != QStringLiteral("error"),
                 qPrintable(w.chatPane()->messages().last().text));
        const QList<ChatMessage> messages = w.chatPane()->messages();
        QVERIFY2(messages.size() == 2, // the question and its answer, no notice
                 qPrintable(messages.last().text));
        const ChatMessage& answer = messages.last();
        QCOMPARE(answer.role, ChatMessage::Role::Assistant);
        QVERIFY(!answer.text.isEmpty());
        QVERIFY(answer.stats.generatedTokens > 0);
        QVERIFY(answer.stats.promptTokens > 2000); // the context is used, not overflowed
        const qint64 answerRoom = w.chatPane()->currentChat().settings.maxTokens;
        QVERIFY2(
            answer.stats.promptTokens + answerRoom <= 4096,
            qPrintable(QStringLiteral("%1 + %2").arg(answer.stats.promptTokens).arg(answerRoom)));

        // The question says which pages went in: the rare term's page among them.
        const QString note = messages.first().contextNote;
        QVERIFY2(note.startsWith(QStringLiteral("pages ")) &&
                     note.endsWith(QStringLiteral(" of 300")),
                 qPrintable(note));
        // Each group of pages says why it went in; the rare term's page is the best match.
        QVERIFY2(note.contains(QStringLiteral("217 (best match)")), qPrintable(note));
        // Shown under the question.
        auto* transcript = w.findChild<TranscriptView*>();
        QVERIFY(transcript);
        QVERIFY(transcript->toPlainText().contains(QStringLiteral("In the prompt: ") + note));

        // And the saved chat keeps it.
        w.chatPane()->waitForSaves();
        bool saved = false;
        QDirIterator it(qEnvironmentVariable("XDG_DATA_HOME"), {QStringLiteral("*.json")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.open(QIODevice::ReadOnly) &&
                QString::fromUtf8(f.readAll()).contains(QStringLiteral("\"context\": \"") + note))
                saved = true;
        }
        QVERIFY(saved);
    }
};

QTEST_MAIN(TestWorkbenchLong)
#include "test_workbench_long.moc"
