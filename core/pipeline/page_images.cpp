#include "core/pipeline/page_images.h"

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QImageReader>
#include <QSaveFile>
#include <QStandardPaths>

namespace folio::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui::PageImages", text);
}

int tokensOf(QSize canvas, const PageRenderParams& params) {
    const int a = params.align();
    return a > 0 ? (canvas.width() / a) * (canvas.height() / a) : 0;
}

} // namespace

QString defaultPageImageDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/page-images");
}

QString pageImagePath(const QString& fingerprint, int page, const PageRenderParams& params,
                      const QString& dir) {
    const QString name = QStringLiteral("%1-p%2-%3x%4-%5.png")
                             .arg(fingerprint.isEmpty() ? QStringLiteral("unknown") : fingerprint)
                             .arg(page + 1)
                             .arg(params.patchSize)
                             .arg(params.merge)
                             .arg(params.maxTokens);
    return QDir(dir).filePath(name);
}

PageImageResult scannedPageImage(const QString& pdfPath, const QString& fingerprint, int page,
                                 const PageRenderParams& params, const QString& dir) {
    PageImageResult out;
    const QString path = pageImagePath(fingerprint, page, params, dir);
    if (!fingerprint.isEmpty()) {
        QImageReader existing(path);
        const QSize size = existing.size();
        if (size.isValid() && size.width() % params.align() == 0 &&
            size.height() % params.align() == 0) {
            out.image = {path, tokensOf(size, params)};
            return out;
        }
    }
    const RenderedPage rendered = renderPdfPage(pdfPath, page, params);
    if (!rendered.ok()) {
        out.error = rendered.error;
        return out;
    }
    if (!QDir().mkpath(dir)) {
        out.error = tr("Cannot create the folder of rendered pages %1: check its permissions and "
                       "free space.")
                        .arg(dir);
        return out;
    }
    const QImage image = rendered.imageView();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        out.error = tr("Cannot save the rendered page %1 of %2 in %3: check the free space.")
                        .arg(page + 1)
                        .arg(pdfPath, dir);
        return out;
    }
    out.image = {path, rendered.tokens(params)};
    return out;
}

} // namespace folio::ui
