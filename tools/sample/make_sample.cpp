// Draws Folio's sample material with QPdfWriter + QPainter so no binary blob is committed:
//   sample-report.pdf  an 8-page annual report: English and Chinese pages, a table, a chart
//                      image, and a final page that is only an image ("scanned", no text layer)
//   revenue-chart.png  a chart screenshot of the kind analysts paste in
//   long-report-300.pdf  a 300-page synthetic report (long_report.h: contents, tables, scanned
//                      pages) for tests of documents far larger than the context
// Usage: folio-make-sample OUT_DIR
//        folio-make-sample --long OUT.pdf [--pages N] [--seed S] [--words W] [--scan-every K]
#include "long_report.h"
#include "report_painter.h"

#include <QDir>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace {

using namespace folio::sample;

struct Quarter {
    const char* label;
    double revenue2024; // $ million
    double revenue2025;
};

const Quarter kQuarters[] = {
    {"Q1", 1002.0, 1071.0}, {"Q2", 1031.0, 1108.0}, {"Q3", 1049.0, 1135.0}, {"Q4", 1108.0, 1186.0}};

// Bar chart of quarterly revenue, 2024 vs 2025, drawn into any paint device area.
void drawRevenueChart(QPainter& p, const QRectF& area, const QString& title) {
    p.save();
    p.fillRect(area, Qt::white);
    p.setPen(QPen(QColor(0x33, 0x33, 0x33)));
    const double scale = area.width() / 500.0;
    p.setFont(font(int(16 * scale), true));
    p.drawText(QRectF(area.left(), area.top() + 6 * scale, area.width(), 24 * scale),
               Qt::AlignHCenter, title);
    QRectF plot(area.left() + 60 * scale, area.top() + 44 * scale, area.width() - 80 * scale,
                area.height() - 90 * scale);
    const double maxV = 1300.0;
    p.setFont(font(int(11 * scale)));
    for (int v = 0; v <= 1200; v += 300) {
        double y = plot.bottom() - plot.height() * v / maxV;
        p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(QRectF(area.left(), y - 8 * scale, 54 * scale, 16 * scale),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(v));
    }
    const QColor c2024(0x9a, 0xab, 0xc4), c2025(0x1f, 0x4e, 0x8c);
    const double groupW = plot.width() / 4.0;
    for (int i = 0; i < 4; ++i) {
        const Quarter& q = kQuarters[i];
        double x0 = plot.left() + i * groupW + groupW * 0.15;
        double bw = groupW * 0.33;
        double h1 = plot.height() * q.revenue2024 / maxV;
        double h2 = plot.height() * q.revenue2025 / maxV;
        p.fillRect(QRectF(x0, plot.bottom() - h1, bw, h1), c2024);
        p.fillRect(QRectF(x0 + bw + 2 * scale, plot.bottom() - h2, bw, h2), c2025);
        p.setPen(QColor(0x33, 0x33, 0x33));
        p.drawText(
            QRectF(x0 - 10 * scale, plot.bottom() + 4 * scale, 2 * bw + 20 * scale, 16 * scale),
            Qt::AlignHCenter, QString::fromLatin1(q.label));
        p.setFont(font(int(9 * scale)));
        p.drawText(QRectF(x0 + bw, plot.bottom() - h2 - 14 * scale, bw + 12 * scale, 12 * scale),
                   Qt::AlignLeft, QString::number(q.revenue2025, 'f', 0));
        p.setFont(font(int(11 * scale)));
    }
    p.setPen(QPen(QColor(0x33, 0x33, 0x33), 1.2));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    // legend
    double ly = area.bottom() - 22 * scale;
    p.fillRect(QRectF(plot.left(), ly, 12 * scale, 12 * scale), c2024);
    p.drawText(QRectF(plot.left() + 16 * scale, ly - 2 * scale, 120 * scale, 16 * scale),
               Qt::AlignLeft, QStringLiteral("FY2024 ($m)"));
    p.fillRect(QRectF(plot.left() + 130 * scale, ly, 12 * scale, 12 * scale), c2025);
    p.drawText(QRectF(plot.left() + 146 * scale, ly - 2 * scale, 120 * scale, 16 * scale),
               Qt::AlignLeft, QStringLiteral("FY2025 ($m)"));
    p.restore();
}

QImage renderChartImage(int width, int height, const QString& title) {
    QImage img(width, height, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    drawRevenueChart(p, QRectF(0, 0, width, height), title);
    return img;
}

void cover(Report& r) {
    QPainter& p = r.painter();
    p.fillRect(QRectF(0, 0, kPageW, 300), QColor(0x1f, 0x4e, 0x8c));
    p.setPen(Qt::white);
    p.setFont(font(30, true));
    p.drawText(QRectF(kMargin, 120, kPageW - 2 * kMargin, 40), Qt::AlignLeft,
               QStringLiteral("Northwind Instruments plc"));
    p.setFont(font(20));
    p.drawText(QRectF(kMargin, 170, kPageW - 2 * kMargin, 30), Qt::AlignLeft,
               QStringLiteral("Annual Report and Accounts 2025"));
    p.setFont(cjkFont(14));
    p.drawText(QRectF(kMargin, 210, kPageW - 2 * kMargin, 24), Qt::AlignLeft,
               QStringLiteral("2025年年度报告"));
    p.setPen(QColor(0x22, 0x22, 0x22));
    p.setFont(font(12));
    p.drawText(QRectF(kMargin, 340, kPageW - 2 * kMargin, 200), Qt::TextWordWrap,
               QStringLiteral("Contents\n\n1  Chairman's letter ............ 2\n"
                              "2  Financial highlights ......... 3\n"
                              "3  Revenue by quarter ........... 4\n"
                              "4  董事长致辞 .................. 5\n"
                              "5  财务摘要 .................... 6\n"
                              "6  Outlook and principal risks .. 7\n"
                              "7  Auditor's statement (scan) ... 8"));
}

void chairmansLetter(Report& r) {
    r.heading(QStringLiteral("1. Chairman's letter"));
    r.paragraph(QStringLiteral(
        "Dear shareholders, 2025 was a year of disciplined growth for Northwind Instruments. "
        "Revenue rose 7.4% to $4.50 billion, driven by demand for our industrial sensing "
        "platforms in Europe and Asia. Operating margin improved from 14.2% to 15.8% as we "
        "completed the consolidation of our Leeds and Suzhou plants and renegotiated "
        "component contracts."));
    r.paragraph(QStringLiteral(
        "Net income reached $512 million, up 12.1%, and diluted earnings per share were $3.41. "
        "The Board proposes a final dividend of 58 cents per share, bringing the full-year "
        "dividend to 96 cents, an increase of 9.1%. Free cash flow of $603 million allowed us "
        "to reduce net debt to 0.9 times EBITDA."));
    r.paragraph(QStringLiteral(
        "Our research and development spending grew to $389 million (8.6% of revenue). The "
        "new NW-9 spectrometer family, launched in the third quarter, already accounts for "
        "$141 million of orders. We expect the order book, which stood at $2.31 billion at "
        "year end, to support further growth in 2026."));
    r.paragraph(QStringLiteral(
        "I would like to thank our 11,400 colleagues for their commitment, and our customers "
        "and shareholders for their continued trust.\n\nMargaret Ellison, Chair"));
}

void highlights(Report& r) {
    r.heading(QStringLiteral("2. Financial highlights"));
    r.paragraph(QStringLiteral(
        "All figures in $ million unless stated otherwise. Year ended 31 December."));
    r.table({QStringLiteral("Metric"), QStringLiteral("2023"), QStringLiteral("2024"),
             QStringLiteral("2025")},
            {{QStringLiteral("Revenue"), QStringLiteral("3,902"), QStringLiteral("4,190"),
              QStringLiteral("4,500")},
             {QStringLiteral("Gross profit"), QStringLiteral("1,581"), QStringLiteral("1,718"),
              QStringLiteral("1,899")},
             {QStringLiteral("Operating income"), QStringLiteral("530"), QStringLiteral("595"),
              QStringLiteral("711")},
             {QStringLiteral("Operating margin (%)"), QStringLiteral("13.6"),
              QStringLiteral("14.2"), QStringLiteral("15.8")},
             {QStringLiteral("Net income"), QStringLiteral("401"), QStringLiteral("457"),
              QStringLiteral("512")},
             {QStringLiteral("Diluted EPS ($)"), QStringLiteral("2.67"), QStringLiteral("3.04"),
              QStringLiteral("3.41")},
             {QStringLiteral("R&D expense"), QStringLiteral("331"), QStringLiteral("356"),
              QStringLiteral("389")},
             {QStringLiteral("Free cash flow"), QStringLiteral("472"), QStringLiteral("538"),
              QStringLiteral("603")},
             {QStringLiteral("Employees (year end)"), QStringLiteral("10,650"),
              QStringLiteral("11,020"), QStringLiteral("11,400")}});
    r.paragraph(QStringLiteral(
        "Revenue growth of 7.4% comprised 5.9% organic growth, 2.3% from the acquisition of "
        "Halden Optics and a 0.8% adverse currency effect."));
}

void chartPage(Report& r) {
    r.heading(QStringLiteral("3. Revenue by quarter"));
    r.paragraph(QStringLiteral(
        "Quarterly revenue grew in every quarter of 2025 compared with 2024. The fourth "
        "quarter was the strongest on record at $1,186 million."));
    r.image(renderChartImage(1000, 620, QStringLiteral("Quarterly revenue, FY2024 vs FY2025 ($m)")),
            kPageW - 2 * kMargin);
    r.caption(QStringLiteral("Figure 1: Quarterly revenue ($ million). Source: company accounts."));
}

void chineseLetter(Report& r) {
    r.heading(QStringLiteral("4. 董事长致辞"), true);
    r.paragraph(QStringLiteral("尊敬的各位股东：2025年是诺斯温仪器稳健增长的一年。公司全年营业收入"
                               "增长7.4%，达到45.0亿美元，"
                               "主要受益于欧洲和亚洲市场对工业传感平台的强劲需求。随着利兹和苏州工"
                               "厂整合的完成，营业利润率"
                               "由14.2%提升至15.8%。"),
                true);
    r.paragraph(QStringLiteral("净利润达到5.12亿美元，同比增长12.1%；稀释每股收益为3."
                               "41美元。董事会建议派发末期股息每股58美分，"
                               "全年股息合计96美分，增长9.1%。"),
                true);
    r.paragraph(QStringLiteral("研发投入增至3.89亿美元，占营业收入的8.6%。第三季度推出的NW-"
                               "9光谱仪系列已获得1.41亿美元订单。"
                               "截至年末，在手订单为23.1亿美元，为2026年的持续增长奠定了基础。"),
                true);
}

void chineseSummary(Report& r) {
    r.heading(QStringLiteral("5. 财务摘要"), true);
    r.paragraph(QStringLiteral("单位：百万美元（另有说明除外）。截至12月31日止年度。"), true);
    r.table({QStringLiteral("项目"), QStringLiteral("2024年"), QStringLiteral("2025年"),
             QStringLiteral("变动")},
            {{QStringLiteral("营业收入"), QStringLiteral("4,190"), QStringLiteral("4,500"),
              QStringLiteral("+7.4%")},
             {QStringLiteral("营业利润"), QStringLiteral("595"), QStringLiteral("711"),
              QStringLiteral("+19.5%")},
             {QStringLiteral("净利润"), QStringLiteral("457"), QStringLiteral("512"),
              QStringLiteral("+12.1%")},
             {QStringLiteral("自由现金流"), QStringLiteral("538"), QStringLiteral("603"),
              QStringLiteral("+12.1%")},
             {QStringLiteral("研发费用"), QStringLiteral("356"), QStringLiteral("389"),
              QStringLiteral("+9.3%")}},
            true);
    r.paragraph(QStringLiteral("亚洲地区收入占比由31%上升至34%，其中中国市场收入增长11.2%。"),
                true);
}

void outlook(Report& r) {
    r.heading(QStringLiteral("6. Outlook and principal risks"));
    r.paragraph(QStringLiteral(
        "For 2026 we expect organic revenue growth of 5% to 7% and a further improvement in "
        "operating margin of 50 to 80 basis points, assuming stable exchange rates."));
    r.paragraph(QStringLiteral(
        "Principal risks: (1) supply of specialised semiconductors, mitigated by dual sourcing "
        "and 14 weeks of safety stock; (2) currency movements, as 46% of revenue is earned "
        "outside the United States; (3) cyber security of connected instruments; (4) "
        "integration of Halden Optics, where synergies of $18 million are targeted by 2027."));
    r.paragraph(QStringLiteral(
        "Capital allocation priorities remain unchanged: organic investment first, then the "
        "progressive dividend, bolt-on acquisitions, and returns of surplus capital."));
}

// The last page is a picture of a signed statement: no text layer, as in a scanned page.
void scannedPage(Report& r) {
    QImage scan(1190, 1500, QImage::Format_Grayscale8);
    scan.fill(QColor(0xf4, 0xf1, 0xe8));
    {
        QPainter p(&scan);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QColor(0x20, 0x20, 0x20));
        p.setFont(font(40, true, QStringLiteral("DejaVu Serif")));
        p.drawText(QRectF(80, 80, 1030, 60), Qt::AlignLeft,
                   QStringLiteral("Independent auditor's statement"));
        p.setFont(font(26, false, QStringLiteral("DejaVu Serif")));
        p.drawText(
            QRectF(80, 180, 1030, 900), Qt::TextWordWrap,
            QStringLiteral("In our opinion the financial statements of Northwind Instruments plc "
                           "give a true and fair view of the state of the group's affairs as at "
                           "31 December 2025 and of its profit for the year then ended, and have "
                           "been properly prepared in accordance with the applicable framework.\n\n"
                           "Key audit matters: revenue recognition on multi-element contracts; "
                           "valuation of goodwill arising on the Halden Optics acquisition.\n\n"
                           "Hartley & Rowe LLP, Statutory Auditor, London, 3 March 2026"));
        QPainterPath sig;
        sig.moveTo(120, 1150);
        sig.cubicTo(180, 1080, 240, 1220, 300, 1140);
        sig.cubicTo(360, 1070, 420, 1200, 520, 1130);
        p.setPen(QPen(QColor(0x10, 0x20, 0x60), 4));
        p.drawPath(sig);
    }
    QPainter& p = r.painter();
    p.drawImage(QRectF(30, 30, kPageW - 60, (kPageW - 60) * 1500.0 / 1190.0), scan);
}

int usage() {
    std::fprintf(stderr, "usage: folio-make-sample OUT_DIR\n"
                         "       folio-make-sample --long OUT.pdf [--pages N] [--seed S] "
                         "[--words W] [--scan-every K]\n");
    return 2;
}

// --long OUT.pdf [--pages N] [--seed S] [--words W] [--scan-every K]
int writeLong(const QStringList& args) {
    LongReportOptions o;
    QString out;
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        if (!a.startsWith(QLatin1String("--"))) {
            out = a;
            continue;
        }
        bool ok = false;
        const qulonglong v = i + 1 < args.size() ? args[i + 1].toULongLong(&ok) : 0;
        if (!ok) {
            std::fprintf(stderr, "error: %s needs a non-negative number\n", qPrintable(a));
            return 2;
        }
        ++i;
        if (a == QLatin1String("--pages"))
            o.pages = int(std::min<qulonglong>(v, 1u << 30));
        else if (a == QLatin1String("--seed"))
            o.seed = v;
        else if (a == QLatin1String("--words"))
            o.wordsPerPage = int(std::min<qulonglong>(v, 1u << 30));
        else if (a == QLatin1String("--scan-every"))
            o.scanEvery = int(std::min<qulonglong>(v, 1u << 30));
        else {
            std::fprintf(stderr, "error: unknown option %s\n", qPrintable(a));
            return usage();
        }
    }
    if (out.isEmpty())
        return usage();
    QString error;
    if (!writeLongReport(out, o, &error)) {
        std::fprintf(stderr, "error: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("wrote %s (%d pages)\n", qPrintable(out), o.pages);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (!args.isEmpty() && args.first() == QLatin1String("--long"))
        return writeLong(args);
    if (args.size() != 1)
        return usage();
    QDir out(args.first());
    if (!out.mkpath(QStringLiteral("."))) {
        std::fprintf(stderr, "error: cannot create %s\n", qPrintable(args.first()));
        return 1;
    }
    const QString pdfPath = out.filePath(QStringLiteral("sample-report.pdf"));
    {
        QPdfWriter writer(pdfPath);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(144);
        writer.setTitle(QStringLiteral("Northwind Instruments plc - Annual Report 2025"));
        writer.setCreator(QStringLiteral("Folio sample generator"));
        Report report(writer, QStringLiteral("Northwind Instruments plc - Annual Report 2025"));
        cover(report);
        report.newPage();
        chairmansLetter(report);
        report.newPage();
        highlights(report);
        report.newPage();
        chartPage(report);
        report.newPage();
        chineseLetter(report);
        report.newPage();
        chineseSummary(report);
        report.newPage();
        outlook(report);
        report.newPage();
        scannedPage(report);
        report.finishWithoutFooter();
    }

    const QString pngPath = out.filePath(QStringLiteral("revenue-chart.png"));
    QImage chart = renderChartImage(800, 500, QStringLiteral("Quarterly revenue ($m)"));
    if (!chart.save(pngPath, "PNG")) {
        std::fprintf(stderr, "error: cannot write %s\n", qPrintable(pngPath));
        return 1;
    }
    const QString longPath = out.filePath(QStringLiteral("long-report-300.pdf"));
    QString error;
    if (!writeLongReport(longPath, LongReportOptions{}, &error)) {
        std::fprintf(stderr, "error: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("wrote %s, %s and %s\n", qPrintable(pdfPath), qPrintable(pngPath),
                qPrintable(longPath));
    return 0;
}
