// Citations follow their document's identity, not its place (issue #48 §1): an answer keeps the
// chat's PDFs as they were when it was asked for (fingerprints, in prompt order), so after a
// document is removed or the documents are reordered its "[doc N, p. K]" still opens the
// document it was written about, or says that document has left the chat — never another
// document at that place. Through the real ChatPane (its transcript's links and its chat file),
// the chat export, and the resolution itself.
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTextBlock>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "core/chat/chat_json.h"
#include "core/chat/citations.h"
#include "core/export/transcript_export.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// The citation links of the transcript, in order.
QStringList hrefs(const QTextDocument* doc) {
    QStringList out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor() &&
                it.fragment().charFormat().anchorHref().startsWith(QStringLiteral("folio:cite/")))
                out << it.fragment().charFormat().anchorHref();
    return out;
}

ChatDocument pdf(const QString& name, int pages) {
    ChatDocument d;
    d.path = QStringLiteral("/reports/") + name + QStringLiteral(".pdf");
    d.fingerprint = QStringLiteral("fp-") + name;
    d.title = name;
    d.pageCount = pages;
    return d;
}

const QString kAnswer = QStringLiteral("Exports rose [doc 1, p. 5]; imports fell [doc 2, p. 7].");

} // namespace

class TestCitedDocuments : public QObject {
    Q_OBJECT
private slots:
    void resolvesByFingerprint() {
        const QList<CitationDocument> current{
            {QStringLiteral("B"), QStringLiteral("B.pdf"), 40, QStringLiteral("fp-B")},
            {QStringLiteral("C"), QStringLiteral("C.pdf"), 9, QStringLiteral("fp-C")}};
        const QList<CitedDocument> cited{{QStringLiteral("fp-A"), QStringLiteral("A"), 12},
                                         {QStringLiteral("fp-B"), QStringLiteral("B"), 40}};
        const CitationTargets resolved = resolveCitedDocuments(cited, {current, {3, 5}});
        const QList<CitationDocument>& docs = resolved.documents;
        QCOMPARE(resolved.rows, (QList<int>{kRemovedDocument, 3}));
        QCOMPARE(docs.size(), 2);
        QCOMPARE(docs[0].title, QStringLiteral("A"));
        QCOMPARE(docs[0].pageCount, 12);
        QCOMPARE(docs[1].fileName, QStringLiteral("B.pdf"));
    }

    void answerKeepsItsDocuments() {
        ChatPane pane;
        pane.openStore(folio::test::scratchDir(QStringLiteral("cited-documents")));
        pane.resize(800, 600);
        pane.show();
        pane.setDocuments({pdf(QStringLiteral("A"), 12), pdf(QStringLiteral("B"), 40)});
        pane.appendMessage(ChatMessage::Role::User, QStringLiteral("What changed?"));
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::Answering);
        pane.appendMessage(ChatMessage::Role::Assistant, kAnswer);
        pane.setWork(pane.currentChat().id, ChatLibrary::Work::None);
        // Recorded with the answer: the chat's PDFs as they were.
        const QList<CitedDocument> recorded = pane.messages().last().citedDocuments;
        QCOMPARE(recorded.size(), 2);
        QCOMPARE(recorded[0].fingerprint, QStringLiteral("fp-A"));
        QCOMPARE(recorded[1].fingerprint, QStringLiteral("fp-B"));
        QTRY_COMPARE(hrefs(pane.transcript()->document()),
                     (QStringList{citationUrl(0, 5), citationUrl(1, 7)}));

        // A is removed: B is the chat's first document now. "[doc 2, …]" still opens B; "[doc 1,
        // …]" says A is gone instead of opening B.
        pane.setDocuments({pdf(QStringLiteral("B"), 40)});
        QTRY_COMPARE(hrefs(pane.transcript()->document()),
                     (QStringList{citationUrl(kRemovedDocument, 5), citationUrl(0, 7)}));
        QSignalSpy activated(&pane, &ChatPane::citationActivated);
        Q_EMIT pane.transcript()->anchorClicked(QUrl(citationUrl(kRemovedDocument, 5)));
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.first().at(0).toInt(), kRemovedDocument);

        // Reordered, with A back (same contents): each citation follows its document.
        pane.setDocuments({pdf(QStringLiteral("B"), 40), pdf(QStringLiteral("A"), 12)});
        QTRY_COMPARE(hrefs(pane.transcript()->document()),
                     (QStringList{citationUrl(1, 5), citationUrl(0, 7)}));

        // Saved with the chat and read back.
        const QJsonObject json = chatToJson(pane.currentChat());
        const QJsonArray messages = json.value(QStringLiteral("messages")).toArray();
        const QJsonArray cited =
            messages.last().toObject().value(QStringLiteral("cited_documents")).toArray();
        QCOMPARE(cited.size(), 2);
        QCOMPARE(cited[0].toObject().value(QStringLiteral("fingerprint")).toString(),
                 QStringLiteral("fp-A"));
        ChatSession back;
        QString error;
        QVERIFY2(chatFromJson(json, back, &error), qPrintable(error));
        QCOMPARE(back.messages.last().citedDocuments, recorded);
        pane.waitForSaves();
    }

    void olderAnswersUseTheCurrentDocuments() {
        // A chat saved before answers kept their documents: "doc N" is the chat's Nth PDF now.
        ChatSession chat = ChatSession::create();
        chat.documents = {pdf(QStringLiteral("B"), 40), pdf(QStringLiteral("A"), 12)};
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = kAnswer;
        chat.messages = {answer};
        QJsonObject json = chatToJson(chat);
        ChatSession back;
        QVERIFY(chatFromJson(json, back, nullptr));
        QVERIFY(back.messages.last().citedDocuments.isEmpty());
        const QString html = transcriptToHtml(back, ExportContext{});
        QVERIFY2(html.contains(QStringLiteral("/reports/B.pdf#page=5")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("/reports/A.pdf#page=7")), qPrintable(html));
    }

    void exportLinksTheCitedDocument() {
        ChatSession chat = ChatSession::create();
        chat.documents = {pdf(QStringLiteral("B"), 40)}; // A was removed after the answer
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.text = kAnswer;
        answer.citedDocuments =
            citableDocuments({pdf(QStringLiteral("A"), 12), pdf(QStringLiteral("B"), 40)});
        chat.messages = {answer};
        const QString html = transcriptToHtml(chat, ExportContext{});
        QVERIFY2(html.contains(QStringLiteral("/reports/B.pdf#page=7")), qPrintable(html));
        // A's citation is text, not a link to B (or to anything).
        QVERIFY2(!html.contains(QStringLiteral("#page=5")), qPrintable(html));
        QVERIFY2(html.contains(QStringLiteral("[doc 1, p. 5]")), qPrintable(html));
    }
};

QTEST_MAIN(TestCitedDocuments)
#include "test_cited_documents.moc"
