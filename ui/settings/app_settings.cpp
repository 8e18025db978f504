#include "settings/app_settings.h"

#include "settings/api_key_store.h"

#include <QSettings>
#include <QStandardPaths>

namespace folio::ui {

namespace {
constexpr int kMaxRecentModels = 8;
} // namespace

QString AppSettings::defaultOffloadDir() {
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
           QStringLiteral("/kv-offload");
}

QStringList AppSettings::kvTypes() {
    return {QStringLiteral("auto"), QStringLiteral("f32"), QStringLiteral("f16"),
            QStringLiteral("bf16"), QStringLiteral("q8_0")};
}

QStringList AppSettings::weightsMemoryKeys() {
    return {QStringLiteral("mapped"), QStringLiteral("auto"), QStringLiteral("ram")};
}

AppSettings AppSettings::load() {
    QSettings q;
    q.beginGroup(QStringLiteral("engine"));
    AppSettings s;
    s.modelPath = q.value(QStringLiteral("model")).toString();
    s.mmprojPath = q.value(QStringLiteral("mmproj")).toString();
    s.recentModels = q.value(QStringLiteral("recentModels")).toStringList();
    s.recentMmproj = q.value(QStringLiteral("recentMmproj")).toStringList();
    s.threads = q.value(QStringLiteral("threads"), 0).toInt();
    s.context = q.value(QStringLiteral("context"), 0).toLongLong();
    s.ramBudgetMiB = q.value(QStringLiteral("ramBudgetMiB"), 0).toLongLong();
    // The disk tier is on by default (issue #22 §5), in the cache folder.
    s.offloadEnabled = q.value(QStringLiteral("offloadEnabled"), true).toBool();
    s.offloadDir = q.value(QStringLiteral("offloadDir"), defaultOffloadDir()).toString();
    s.kvType = q.value(QStringLiteral("kvType"), QStringLiteral("auto")).toString();
    if (!kvTypes().contains(s.kvType))
        s.kvType = QStringLiteral("auto");
    s.speculation = q.value(QStringLiteral("speculation"), true).toBool();
    s.weightsMemory = q.value(QStringLiteral("weightsMemory"), QStringLiteral("mapped")).toString();
    if (!weightsMemoryKeys().contains(s.weightsMemory))
        s.weightsMemory = QStringLiteral("mapped");
    q.endGroup();
    q.beginGroup(QStringLiteral("backend"));
    s.backend = BackendConfig::kindFromKey(q.value(QStringLiteral("kind")).toString());
    s.remoteUrl = q.value(QStringLiteral("url"), s.remoteUrl).toString();
    const ApiKeyLocation key = loadApiKey(q);
    s.remoteApiKey = key.key;
    s.storedApiKey = key.key;
    s.apiKeyInKeyring = key.inKeyring;
    s.apiKeyWarning = key.warning;
    s.remoteModel = q.value(QStringLiteral("model")).toString();
    q.endGroup();
    s.enterSends = q.value(QStringLiteral("chat/enterSends"), true).toBool();
    return s;
}

QString AppSettings::save() const {
    QSettings q;
    q.beginGroup(QStringLiteral("engine"));
    q.setValue(QStringLiteral("model"), modelPath);
    q.setValue(QStringLiteral("mmproj"), mmprojPath);
    q.setValue(QStringLiteral("recentModels"), recentModels);
    q.setValue(QStringLiteral("recentMmproj"), recentMmproj);
    q.setValue(QStringLiteral("threads"), threads);
    q.setValue(QStringLiteral("context"), context);
    q.setValue(QStringLiteral("ramBudgetMiB"), ramBudgetMiB);
    q.setValue(QStringLiteral("offloadEnabled"), offloadEnabled);
    q.setValue(QStringLiteral("offloadDir"), offloadDir);
    q.setValue(QStringLiteral("kvType"), kvType);
    q.setValue(QStringLiteral("speculation"), speculation);
    q.setValue(QStringLiteral("weightsMemory"), weightsMemory);
    q.endGroup();
    q.beginGroup(QStringLiteral("backend"));
    q.setValue(QStringLiteral("kind"), BackendConfig::kindKey(backend));
    q.setValue(QStringLiteral("url"), remoteUrl);
    // The key goes to the keyring (or, where there is none, stays in this file) when it changed.
    QString warning;
    if (remoteApiKey != storedApiKey)
        warning = saveApiKey(q, remoteApiKey).warning;
    q.setValue(QStringLiteral("model"), remoteModel);
    q.endGroup();
    q.setValue(QStringLiteral("chat/enterSends"), enterSends);
    return warning;
}

void AppSettings::rememberModel(const QString& path) {
    modelPath = path;
    recentModels.removeAll(path);
    recentModels.prepend(path);
    while (recentModels.size() > kMaxRecentModels)
        recentModels.removeLast();
}

void AppSettings::rememberMmproj(const QString& path) {
    mmprojPath = path;
    if (path.isEmpty())
        return;
    recentMmproj.removeAll(path);
    recentMmproj.prepend(path);
    while (recentMmproj.size() > kMaxRecentModels)
        recentMmproj.removeLast();
}

LoadOptions AppSettings::loadOptions() const {
    LoadOptions o;
    o.model = modelPath;
    o.mmproj = mmprojPath;
    o.threads = threads;
    o.context = context;
    o.kvType = kvType;
    o.ramBudget = ramBudgetMiB > 0 ? ramBudgetMiB * 1024 * 1024 : -1;
    o.offloadDir = offloadEnabled ? offloadDir : QString();
    o.speculation = speculation;
    o.imageCacheDir = defaultImageCacheDir();
    o.weights = weightsMemory == QStringLiteral("ram")    ? WeightsMemory::Ram
                : weightsMemory == QStringLiteral("auto") ? WeightsMemory::Auto
                                                          : WeightsMemory::Mapped;
    return o;
}

BackendConfig AppSettings::backendConfig() const {
    BackendConfig c;
    c.kind = backend;
    c.url = remoteUrl.trimmed();
    // A key in the settings wins; without one, FOLIO_API_KEY (as folio-cli reads it).
    c.apiKey = remoteApiKey.isEmpty() ? environmentApiKey() : remoteApiKey;
    c.model = remoteModel.trimmed();
    return c;
}

} // namespace folio::ui
