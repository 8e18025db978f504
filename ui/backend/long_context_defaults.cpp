#include "backend/long_context_defaults.h"

#include "folio/context_plan.h"
#include "folio/model_info.h"

#include <QDir>
#include <QLocale>

#include <algorithm>

namespace folio::ui {

namespace {

QString bytesText(qint64 bytes) {
    return QString::fromStdString(format_bytes(static_cast<uint64_t>(std::max<qint64>(0, bytes))));
}

} // namespace

QString describePlan(const LongContextPlan& p) {
    QString s = QObject::tr("context %1").arg(QLocale().toString(p.context));
    if (p.kvBytesPerToken <= 0)
        return s;
    const qint64 need = p.context * p.kvBytesPerToken;
    const qint64 ram = p.ramBudget < 0 ? need : std::min(need, p.ramBudget);
    s += p.diskBudget > 0
             ? QObject::tr(" (RAM %1 + disk %2)").arg(bytesText(ram), bytesText(p.diskBudget))
             : QObject::tr(" (RAM %1)").arg(bytesText(ram));
    if (p.limitedByMemory)
        s += QObject::tr(", limited by memory");
    return s;
}

LongContextPlan applyLongContextDefaults(LoadOptions& o, const QString& offloadDir,
                                         bool autoDiskTier) {
    LongContextPlan p;
    const bool autoKv = o.kvType.isEmpty() || o.kvType == QLatin1String("auto");
    Expected<KvFootprint> probe = kv_footprint(o.model.toStdString(), KvType::F32);
    if (!probe) {
        if (autoKv)
            o.kvType = QStringLiteral("f16");
        p.context = o.context;
        p.kvType = o.kvType;
        return p;
    }
    KvType kv = recommended_kv_type(probe->sparse_attention);
    if (autoKv)
        o.kvType = QString::fromLatin1(kv_type_name(kv));
    else if (!parse_kv_type(o.kvType.toStdString(), kv))
        kv = KvType::F16;
    Expected<KvFootprint> footprint = kv_footprint(o.model.toStdString(), kv, KvType::F32);
    if (!footprint)
        footprint = probe;
    const std::string dir = autoDiskTier ? offloadDir.toStdString() : std::string();
    if (!dir.empty())
        QDir().mkpath(offloadDir);
    MachineMemory machine = machine_memory(dir);
    const ContextPlan plan = plan_context(*footprint, kv, KvType::F32, machine, dir);
    if (o.context <= 0)
        o.context = plan.context;
    if (o.ramBudget < 0)
        o.ramBudget = plan.cache.ram_budget;
    if (autoDiskTier && o.offloadDir.isEmpty() && plan.disk_tokens > 0)
        o.offloadDir = offloadDir;
    // What the load gets, with the user's choices where they made them.
    p.context = o.context;
    p.kvType = o.kvType;
    p.kvBytesPerToken = plan.bytes_per_token;
    p.ramBudget = o.ramBudget;
    p.limitedByMemory = plan.limited_by_memory && o.context == plan.context;
    const qint64 need = p.context * p.kvBytesPerToken;
    p.diskBudget =
        o.offloadDir.isEmpty() || o.ramBudget < 0 ? 0 : std::max<qint64>(0, need - o.ramBudget);
    return p;
}

} // namespace folio::ui
