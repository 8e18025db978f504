// The question's prompt with OCR text (issue #46 §1 acceptance): the sample report's scanned
// page 8, read with OCR, ranks first for a question about its content, goes into the prompt of
// a 4,096-token model as text next to a 300-page report that does not fit, and the question's
// note says it went in as OCR text; a question about how the page looks sends its image
// instead (the vision model's switch as before), and the note says so.
#include <QSignalSpy>
#include <QtTest>

#include "chat/conversation_prompt.h"
#include "core/documents/document_loader.h"
#include "core/documents/loaded_documents.h"
#include "core/pipeline/page_ranking.h"
#include "core/pipeline/page_sources.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

const QString kQuestion =
    QStringLiteral("Who is the statutory auditor, and what were the key audit matters?");

PromptInput inputFor(const QList<Document>& documents, const QString& question) {
    PromptInput in;
    ChatMessage message;
    message.role = ChatMessage::Role::User;
    message.text = question;
    in.chat.messages.append(message);
    in.question = question;
    in.documents = documents;
    in.contextLimit = 4096;
    return in;
}

} // namespace

class TestOcrPrompt : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("ocr-prompt-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        qunsetenv("FOLIO_OCR");
        QCoreApplication::setApplicationName(QStringLiteral("test_ocr_prompt"));
        for (const QString& name :
             {QStringLiteral("sample-report.pdf"), QStringLiteral("long-report-300.pdf")}) {
            if (!QFile::exists(sample(name))) {
                if (folio::test::isCi())
                    QFAIL(qPrintable(name + QStringLiteral(" missing under CI=true")));
                QSKIP(qPrintable(name + QStringLiteral(" missing: build folio_samples")));
            }
        }
        LoadedDocuments docs;
        QSignalSpy finished(&docs, &LoadedDocuments::ocrFinished);
        docs.read(sample(QStringLiteral("sample-report.pdf")));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        report_ = finished.at(0).at(1).value<Document>();
        QCOMPARE(report_.origin(7).source, PageOrigin::Source::Ocr);
        // The long report as loaded, without OCR (its scanned pages have no text).
        longReport_ = loadDocument(sample(QStringLiteral("long-report-300.pdf")));
        QCOMPARE(longReport_.state, Document::State::Ready);
    }

    void scannedPageRanksFirst() {
        RankingInput in;
        in.pageTexts = {report_.pageTexts, longReport_.pageTexts};
        in.question = kQuestion;
        const QList<PageRef> ranked = rankPages(in);
        // Contents pages go ahead of the scores; the first page ranked for its text is page 8.
        int first = 0;
        while (first < ranked.size() &&
               looksLikeContents(in.pageTexts[ranked[first].document][ranked[first].page - 1],
                                 int(in.pageTexts[ranked[first].document].size())))
            ++first;
        QVERIFY(first < ranked.size());
        QCOMPARE(ranked[first], (PageRef{0, 8}));
        qInfo("ranked first for its text: doc %d p. %d (after %d contents pages)",
              ranked[first].document + 1, ranked[first].page, first);
        // Without OCR the page has no text and ranks nowhere near.
        RankingInput without = in;
        without.pageTexts[0][7].clear();
        const QList<PageRef> before = rankPages(without);
        QVERIFY(before.indexOf(PageRef{0, 8}) > first);
    }

    void noteSaysOcrTextOnA4096TokenModel() {
        const PromptInput in = inputFor({report_, longReport_}, kQuestion);
        PageTokenCache cache;
        const PromptPlan plan = planPrompt(in, TokenCounter(), cache);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.pages.size(), 2);
        QVERIFY(!plan.pages[1].all()); // the 300 pages do not fit: chosen per question
        QVERIFY2(plan.pages[0].pages.contains(8), qPrintable(plan.pages[0].formatted()));
        QVERIFY(plan.promptTokens <= 4096);
        QVERIFY(plan.turns.first().content.contains(QStringLiteral("Hartley & Rowe LLP")));
        QVERIFY2(plan.contextNote.contains(QStringLiteral(
                     "Northwind Instruments plc - Annual Report 2025: scanned page 8 as OCR "
                     "text "
                     "(mean confidence ")),
                 qPrintable(plan.contextNote));
        qInfo("note: %s", qPrintable(plan.contextNote));
        qInfo("prompt: %lld tokens (estimated)", plan.promptTokens);

        // The sample report alone fits: the note still says where page 8's text came from.
        const PromptPlan alone = planPrompt(inputFor({report_}, kQuestion), TokenCounter(), cache);
        QVERIFY(alone.pages[0].all());
        QVERIFY2(alone.contextNote.startsWith(QStringLiteral("scanned page 8 as OCR text "
                                                             "(mean confidence ")),
                 qPrintable(alone.contextNote));
    }

    void questionAboutLooksSendsTheImage() {
        QVERIFY(questionAboutLooks(QStringLiteral("What does the signature look like?")));
        QVERIFY(questionAboutLooks(QStringLiteral("请描述第8页的签名")));
        QVERIFY(!questionAboutLooks(kQuestion));
        QVERIFY(!questionAboutLooks(QStringLiteral("Which figures rose in 2025?")));
        PromptInput in =
            inputFor({report_}, QStringLiteral("What does the auditor's signature look like?"));
        in.readScannedPages = true; // the embedded engine with its projector
        in.pageImageDir = folio::test::scratchDir(QStringLiteral("ocr-prompt-images"));
        PageTokenCache cache;
        const PromptPlan plan = planPrompt(in, TokenCounter(), cache);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.pageImages, 1);
        QVERIFY(!plan.turns.first().content.contains(QStringLiteral("Hartley & Rowe LLP")));
        QVERIFY2(plan.contextNote.contains(QStringLiteral("scanned page 8 as an image")),
                 qPrintable(plan.contextNote));
        QVERIFY(!plan.contextNote.contains(QStringLiteral("OCR text")));
        // The same model, a question about the content: OCR text, no image.
        in.question = kQuestion;
        in.chat.messages.last().text = kQuestion;
        const PromptPlan text = planPrompt(in, TokenCounter(), cache);
        QCOMPARE(text.pageImages, 0);
        // Issue #48 §11: either way the note says the page is scanned and what it went in as.
        QVERIFY2(text.contextNote.contains(QStringLiteral("scanned page 8 as OCR text")),
                 qPrintable(text.contextNote));
    }

    void withoutOcrTheScannedPageIsLeftOutAsBefore() {
        const Document plain = loadDocument(sample(QStringLiteral("sample-report.pdf")));
        QCOMPARE(plain.origin(7).source, PageOrigin::Source::OcrPending);
        PageTokenCache cache;
        const PromptPlan plan = planPrompt(inputFor({plain}, kQuestion), TokenCounter(), cache);
        QCOMPARE(plan.contextNote,
                 QStringLiteral("scanned page 8 left out: no vision projector is loaded"));
    }

private:
    Document report_;
    Document longReport_;
};

QTEST_MAIN(TestOcrPrompt)
#include "test_ocr_prompt.moc"
