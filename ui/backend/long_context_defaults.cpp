#include "backend/long_context_defaults.h"

#include "folio/system_info.h"

#include <QDir>
#include <QLocale>
#include <QStorageInfo>

#include <algorithm>

namespace folio::ui {

namespace {

constexpr qint64 kMaxDiskTier = qint64(64) << 30;
constexpr qint64 kMinContext = 4096;
constexpr qint64 kContextStep = 1024;

qint64 metadataInt(const ModelInfo& info, const std::string& key) {
    for (const MetadataEntry& m : info.metadata)
        if (m.key == key) {
            bool ok = false;
            const qint64 v = QString::fromStdString(m.display).toLongLong(&ok);
            return ok ? v : 0;
        }
    return 0;
}

qint64 typeBytes(const QString& kvType) {
    if (kvType == QLatin1String("f32"))
        return 4;
    if (kvType == QLatin1String("q8_0"))
        return 1; // 34 bytes per 32 values, about 1.06
    return 2;     // f16, bf16
}

QString gib(qint64 bytes) {
    return QString::fromStdString(format_bytes(static_cast<uint64_t>(std::max<qint64>(0, bytes))));
}

} // namespace

QString cheapestSafeKvType(const QString& architecture) {
    return architecture == QLatin1String("deepseek32") ? QStringLiteral("f32")
                                                       : QStringLiteral("f16");
}

qint64 kvBytesPerToken(const ModelInfo& info, const QString& kvType) {
    const std::string a = info.architecture + ".";
    const qint64 layers = metadataInt(info, a + "block_count");
    const qint64 latent = metadataInt(info, a + "attention.kv_lora_rank");
    const qint64 rope = metadataInt(info, a + "rope.dimension_count");
    if (layers <= 0 || latent <= 0)
        return 0;
    // Hybrid models (kimi-linear) keep KV only in their full-attention layers: counting every
    // layer overestimates, which keeps the plan on the safe side.
    return layers * (latent + rope) * typeBytes(kvType);
}

LongContextPlan planLongContext(qint64 modelContext, qint64 bytesPerToken, qint64 availableRam,
                                qint64 weightBytes, qint64 diskFree) {
    LongContextPlan p;
    p.kvBytesPerToken = bytesPerToken;
    const qint64 ramLeft = std::max<qint64>(0, availableRam - weightBytes);
    p.ramBudget = std::max<qint64>(qint64(256) << 20, ramLeft / 2);
    p.diskBudget = std::clamp<qint64>(diskFree / 2, 0, kMaxDiskTier);
    const qint64 floor = std::min(modelContext, kMinContext);
    if (bytesPerToken <= 0) {
        p.context = std::min<qint64>(modelContext, 32768); // unknown layout: the engine's default
        return p;
    }
    const qint64 holds = (p.ramBudget + p.diskBudget) / bytesPerToken / kContextStep * kContextStep;
    p.context = std::max(floor, std::min(modelContext, holds));
    // The disk tier only where RAM alone does not hold the context.
    if (p.context * bytesPerToken <= p.ramBudget)
        p.diskBudget = 0;
    else
        p.diskBudget = std::min(p.diskBudget, p.context * bytesPerToken - p.ramBudget);
    return p;
}

QString describePlan(const LongContextPlan& p) {
    QString s = QObject::tr("context %1").arg(QLocale().toString(p.context));
    if (p.kvBytesPerToken <= 0)
        return s;
    const qint64 need = p.context * p.kvBytesPerToken;
    const qint64 ram = std::min(need, p.ramBudget);
    s += p.diskBudget > 0 ? QObject::tr(" (RAM %1 + disk %2)").arg(gib(ram), gib(need - ram))
                          : QObject::tr(" (RAM %1)").arg(gib(ram));
    return s;
}

LongContextPlan applyLongContextDefaults(LoadOptions& o, const ModelInfo& info,
                                         const QString& offloadDir, bool autoDiskTier) {
    if (o.kvType.isEmpty() || o.kvType == QLatin1String("auto"))
        o.kvType = cheapestSafeKvType(QString::fromStdString(info.architecture));
    const SystemInfo sys = query_system_info();
    QDir().mkpath(offloadDir);
    const qint64 diskFree = autoDiskTier ? QStorageInfo(offloadDir).bytesAvailable() : qint64(0);
    LongContextPlan p =
        planLongContext(static_cast<qint64>(info.context_length), kvBytesPerToken(info, o.kvType),
                        static_cast<qint64>(sys.available_ram_bytes),
                        static_cast<qint64>(info.file_size), std::max<qint64>(0, diskFree));
    p.kvType = o.kvType;
    if (o.context <= 0)
        o.context = p.context;
    if (o.ramBudget < 0)
        o.ramBudget = p.ramBudget;
    if (autoDiskTier && o.offloadDir.isEmpty() && p.diskBudget > 0)
        o.offloadDir = offloadDir;
    // Describe what the load gets, with the user's choices where they made them.
    p.context = o.context;
    p.ramBudget = o.ramBudget;
    const qint64 need = p.context * p.kvBytesPerToken;
    p.diskBudget = o.offloadDir.isEmpty() ? 0 : std::max<qint64>(0, need - p.ramBudget);
    return p;
}

} // namespace folio::ui
