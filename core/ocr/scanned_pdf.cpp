#include "core/ocr/scanned_pdf.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <array>

namespace folio::ocr {

namespace {

constexpr double kA4WidthInch = 8.27, kA4HeightInch = 11.69;
constexpr double kMarginInch = 0.9;

const std::array kEnglish = {
    QStringLiteral(
        "Report of the directors\n\n"
        "Group revenue for the year rose to 412 million pounds, an increase of eleven percent on "
        "the previous year, driven by strong demand for precision instruments in Europe and "
        "North America. Operating profit increased to 58 million pounds and the operating "
        "margin improved by one percentage point.\n\n"
        "The board recommends a final dividend of 14.2 pence per share, bringing the total for "
        "the year to 21.0 pence. Net cash at the year end was 96 million pounds after funding "
        "the acquisition of Halden Optics and capital expenditure of 31 million pounds.\n\n"
        "Our priorities for the coming year are unchanged: to invest in new products, to "
        "improve the reliability of our supply chain, and to return surplus capital to "
        "shareholders."),
    QStringLiteral(
        "Statement on internal control\n\n"
        "The directors are responsible for the system of internal control and for reviewing its "
        "effectiveness. Such a system is designed to manage rather than eliminate the risk of "
        "failure to achieve business objectives, and can only provide reasonable assurance "
        "against material misstatement or loss.\n\n"
        "During the year the audit committee met five times. It reviewed the interim and annual "
        "financial statements, the external auditor's findings, the work of the internal audit "
        "team and the register of principal risks.\n\n"
        "No significant failings or weaknesses were identified during the year, and the board "
        "is satisfied that appropriate actions are in place for the matters that were raised."),
};

const std::array kChinese = {
    QStringLiteral(
        "关于进一步优化政务服务提升行政效能的通知\n\n"
        "各区人民政府，市政府各部门，各有关单位：\n\n"
        "为深入贯彻落实国务院关于优化营商环境的决策部署，进一步提升政务服务标准化、规范化、便利"
        "化水平，经市政府同意，现就有关事项通知如下。\n\n"
        "一、推进高频事项网上办理。各部门要全面梳理本单位政务服务事项，对企业和群众办理频次较高"
        "的事项，原则上实现全程网上办理，办理时限比法定时限压缩一半以上。\n\n"
        "二、加强数据共享和业务协同。依托全市统一的数据共享平台，推动证照信息互认共用，凡是能够"
        "通过共享获取的材料，一律不再要求申请人重复提交。\n\n"
        "三、健全工作保障机制。各区各部门要明确责任分工，制定具体实施方案，并于每季度末向市政务"
        "服务管理局报送工作进展情况。"),
    QStringLiteral(
        "关于做好年度财政预算执行情况报告工作的通知\n\n"
        "各县区财政局，市直各预算单位：\n\n"
        "根据预算法及其实施条例的规定，为全面反映本年度财政预算执行情况，提高预算管理的透明度，"
        "现将有关工作要求通知如下。\n\n"
        "一、报告范围。各单位应当报告一般公共预算、政府性基金预算和国有资本经营预算的执行情况，"
        "重点说明收入完成情况、支出结构变化以及重大项目资金使用情况。\n\n"
        "二、报告内容。报告应当如实反映预算调整情况，对执行中出现的问题进行分析，并提出下一步"
        "改进措施。涉及民生保障的支出，应当单独列示。\n\n"
        "三、时间安排。请各单位于下月十五日前将报告报送市财政局预算处，逾期未报送的，将在全市"
        "范围内通报。"),
};

} // namespace

QString englishScanText(int index) {
    return kEnglish[size_t(index) % kEnglish.size()];
}

QString chineseScanText(int index) {
    return kChinese[size_t(index) % kChinese.size()];
}

QImage drawScannedPage(const ScanPage& page, const ScanOptions& options) {
    const int w = int(kA4WidthInch * options.dpi), h = int(kA4HeightInch * options.dpi);
    QImage scan(w, h, QImage::Format_Grayscale8);
    scan.fill(options.tinted ? QColor(0xf3, 0xf0, 0xe7) : QColor(Qt::white));
    QPainter p(&scan);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.setPen(QColor(0x1c, 0x1c, 0x1c));
    QFont font(page.fontFamily);
    // Points on paper: the picture has `dpi` pixels per inch.
    font.setPixelSize(std::max(6, int(page.pointSize / 72.0 * options.dpi + 0.5)));
    p.setFont(font);
    const int margin = int(kMarginInch * options.dpi);
    p.drawText(QRect(margin, margin, w - 2 * margin, h - 2 * margin),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, page.text);
    p.end();
    return scan;
}

bool writeScannedPdf(const QString& path, const QList<ScanPage>& pages, QString* error,
                     const ScanOptions& options) {
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (pages.isEmpty())
        return fail(QStringLiteral("no pages to write"));
    const QStringList families = QFontDatabase::families();
    for (const ScanPage& page : pages)
        if (!families.contains(page.fontFamily, Qt::CaseInsensitive))
            return fail(QStringLiteral("font '%1' is not installed (fc-list lists the fonts; "
                                       "scripts/install-deps.sh installs the ones Folio uses)")
                            .arg(page.fontFamily));
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(options.dpi);
    writer.setCreator(QStringLiteral("Folio scanned-page generator"));
    QPainter painter;
    if (!painter.begin(&writer))
        return fail(QStringLiteral("%1: cannot write the PDF").arg(QFileInfo(path).fileName()));
    for (qsizetype i = 0; i < pages.size(); ++i) {
        if (i > 0)
            writer.newPage();
        const QImage scan = drawScannedPage(pages[i], options);
        painter.drawImage(QRect(0, 0, scan.width(), scan.height()), scan);
    }
    if (!painter.end())
        return fail(QStringLiteral("%1: cannot finish the PDF").arg(QFileInfo(path).fileName()));
    return true;
}

} // namespace folio::ocr
