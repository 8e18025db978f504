#include "ocr/ocr_job.h"

#include "core/ocr/char_accuracy.h"
#include "core/ocr/ocr_runner.h"
#include "core/ocr/page_classify.h"
#include "core/ocr/scanned_pdf.h"
#include "core/ocr/script_detect.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMap>
#include <QPdfDocument>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>
#include <set>

namespace folio::ocrjob {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// Rendering and drawing text need fonts, so a GUI application object; the CLI has no display.
std::unique_ptr<QGuiApplication> ensureApplication() {
    if (QCoreApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "folio-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

struct Collected {
    QMap<int, ocr::PageOutcome> outcomes;
    bool cancelled = false;
};

// Runs `job` to the end in this thread's event loop; progress on stderr unless quiet.
Collected runToEnd(const ocr::OcrJob& job, bool quiet, ocr::OcrError& startError) {
    Collected c;
    ocr::OcrRunner runner;
    QEventLoop loop;
    QObject::connect(&runner, &ocr::OcrRunner::pageFinished,
                     [&](const ocr::PageOutcome& o) { c.outcomes.insert(o.page, o); });
    QObject::connect(&runner, &ocr::OcrRunner::progress, [&](int done, int total, double eta) {
        if (quiet)
            return;
        if (eta >= 0)
            std::fprintf(stderr, "\rOCR: %d/%d pages, ETA %.0f s   ", done, total, eta);
        else
            std::fprintf(stderr, "\rOCR: %d/%d pages   ", done, total);
        if (done == total)
            std::fprintf(stderr, "\n");
    });
    QObject::connect(&runner, &ocr::OcrRunner::finished, [&](bool cancelled) {
        c.cancelled = cancelled;
        loop.quit();
    });
    startError = runner.start(job);
    if (!startError)
        loop.exec();
    return c;
}

} // namespace

std::vector<int> parsePageRanges(const std::string& spec, int count, std::string& error) {
    std::vector<int> pages;
    if (spec.empty()) {
        for (int p = 0; p < count; ++p)
            pages.push_back(p);
        return pages;
    }
    std::set<int> seen;
    for (const QString& part : q(spec).split(QLatin1Char(','))) {
        const QString t = part.trimmed();
        const qsizetype dash = t.indexOf(QLatin1Char('-'));
        bool ok1 = true, ok2 = true;
        int from = 0, to = 0;
        if (dash < 0) {
            from = to = t.toInt(&ok1);
        } else {
            from = t.left(dash).trimmed().toInt(&ok1);
            const QString right = t.mid(dash + 1).trimmed();
            to = right.isEmpty() ? count : right.toInt(&ok2);
        }
        if (!ok1 || !ok2 || from < 1 || to < from) {
            error = "'" + spec + "' is not a page range (give e.g. 3-7, 2,5 or 4-)";
            return {};
        }
        if (to > count) {
            error = "page " + std::to_string(to) + " is past the end (the document has " +
                    std::to_string(count) + " pages)";
            return {};
        }
        for (int p = from; p <= to; ++p)
            if (seen.insert(p).second)
                pages.push_back(p - 1);
    }
    return pages;
}

int runPages(const PagesOptions& o, std::string& error) {
    const auto app = ensureApplication();
    if (o.ocr != "auto" && o.ocr != "always" && o.ocr != "off") {
        error = "--ocr must be auto, always or off (not '" + o.ocr + "')";
        return 1;
    }
    QString why;
    if (!ocr::validLanguageSpec(q(o.lang), &why)) {
        error = why.toStdString();
        return 1;
    }
    const QString path = q(o.pdf);
    if (!QFileInfo::exists(path)) {
        error = o.pdf + ": file not found";
        return 1;
    }
    QPdfDocument pdf;
    if (pdf.load(path) != QPdfDocument::Error::None) {
        error = o.pdf + ": not a readable PDF";
        return 1;
    }
    const std::vector<int> pages = parsePageRanges(o.pages, pdf.pageCount(), error);
    if (pages.empty())
        return 1;

    struct Page {
        int index;
        QString layerText;
        ocr::TextLayer layer;
        bool ocr;
    };
    std::vector<Page> list;
    ocr::OcrJob job;
    job.pdfPath = path;
    job.languages = {q(o.lang)};
    job.threads = o.threads;
    job.useCache = !o.noCache;
    job.cacheDir = q(o.cacheDir);
    // The document's script from its text layer (all its pages), when it has enough text: the
    // OCR model for its scanned pages (languagesForText).
    QString layerSample;
    for (int p = 0; p < pdf.pageCount() && layerSample.size() < 20000; ++p) {
        const QString text = pdf.getAllText(p).text();
        if (!ocr::needsOcr(text, pdf.pagePointSize(p)))
            layerSample += text;
    }
    if (layerSample.size() >= 200)
        job.languageHint = ocr::languagesForText(layerSample);
    for (const int p : pages) {
        const QString text = pdf.getAllText(p).text();
        const ocr::TextLayer layer = ocr::classifyTextLayer(text, pdf.pagePointSize(p));
        const bool read = o.ocr == "always" || (o.ocr == "auto" && layer != ocr::TextLayer::Good);
        list.push_back({p, text, layer, read});
        if (read)
            job.pages.append(p);
    }
    Collected ocrs;
    if (!job.pages.isEmpty()) {
        ocr::OcrError e;
        ocrs = runToEnd(job, o.quiet, e);
        if (e) {
            error = e.message.toStdString();
            return 1;
        }
    }
    int failed = 0;
    for (const Page& p : list) {
        QString header, body;
        if (p.ocr) {
            const ocr::PageOutcome& out = ocrs.outcomes[p.index];
            if (out.error) {
                header = QStringLiteral("OCR failed");
                body = out.error.message;
                ++failed;
            } else {
                header = QStringLiteral("OCR (%1, mean confidence %2%3)")
                             .arg(out.ocr.languages)
                             .arg(double(out.ocr.meanConfidence), 0, 'f', 1)
                             .arg(out.fromCache ? QStringLiteral(", cached") : QString());
                body = out.ocr.text;
            }
            if (!out.cacheNote.isEmpty() && !o.quiet)
                std::fprintf(stderr, "note: %s\n", qPrintable(out.cacheNote));
        } else if (p.layer == ocr::TextLayer::Good) {
            header = QStringLiteral("text layer");
            body = p.layerText;
        } else {
            header = QStringLiteral("text layer (%1; OCR off)")
                         .arg(QString::fromLatin1(ocr::textLayerName(p.layer)));
            body = p.layerText;
        }
        std::printf("=== page %d of %d · %s ===\n%s\n", p.index + 1, pdf.pageCount(),
                    header.toUtf8().constData(),
                    body.replace(QLatin1String("\r\n"), QLatin1String("\n"))
                        .replace(QLatin1Char('\r'), QLatin1Char('\n'))
                        .trimmed()
                        .toUtf8()
                        .constData());
    }
    std::fflush(stdout);
    if (failed > 0) {
        error = std::to_string(failed) + " page(s) could not be read by OCR";
        return 1;
    }
    return 0;
}

int runBenchOcr(const BenchOptions& o, std::string& error) {
    const auto app = ensureApplication();
    if (o.pages < 1 || o.threads < 1) {
        error = "--pages and --threads must be at least 1";
        return 1;
    }
    QTemporaryDir dir;
    if (!dir.isValid()) {
        error = "cannot create a temporary folder";
        return 1;
    }
    struct Set {
        const char* name;
        QString font;
        QString (*text)(int);
    };
    const Set sets[] = {{"english", QStringLiteral("DejaVu Serif"), &ocr::englishScanText},
                        {"chinese", QStringLiteral("WenQuanYi Micro Hei"), &ocr::chineseScanText}};
    std::printf("bench-ocr: %d generated scanned pages (A4, 200 dpi scans read at 300 dpi) per "
                "language, %d threads, languages %s\n",
                o.pages, o.threads, o.lang.c_str());
    int totalPages = 0;
    double totalSeconds = 0;
    for (const Set& set : sets) {
        QList<ocr::ScanPage> scans;
        for (int i = 0; i < o.pages; ++i)
            scans.append({set.text(i), set.font, 12});
        const QString pdf = dir.filePath(QString::fromLatin1(set.name) + QStringLiteral(".pdf"));
        QString why;
        if (!ocr::writeScannedPdf(pdf, scans, &why)) {
            error = why.toStdString();
            return 1;
        }
        ocr::OcrJob job;
        job.pdfPath = pdf;
        job.languages = {q(o.lang)};
        job.threads = o.threads;
        job.useCache = false;
        for (int i = 0; i < o.pages; ++i)
            job.pages.append(i);
        QElapsedTimer clock;
        clock.start();
        ocr::OcrError e;
        const Collected c = runToEnd(job, true, e);
        const double seconds = clock.nsecsElapsed() / 1e9;
        if (e) {
            error = e.message.toStdString();
            return 1;
        }
        double accuracy = 0, confidence = 0;
        QMap<QString, int> languages; // pages read with each language list
        for (const ocr::PageOutcome& out : c.outcomes) {
            if (out.error) {
                error = out.error.message.toStdString();
                return 1;
            }
            accuracy += ocr::characterAccuracy(set.text(out.page), out.ocr.text);
            confidence += out.ocr.meanConfidence;
            ++languages[out.ocr.languages];
        }
        QStringList readAs;
        for (auto it = languages.cbegin(); it != languages.cend(); ++it)
            readAs << QStringLiteral("%1 x%2").arg(it.key()).arg(it.value());
        std::printf("  %-8s %2d pages  %6.1f s  %5.3f pages/s  character accuracy %.4f  mean "
                    "confidence %.1f  read as %s\n",
                    set.name, o.pages, seconds, o.pages / seconds, accuracy / o.pages,
                    confidence / o.pages, qPrintable(readAs.join(QStringLiteral(", "))));
        totalPages += o.pages;
        totalSeconds += seconds;
    }
    std::printf("  all      %2d pages  %6.1f s  %5.3f pages/s at %d threads\n", totalPages,
                totalSeconds, totalPages / totalSeconds, o.threads);
    return 0;
}

} // namespace folio::ocrjob
