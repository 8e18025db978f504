// The workbench's keys on the real window (issue #25): Enter sends and Shift+Enter is a new line
// (Ctrl+Enter sends when "Enter sends" is off in Settings), Ctrl+N starts a chat, Ctrl+O and
// Ctrl+, open their dialogs, Ctrl+F finds in the transcript and in the PDF preview, and files
// dropped on the window (the question box, the transcript) open as documents.
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPdfDocument>
#include <QPdfPageNavigator>
#include <QPdfView>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "chat/chat_pane.h"
#include "chat/transcript_view.h"
#include "documents/documents_pane.h"
#include "find/find_bar.h"
#include "main_window.h"
#include "settings/settings_dialog.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

QString sample(const QString& name) {
    return folio::test::builtProgram(QStringLiteral("generated/samples/") + name);
}

ChatMessage message(ChatMessage::Role role, const QString& text) {
    ChatMessage m;
    m.role = role;
    m.text = text;
    m.time = QDateTime::currentDateTime();
    return m;
}

// The class name of the modal dialog a key opens (closed again at once), "" if none opened.
QString modalOpenedBy(const std::function<void()>& press) {
    QString name;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            name = QString::fromLatin1(modal->metaObject()->className());
            if (auto* dialog = qobject_cast<QDialog*>(modal))
                dialog->reject();
            else
                modal->close();
        }
    });
    poll.start();
    QTimer::singleShot(3000, &poll, &QTimer::stop);
    press();
    QTest::qWait(50);
    return name;
}

} // namespace

class TestShortcuts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("shortcuts-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_shortcuts"));
    }

    void init() {
        QSettings().clear();
        window_ = std::make_unique<MainWindow>();
        window_->show();
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        input_ = window_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        QVERIFY(input_);
        // Sending needs a model; the sent question is only watched here (no engine answers).
        window_->chatPane()->setModelReady(true, QString());
        disconnectController();
    }

    void cleanup() { window_.reset(); }

    void enterSendsShiftEnterIsANewLine() {
        QSignalSpy sent(window_->chatPane(), &ChatPane::sendRequested);
        input_->setFocus();
        QTest::keyClicks(input_, QStringLiteral("first line"));
        QTest::keyClick(input_, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(input_, QStringLiteral("second line"));
        QCOMPARE(sent.count(), 0);
        QCOMPARE(input_->toPlainText(), QStringLiteral("first line\nsecond line"));
        QTest::keyClick(input_, Qt::Key_Return);
        QCOMPARE(sent.count(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), QStringLiteral("first line\nsecond line"));
        QVERIFY(input_->toPlainText().isEmpty());
        QVERIFY(input_->placeholderText().contains(QStringLiteral("Shift+Enter")));
    }

    void enterIsANewLineWhenSettingsSaySo() {
        QSettings().setValue(QStringLiteral("chat/enterSends"), false);
        window_ = std::make_unique<MainWindow>();
        window_->show();
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        input_ = window_->findChild<QPlainTextEdit*>(QStringLiteral("chatInput"));
        window_->chatPane()->setModelReady(true, QString());
        disconnectController();
        QSignalSpy sent(window_->chatPane(), &ChatPane::sendRequested);
        input_->setFocus();
        QTest::keyClicks(input_, QStringLiteral("a"));
        QTest::keyClick(input_, Qt::Key_Return);
        QTest::keyClicks(input_, QStringLiteral("b"));
        QCOMPARE(sent.count(), 0);
        QCOMPARE(input_->toPlainText(), QStringLiteral("a\nb"));
        QTest::keyClick(input_, Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(sent.count(), 1);
        QCOMPARE(sent.at(0).at(0).toString(), QStringLiteral("a\nb"));
    }

    void settingsDialogHasTheEnterChoice() {
        AppSettings s = AppSettings::load();
        QVERIFY(s.enterSends);
        s.enterSends = false;
        SettingsDialog dialog(s);
        auto* check = dialog.findChild<QCheckBox*>(QStringLiteral("enterSendsCheck"));
        QVERIFY(check);
        QVERIFY(!check->isChecked());
        check->setChecked(true);
        QVERIFY(dialog.settings().enterSends);
    }

    void ctrlNStartsANewChat() {
        ChatPane* chat = window_->chatPane();
        chat->appendMessage(ChatMessage::Role::Notice, QStringLiteral("an earlier chat"));
        const qsizetype before = chat->chats().size();
        input_->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_N, Qt::ControlModifier);
        QCOMPARE(chat->chats().size(), before + 1);
        QVERIFY(chat->messages().isEmpty());
        QCOMPARE(QApplication::focusWidget(), input_);
    }

    void ctrlOAndCtrlCommaOpenTheirDialogs() {
        input_->setFocus();
        QCOMPARE(modalOpenedBy(
                     [this] { QTest::keyClick(window_.get(), Qt::Key_O, Qt::ControlModifier); }),
                 QStringLiteral("QFileDialog"));
        window_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        input_->setFocus();
        QCOMPARE(modalOpenedBy([this] {
                     QTest::keyClick(window_.get(), Qt::Key_Comma, Qt::ControlModifier);
                 }),
                 QStringLiteral("folio::ui::SettingsDialog"));
    }

    void ctrlFFindsInTheTranscript() {
        auto* view = window_->findChild<TranscriptView*>(QStringLiteral("chatTranscript"));
        view->showMessages(
            {message(ChatMessage::Role::User, QStringLiteral("What was revenue?")),
             message(ChatMessage::Role::Assistant, QStringLiteral("Revenue was $4.5 billion."))},
            false);
        input_->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_F, Qt::ControlModifier);
        auto* bar = window_->findChild<FindBar*>(QStringLiteral("transcriptFindBar"));
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QCOMPARE(QApplication::focusWidget(), bar->edit());
        QTest::keyClicks(bar->edit(), QStringLiteral("revenue"));
        QCOMPARE(view->textCursor().selectedText().toLower(), QStringLiteral("revenue"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
        const int first = view->textCursor().selectionStart();
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QCOMPARE(bar->status(), QStringLiteral("2 of 2"));
        QVERIFY(view->textCursor().selectionStart() > first);
        QTest::keyClick(bar->edit(), Qt::Key_Return); // wraps around
        QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
        QTest::keyClicks(bar->edit(), QStringLiteral("xyz"));
        QCOMPARE(bar->status(), QStringLiteral("not found"));
        QTest::keyClick(bar->edit(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
    }

    void ctrlFFindsInThePdfPreview() {
        const QString pdf = sample(QStringLiteral("sample-report.pdf"));
        QVERIFY2(QFile::exists(pdf), "sample report not generated");
        QSignalSpy idle(window_.get(), &MainWindow::idle);
        window_->openDocuments({pdf});
        QTRY_VERIFY_WITH_TIMEOUT(!window_->isBusy(), 60000);
        auto* view = window_->documentsPane()->findChild<QPdfView*>();
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible() && view->document() && view->document()->pageCount() > 3);
        view->pageNavigator()->jump(0, QPointF(), view->zoomFactor());
        view->setFocus();
        QTest::keyClick(window_.get(), Qt::Key_F, Qt::ControlModifier);
        auto* bar = window_->findChild<FindBar*>(QStringLiteral("pdfFindBar"));
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QVERIFY(!window_->findChild<FindBar*>(QStringLiteral("transcriptFindBar"))->isVisible());
        // A word from a late page of the sample report.
        int lastPage = -1;
        const QString word = lateWord(view->document(), &lastPage);
        QVERIFY2(!word.isEmpty() && lastPage > 0, "no Latin word on a page after the first");
        QTest::keyClicks(bar->edit(), word);
        QTRY_VERIFY(bar->status().contains(QStringLiteral(" of ")));
        int page = view->pageNavigator()->currentPage();
        for (int i = 0; i < 100 && page != lastPage; ++i) {
            QTest::qWait(20); // the search goes on page by page in the background
            QTest::keyClick(bar->edit(), Qt::Key_Return);
            page = view->pageNavigator()->currentPage();
        }
        QCOMPARE(page, lastPage);
    }

    void droppedFilesOpen() {
        const QString pdf = sample(QStringLiteral("sample-report.pdf"));
        QVERIFY(QFile::exists(pdf));
        DocumentsPane* docs = window_->documentsPane();
        window_->chatPane()->newChat(); // the chat of the test before has the report
        const qsizetype before = docs->documents().size();
        QCOMPARE(before, 0);
        auto drop = [](QWidget* target, const QString& path) {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(path)});
            const QPoint at = target->rect().center();
            QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(target, &enter);
            if (!enter.isAccepted())
                return false;
            QDropEvent dropEvent(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(target, &dropEvent);
            return dropEvent.isAccepted();
        };
        // On the question box: the file opens, its path is not pasted.
        QVERIFY(drop(input_->viewport(), pdf));
        QVERIFY(input_->toPlainText().isEmpty());
        QTRY_COMPARE(docs->documents().size(), before + 1);
        // On the transcript (read-only: the window takes it).
        const QString png = sample(QStringLiteral("revenue-chart.png"));
        if (QFile::exists(png)) {
            auto* view = window_->findChild<TranscriptView*>(QStringLiteral("chatTranscript"));
            QVERIFY(drop(view->viewport(), png));
            QTRY_COMPARE(docs->documents().size(), before + 2);
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window_->isBusy(), 60000);
    }

private:
    // No engine: a sent question stays a signal (the controller would ask the worker).
    void disconnectController() {
        for (QObject* o : window_->children())
            if (QString::fromLatin1(o->metaObject()->className()) ==
                QLatin1String("folio::ui::ChatController"))
                QObject::disconnect(window_->chatPane(), &ChatPane::sendRequested, o, nullptr);
    }

    // A Latin word of the last page that has one (*page: that page, 0-based).
    static QString lateWord(QPdfDocument* doc, int* page) {
        for (int p = doc->pageCount() - 1; p > 0; --p) {
            const QString text = doc->getAllText(p).text();
            for (const QString& w :
                 text.split(QRegularExpression(QStringLiteral("[^A-Za-z]+")), Qt::SkipEmptyParts))
                if (w.size() >= 6) {
                    *page = p;
                    return w;
                }
        }
        return {};
    }

    std::unique_ptr<MainWindow> window_;
    QPlainTextEdit* input_ = nullptr;
};

QTEST_MAIN(TestShortcuts)
#include "test_shortcuts.moc"
