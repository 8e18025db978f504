#include "long_report.h"

#include "report_painter.h"

#include <QFile>
#include <QPageSize>
#include <QStringList>

#include <algorithm>
#include <random>

namespace folio::sample {

namespace {

const char* const kSyllables[] = {"ba", "ko", "ri", "ze", "mu", "ta", "ne", "lo", "vi", "su"};

const char* const kTopics[] = {
    "Grid maintenance",     "Sensor calibration", "Supply chain",        "Water treatment",
    "Fleet operations",     "Safety programme",   "Data platform",       "Procurement",
    "Energy efficiency",    "Field service",      "Quality assurance",   "Network resilience",
    "Workforce planning",   "Customer contracts", "Capital projects",    "Regulatory filings",
    "Asset inspection",     "Spare parts",        "Remote monitoring",   "Emissions reporting",
    "Incident response",    "Vendor management",  "Training and skills", "Facilities",
    "Research pilots",      "Insurance and risk", "Logistics hubs",      "Software releases",
    "Treasury and funding", "Community relations"};
const char* const kRegions[] = {
    "North Basin",  "Harbour District", "Eastern Ridge", "Lowland Plain", "Salt Marsh",
    "Upper Valley", "Coastal Strip",    "Iron Hills",    "Central Yard",  "Western Delta"};
const char* const kMetrics[] = {"uptime",       "throughput",        "unit cost",
                                "backlog",      "response time",     "defect rate",
                                "energy use",   "staff turnover",    "inventory cover",
                                "order intake", "maintenance spend", "customer churn"};
const char* const kUnits[] = {"hours", "tonnes", "kWh", "cases", "orders", "visits", "units"};
const char* const kPeriods[] = {"the first quarter",  "the second quarter", "the third quarter",
                                "the fourth quarter", "the winter season",  "the audit window",
                                "the trial period",   "the reporting year"};
const char* const kTeams[] = {"operations",  "planning",  "inspection", "finance",
                              "reliability", "logistics", "compliance", "engineering"};
const char* const kObjects[] = {"pump station",   "relay cabinet",   "cooling loop", "valve bank",
                                "telemetry link", "storage tank",    "switchgear",   "control room",
                                "loading dock",   "backup generator"};
const char* const kVerbs[] = {"replaced",  "inspected", "upgraded", "recalibrated",
                              "relocated", "reviewed",  "tested",   "commissioned"};
const char* const kAdjectives[] = {"stable",    "volatile", "elevated",      "subdued",
                                   "resilient", "uneven",   "ahead of plan", "below target"};
const char* const kEvents[] = {
    "a storm in the harbour", "a supplier delay",  "a routine audit", "a power dip",
    "a software update",      "a spike in demand", "a safety drill",  "a flood warning"};

template <std::size_t N> QString pick(std::mt19937_64& rng, const char* const (&list)[N]) {
    return QString::fromLatin1(list[rng() % N]);
}
int between(std::mt19937_64& rng, int lo, int hi) {
    return lo + int(rng() % quint64(hi - lo + 1));
}

// One sentence of report prose from a handful of templates.
QString sentence(std::mt19937_64& rng) {
    const QString pct = QString::number(between(rng, 1, 399) / 10.0, 'f', 1);
    switch (rng() % 6) {
    case 0:
        return QStringLiteral("%1 reported %2 of %3 %4 in %5, %6 %7% on the prior year.")
            .arg(pick(rng, kRegions), pick(rng, kMetrics), QString::number(between(rng, 12, 98765)),
                 pick(rng, kUnits), pick(rng, kPeriods),
                 rng() % 2 ? QStringLiteral("up") : QStringLiteral("down"), pct);
    case 1:
        return QStringLiteral("The %1 team %2 the %3 after %4.")
            .arg(pick(rng, kTeams), pick(rng, kVerbs), pick(rng, kObjects), pick(rng, kEvents));
    case 2:
        return QStringLiteral("In %1, %2 remained %3 while %4 moved to %5 %6.")
            .arg(pick(rng, kRegions), pick(rng, kMetrics), pick(rng, kAdjectives),
                 pick(rng, kMetrics), QString::number(between(rng, 3, 9999)), pick(rng, kUnits));
    case 3:
        return QStringLiteral("Spending on the %1 reached $%2 thousand, %3% of the %4 budget.")
            .arg(pick(rng, kObjects), QString::number(between(rng, 40, 4800)), pct,
                 pick(rng, kTeams));
    case 4:
        return QStringLiteral("During %1 the %2 was %3 twice, and %4 in %5 was %6.")
            .arg(pick(rng, kPeriods), pick(rng, kObjects), pick(rng, kVerbs), pick(rng, kMetrics),
                 pick(rng, kRegions), pick(rng, kAdjectives));
    default:
        return QStringLiteral("Managers expect %1 to stay %2 unless %3 recurs.")
            .arg(pick(rng, kMetrics), pick(rng, kAdjectives), pick(rng, kEvents));
    }
}

// Paragraphs of about `words` words, 3 to 6 sentences each.
QStringList paragraphs(std::mt19937_64& rng, int words) {
    QStringList out;
    int count = 0;
    while (count < words) {
        QStringList ps;
        const int sentences = between(rng, 3, 6);
        for (int i = 0; i < sentences && count < words; ++i) {
            ps << sentence(rng);
            count += int(ps.last().count(QLatin1Char(' '))) + 1;
        }
        out << ps.join(QLatin1Char(' '));
    }
    return out;
}

int chapterOf(int page, const LongReportOptions& o) {
    return (page - 3) / chapterPages(o) + 1;
}
int chapters(const LongReportOptions& o) {
    return o.pages < 3 ? 0 : chapterOf(o.pages, o);
}
QString chapterTitle(int chapter, quint64 seed) {
    constexpr int n = int(sizeof(kTopics) / sizeof(kTopics[0]));
    return QString::fromLatin1(kTopics[(chapter - 1 + int(seed % n)) % n]);
}

void cover(Report& r, const LongReportOptions& o) {
    QPainter& p = r.painter();
    p.fillRect(QRectF(0, 0, kPageW, 280), QColor(0x2b, 0x5d, 0x3a));
    p.setPen(Qt::white);
    p.setFont(font(28, true));
    p.drawText(QRectF(kMargin, 110, kPageW - 2 * kMargin, 40), Qt::AlignLeft,
               QStringLiteral("Meridian Utilities Group"));
    p.setFont(font(18));
    p.drawText(QRectF(kMargin, 160, kPageW - 2 * kMargin, 30), Qt::AlignLeft,
               QStringLiteral("Technical Report on Regional Operations"));
    p.setPen(QColor(0x22, 0x22, 0x22));
    p.setFont(font(12));
    p.drawText(QRectF(kMargin, 320, kPageW - 2 * kMargin, 200), Qt::TextWordWrap,
               QStringLiteral("A synthetic %1-page report (seed %2) for testing long documents: "
                              "chapters of operational prose, tables, and scanned inspection "
                              "sheets without a text layer.")
                   .arg(o.pages)
                   .arg(o.seed));
}

void contents(Report& r, const LongReportOptions& o) {
    r.heading(QStringLiteral("Contents"));
    QStringList lines;
    for (int c = 1; c <= chapters(o); ++c)
        lines << QStringLiteral("Chapter %1  %2 .......... page %3")
                     .arg(c)
                     .arg(chapterTitle(c, o.seed))
                     .arg(chapterStart(c, o));
    r.paragraph(lines.join(QLatin1Char('\n')));
}

void textPage(Report& r, int page, const LongReportOptions& o) {
    std::mt19937_64 rng(o.seed * 0x9E3779B97F4A7C15ull ^ quint64(page) * 0xD1B54A32D192ED03ull);
    const int chapter = chapterOf(page, o);
    const int section = (page - chapterStart(chapter, o)) + 1;
    if (section == 1)
        r.heading(QStringLiteral("Chapter %1. %2").arg(chapter).arg(chapterTitle(chapter, o.seed)));
    else
        r.heading(QStringLiteral("%1.%2 %3 in %4")
                      .arg(chapter)
                      .arg(section)
                      .arg(chapterTitle(chapter, o.seed), pick(rng, kRegions)));
    QStringList body = paragraphs(rng, hasTable(page) ? o.wordsPerPage * 3 / 5 : o.wordsPerPage);
    body.first().prepend(QStringLiteral("Field note %1: the %2 procedure was logged under lot %3. ")
                             .arg(page)
                             .arg(rareTerm(page))
                             .arg(lotNumber(page)));
    const int half = int(body.size() + 1) / 2;
    for (int i = 0; i < half; ++i)
        r.paragraph(body[i]);
    if (hasTable(page)) {
        QList<QStringList> rows;
        for (int i = 0; i < 5; ++i)
            rows << QStringList{pick(rng, kRegions), QString::number(between(rng, 100, 9999)),
                                QString::number(between(rng, 100, 9999)),
                                QString::number(between(rng, 100, 9999))};
        r.caption(QStringLiteral("Table %1: %2 by region (%3)")
                      .arg(page)
                      .arg(pick(rng, kMetrics), pick(rng, kUnits)));
        r.table({QStringLiteral("Region"), QStringLiteral("2023"), QStringLiteral("2024"),
                 QStringLiteral("2025")},
                rows);
    }
    for (int i = half; i < body.size(); ++i)
        r.paragraph(body[i]);
}

// A page that is only a picture of a form: no text layer, like a scanner's output.
void scannedPage(Report& r, int page, const LongReportOptions& o) {
    QImage scan(620, 877, QImage::Format_Grayscale8);
    scan.fill(QColor(0xf2, 0xef, 0xe6));
    {
        QPainter p(&scan);
        p.setPen(QColor(0x25, 0x25, 0x25));
        p.setFont(font(26, true, QStringLiteral("DejaVu Serif")));
        p.drawText(QRectF(40, 40, 540, 40), Qt::AlignLeft,
                   QStringLiteral("Inspection sheet %1").arg(page));
        std::mt19937_64 rng(o.seed ^ quint64(page) * 0xA24BAED4963EE407ull);
        p.setPen(QPen(QColor(0x55, 0x55, 0x55), 3));
        for (int line = 0; line < 24; ++line) {
            const double y = 120 + line * 28;
            p.drawLine(QPointF(40, y), QPointF(40 + between(rng, 200, 540), y));
        }
    }
    r.painter().drawImage(QRectF(20, 20, kPageW - 40, (kPageW - 40) * 877.0 / 620.0), scan);
}

} // namespace

QString rareTerm(int page) {
    QString term = QStringLiteral("Xa");
    for (const QChar d : QString::number(page))
        term += QLatin1String(kSyllables[d.digitValue()]);
    return term;
}

int lotNumber(int page) {
    return int((qint64(page) * 7919) % 100000);
}

bool isScannedPage(int page, const LongReportOptions& o) {
    return page >= 3 && o.scanEvery > 0 && page % o.scanEvery == 0;
}

bool hasTable(int page) {
    return page % 7 == 3;
}

int chapterPages(const LongReportOptions& o) {
    constexpr int kMaxContentsLines = 40;
    return std::max(12, (o.pages - 2 + kMaxContentsLines - 1) / kMaxContentsLines);
}

int chapterStart(int chapter, const LongReportOptions& o) {
    return 3 + (chapter - 1) * chapterPages(o);
}

bool writeLongReport(const QString& path, const LongReportOptions& o, QString* error) {
    if (o.pages < 1 || o.pages > 20000 || o.wordsPerPage < 1) {
        *error = QStringLiteral("pages must be 1..20000 and words per page positive");
        return false;
    }
    QFile::remove(path); // a stale file must not pass for a written one
    {
        QPdfWriter writer(path);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setResolution(144);
        writer.setTitle(QStringLiteral("Meridian Technical Report"));
        writer.setCreator(QStringLiteral("Folio sample generator"));
        Report report(writer, QStringLiteral("Meridian Utilities Group - Technical Report"));
        for (int page = 1; page <= o.pages; ++page) {
            const bool scanned = isScannedPage(page, o);
            if (page == 1)
                cover(report, o);
            else if (page == 2)
                contents(report, o);
            else if (scanned)
                scannedPage(report, page, o);
            else
                textPage(report, page, o);
            if (page < o.pages)
                report.newPage(!scanned);
            else if (scanned)
                report.finishWithoutFooter();
            else
                report.finish();
        }
    }
    if (QFile(path).size() == 0) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

} // namespace folio::sample
