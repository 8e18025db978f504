#include "settings/api_key_store.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QSettings>
#include <QTimer>

#include <qt6keychain/keychain.h>

namespace folio::ui {

namespace {

const char* const kEntry = "backend/apiKey";

QString tr(const char* text) {
    return QCoreApplication::translate("folio::ui::ApiKeyStore", text);
}

class NoKeyring : public SecretStore {
public:
    Result read(const QString&) override { return unavailable(); }
    Result write(const QString&, const QString&) override { return unavailable(); }
    Result remove(const QString&) override { return unavailable(); }

private:
    static Result unavailable() { return {false, {}, tr("no keyring (FOLIO_KEYRING=none)")}; }
};

class SystemKeyring : public SecretStore {
public:
    Result read(const QString& key) override {
        auto* job = new QKeychain::ReadPasswordJob(service());
        job->setKey(key);
        Result r = run(job);
        if (r.ok)
            r.value = job->textData();
        delete job;
        return r;
    }
    Result write(const QString& key, const QString& value) override {
        auto* job = new QKeychain::WritePasswordJob(service());
        job->setKey(key);
        job->setTextData(value);
        Result r = run(job);
        delete job;
        return r;
    }
    Result remove(const QString& key) override {
        auto* job = new QKeychain::DeletePasswordJob(service());
        job->setKey(key);
        Result r = run(job);
        delete job;
        return r;
    }

private:
    static QString service() {
        return QStringLiteral("Folio/") + QCoreApplication::applicationName();
    }

    // qtkeychain's jobs are asynchronous: wait for one (at most 5 s) in a local event loop.
    static Result run(QKeychain::Job* job) {
        job->setAutoDelete(false);
        bool done = false;
        QEventLoop loop;
        QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
            done = true;
            loop.quit();
        });
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        job->start();
        if (!done)
            loop.exec(QEventLoop::ExcludeUserInputEvents);
        if (!done)
            return {false, {}, tr("the keyring did not answer")};
        if (job->error() != QKeychain::NoError)
            return {false, {}, job->errorString()};
        return {true, {}, {}};
    }
};

SecretStore* g_testStore = nullptr;
const SecretStore* lastRefused_ = nullptr; // the store that refused a key from folio.conf
QString lastError_;

} // namespace

SecretStore& secretStore() {
    if (g_testStore)
        return *g_testStore;
    if (qEnvironmentVariable("FOLIO_KEYRING") == QLatin1String("none")) {
        static NoKeyring none;
        return none;
    }
    static SystemKeyring keyring;
    return keyring;
}

void setSecretStoreForTesting(SecretStore* store) {
    g_testStore = store;
    lastRefused_ = nullptr;
}

namespace {

QString plainWarning(QSettings& settings, const QString& why) {
    if (!keepSettingsPrivate(settings))
        return tr("No system keyring could keep the API key (%1): it is stored in plain text in "
                  "%2, which other users may be able to read. Restrict the file (chmod 600), "
                  "or start a keyring and enter the key again in Settings.")
            .arg(why, settings.fileName());
    return tr("No system keyring could keep the API key (%1): it is stored in plain text in %2, "
              "readable by your user account only.")
        .arg(why, settings.fileName());
}

} // namespace

bool keepSettingsPrivate(QSettings& settings) {
    settings.sync();
    if (settings.status() != QSettings::NoError)
        return false;
    return QFile::setPermissions(settings.fileName(),
                                 QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

QString environmentApiKey() {
    return qEnvironmentVariable("FOLIO_API_KEY").trimmed();
}

ApiKeyLocation loadApiKey(QSettings& settings) {
    const QString plain = settings.value(QStringLiteral("apiKey")).toString();
    SecretStore& store = secretStore();
    if (settings.value(QStringLiteral("apiKeyInKeyring"), false).toBool()) {
        const SecretStore::Result r = store.read(QLatin1String(kEntry));
        if (r.ok)
            return {r.value, true, {}};
        return {plain, false,
                tr("The API key is kept in the system keyring, which cannot be read now (%1). "
                   "Start the keyring, or enter the key again in Settings.")
                    .arg(r.error)};
    }
    if (plain.isEmpty())
        return {};
    // Tried once per run: a keyring that is not there is not asked at every load.
    if (&store == lastRefused_)
        return {plain, false, plainWarning(settings, lastError_)};
    // A key from an older folio.conf: into the keyring, and out of the file only once the
    // keyring gives it back.
    const SecretStore::Result w = store.write(QLatin1String(kEntry), plain);
    if (w.ok) {
        const SecretStore::Result back = store.read(QLatin1String(kEntry));
        if (back.ok && back.value == plain) {
            settings.remove(QStringLiteral("apiKey"));
            settings.setValue(QStringLiteral("apiKeyInKeyring"), true);
            return {plain, true, {}};
        }
    }
    lastRefused_ = &store;
    lastError_ = w.ok ? tr("it did not keep the key") : w.error;
    return {plain, false, plainWarning(settings, lastError_)};
}

ApiKeyLocation saveApiKey(QSettings& settings, const QString& key) {
    SecretStore& store = secretStore();
    if (key.isEmpty()) {
        if (settings.value(QStringLiteral("apiKeyInKeyring"), false).toBool())
            store.remove(QLatin1String(kEntry));
        settings.remove(QStringLiteral("apiKey"));
        settings.remove(QStringLiteral("apiKeyInKeyring"));
        return {};
    }
    const SecretStore::Result w = store.write(QLatin1String(kEntry), key);
    if (w.ok) {
        settings.remove(QStringLiteral("apiKey"));
        settings.setValue(QStringLiteral("apiKeyInKeyring"), true);
        return {key, true, {}};
    }
    settings.setValue(QStringLiteral("apiKey"), key);
    settings.setValue(QStringLiteral("apiKeyInKeyring"), false);
    return {key, false, plainWarning(settings, w.error)};
}

} // namespace folio::ui
