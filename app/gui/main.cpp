// folio: the workbench GUI.
//   folio [FILES...] [--model M.gguf] [--mmproj P.gguf] [--attach-page PDF:PAGE[:X,Y,W,H]]
//         [--ask TEXT] [--quit-after-answer]
//         [--screenshot OUT.png] [--screenshot-delay MS] [--screenshot-settings OUT.png]
// With --screenshot, the window is saved once it is shown and every document has loaded (with
// --ask: once the answer is complete), then the program exits (used by tests, docs and bug
// reports). Without --model, the model of the last session is loaded again. --help and
// --version need no display.
#include "ask_when_idle.h"
#include "chat/question_image_attacher.h"
#include "i18n/translations.h"
#include "main_window.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"

#include "folio/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

void nameTheApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationName(QStringLiteral("folio"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(folio::version_string()));
}

// folio's command line, declared once for both parsers of main().
struct Options {
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to <png> once idle, then exit."),
                                  QStringLiteral("png")};
    QCommandLineOption model{QStringLiteral("model"), QStringLiteral("GGUF model to open."),
                             QStringLiteral("gguf")};
    QCommandLineOption ask{
        QStringLiteral("ask"),
        QStringLiteral("Once the model is loaded, ask <question> (with --screenshot: "
                       "the shot is taken when the answer is complete)."),
        QStringLiteral("question")};
    QCommandLineOption mmproj{QStringLiteral("mmproj"),
                              QStringLiteral("Vision projector GGUF (Kimi-VL) for images."),
                              QStringLiteral("gguf")};
    QCommandLineOption quitAfterAnswer{
        QStringLiteral("quit-after-answer"),
        QStringLiteral("With --ask: exit once the answer is complete (status 0; 1 on an error).")};
    QCommandLineOption screenshotDelay{
        QStringLiteral("screenshot-delay"),
        QStringLiteral("Wait <ms> more before the screenshot (default 1500), e.g. to show "
                       "documents being read in the background."),
        QStringLiteral("ms"), QStringLiteral("1500")};
    QCommandLineOption screenshotSettings{
        QStringLiteral("screenshot-settings"),
        QStringLiteral("Like --screenshot, but of the Settings dialog's Document caches tab."),
        QStringLiteral("png")};
    QCommandLineOption attachPage{
        QStringLiteral("attach-page"),
        QStringLiteral("Attach page <page> of <pdf> to the next question, or a part of it given "
                       "in fractions of the page (e.g. report.pdf:3:0.1,0.2,0.5,0.3)."),
        QStringLiteral("pdf:page[:x,y,w,h]")};

    explicit Options(QCommandLineParser& parser) {
        parser.setApplicationDescription(
            QStringLiteral("Folio: ask questions about long reports and charts."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(screenshotDelay);
        parser.addOption(screenshotSettings);
        parser.addOption(screenshot);
        parser.addOption(model);
        parser.addOption(mmproj);
        parser.addOption(ask);
        parser.addOption(quitAfterAnswer);
        parser.addOption(attachPage);
        parser.addPositionalArgument(QStringLiteral("files"),
                                     QStringLiteral("PDFs and images to open."),
                                     QStringLiteral("[files...]"));
    }
};

// Whether an argument before any "--" is one of the help or version options (a cheap filter: the
// parser decides, e.g. "--ask -v" asks "-v").
bool mayAskHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
        for (const char* o : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], o) == 0)
                return true;
    return false;
}

// Whether an argument before any "--" looks like one of Qt's own options (-platform, -style,
// -reverse ...: one dash, a word), which only QApplication knows and takes out.
bool hasQtStyleOption(int argc, char** argv) {
    for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
        if (argv[i][0] == '-' && argv[i][1] != '-' && argv[i][1] != 0 && argv[i][2] != 0)
            return true;
    return false;
}

// --help and --version print and exit before any window, so they must not need a display, but
// QApplication cannot be made without one (Qt's platform, xcb or wayland, aborts the program).
// They are answered here by a QCoreApplication, which needs no platform (issue 48, item 13), as
// is a usage error beside them ("--help --bogus": exit 1). Returns when the arguments ask
// neither, or carry Qt's own options, which the QApplication then reads.
void answerHelpOrVersion(int argc, char** argv) {
    if (!mayAskHelpOrVersion(argc, argv) || hasQtStyleOption(argc, argv))
        return;
    QCoreApplication core(argc, argv);
    nameTheApplication();
    folio::ui::installTranslations(&core);
    QCommandLineParser parser;
    const Options options(parser);
    if (!parser.parse(QCoreApplication::arguments()) || parser.isSet(QStringLiteral("help")) ||
        parser.isSet(QStringLiteral("help-all")) || parser.isSet(QStringLiteral("version")))
        parser.process(core); // prints the error, the help or the version, and exits
}

} // namespace

int main(int argc, char** argv) {
    answerHelpOrVersion(argc, argv);
    QApplication app(argc, argv);
    nameTheApplication();
    QApplication::setApplicationDisplayName(QStringLiteral("Folio"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/folio/icons/folio.svg")));

    // The system locale's language (LANGUAGE / LC_ALL / LANG), where Folio has a translation.
    folio::ui::installTranslations(&app);

    QCommandLineParser parser;
    const Options o(parser);
    parser.process(app);

    folio::ui::MainWindow window;
    window.show();
    window.openDocuments(parser.positionalArguments());
    for (const QString& spec : parser.values(o.attachPage)) {
        // pdf:page[:x,y,w,h]; the PDF's own name may hold ':' — split from the right.
        QStringList parts = spec.split(QLatin1Char(':'));
        QRectF region;
        if (parts.size() >= 3 && parts.last().count(QLatin1Char(',')) == 3) {
            const QStringList r = parts.takeLast().split(QLatin1Char(','));
            region = QRectF(r[0].toDouble(), r[1].toDouble(), r[2].toDouble(), r[3].toDouble());
        }
        bool ok = parts.size() >= 2;
        const int page = ok ? parts.takeLast().toInt(&ok) : 0;
        if (!ok || page < 1) {
            std::fprintf(stderr, "error: --attach-page wants pdf:page[:x,y,w,h], not %s\n",
                         qPrintable(spec));
            return 2;
        }
        window.imageAttacher()->attachPage(parts.join(QLatin1Char(':')), page, region);
    }
    if (parser.isSet(o.mmproj))
        window.setMmproj(parser.value(o.mmproj));
    if (parser.isSet(o.model))
        window.openModel(parser.value(o.model));
    else
        window.loadSavedModel();
    if (parser.isSet(o.quitAfterAnswer) && !parser.isSet(o.screenshot)) {
        if (!parser.isSet(o.ask)) {
            std::fprintf(stderr, "error: --quit-after-answer needs --ask\n");
            return 2;
        }
        QObject::connect(
            &window, &folio::ui::MainWindow::answerFinished, &window,
            [](const QString& stopReason) {
                QApplication::exit(stopReason == QLatin1String("error") ? 1 : 0);
            },
            Qt::SingleShotConnection);
    }

    if (parser.isSet(o.screenshot) || parser.isSet(o.screenshotSettings)) {
        const bool settingsShot = parser.isSet(o.screenshotSettings);
        const QString out = parser.value(settingsShot ? o.screenshotSettings : o.screenshot);
        const int delay = parser.value(o.screenshotDelay).toInt();
        auto shoot = [&window, out, delay, settingsShot] {
            // Let pending paints (PDF page renders, chart) settle before grabbing.
            QTimer::singleShot(delay, &window, [&window, out, settingsShot] {
                QWidget* target = &window;
                if (settingsShot) {
                    auto* dialog =
                        new folio::ui::SettingsDialog(folio::ui::AppSettings::load(), &window);
                    if (auto* tabs = dialog->findChild<QTabWidget*>(QStringLiteral("settingsTabs")))
                        tabs->setCurrentIndex(1);
                    dialog->resize(760, 560);
                    dialog->show();
                    QApplication::processEvents();
                    target = dialog;
                }
                const bool ok = target->grab().save(out, "PNG");
                if (!ok)
                    std::fprintf(stderr, "error: cannot write screenshot %s\n", qPrintable(out));
                QApplication::exit(ok ? 0 : 1);
            });
        };
        if (parser.isSet(o.ask))
            QObject::connect(&window, &folio::ui::MainWindow::answerFinished, &window, shoot,
                             Qt::SingleShotConnection);
        else if (window.isBusy())
            QObject::connect(&window, &folio::ui::MainWindow::idle, &window, shoot,
                             Qt::SingleShotConnection);
        else
            shoot();
    }
    if (parser.isSet(o.ask)) {
        auto* asker = new folio::ui::AskWhenIdle(&window, parser.value(o.ask));
        QObject::connect(asker, &folio::ui::AskWhenIdle::noModel, &window, [] {
            std::fprintf(stderr, "error: --ask needs a loaded model (--model)\n");
            QApplication::exit(1);
        });
    }
    return app.exec();
}
