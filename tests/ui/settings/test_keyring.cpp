// The API key of a remote server and the system keyring (issue #25): a key is kept in the
// keyring where one runs, a plain key from an older folio.conf is moved there only once the
// keyring gives it back, and where no keyring runs (CI has no keyring daemon) the key stays in
// folio.conf with a warning the Settings dialog shows. In no case is a key lost.
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QtTest>

#include "settings/api_key_store.h"
#include "settings/app_settings.h"
#include "settings/settings_dialog.h"
#include "support/test_support.h"

using namespace folio::ui;

namespace {

// An in-memory keyring; `losesKeys`: it says yes to a write and forgets the key;
// `down`: every call fails as a keyring that stopped would.
class FakeKeyring : public SecretStore {
public:
    QHash<QString, QString> entries;
    bool losesKeys = false;
    bool down = false;

    Result read(const QString& key) override {
        if (down)
            return {false, {}, QStringLiteral("keyring stopped")};
        if (!entries.contains(key))
            return {false, {}, QStringLiteral("no such entry")};
        return {true, entries.value(key), {}};
    }
    Result write(const QString& key, const QString& value) override {
        if (down)
            return {false, {}, QStringLiteral("keyring stopped")};
        if (!losesKeys)
            entries.insert(key, value);
        return {true, {}, {}};
    }
    Result remove(const QString& key) override {
        if (down)
            return {false, {}, QStringLiteral("keyring stopped")};
        entries.remove(key);
        return {true, {}, {}};
    }
};

QString rawKey() {
    return QSettings().value(QStringLiteral("backend/apiKey")).toString();
}

void writeOldConf(const QString& key) {
    QSettings raw;
    raw.clear();
    raw.setValue(QStringLiteral("backend/kind"), QStringLiteral("remote"));
    raw.setValue(QStringLiteral("backend/apiKey"), key);
    raw.sync();
}

} // namespace

class TestKeyring : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const QString xdg = folio::test::scratchDir(QStringLiteral("keyring-xdg"));
        qputenv("XDG_CONFIG_HOME", (xdg + QStringLiteral("/config")).toUtf8());
        qputenv("XDG_DATA_HOME", (xdg + QStringLiteral("/data")).toUtf8());
        qputenv("XDG_CACHE_HOME", (xdg + QStringLiteral("/cache")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("FolioTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_keyring"));
    }

    void cleanup() {
        setSecretStoreForTesting(nullptr);
        qputenv("FOLIO_KEYRING", "none");
    }

    // No keyring (FOLIO_KEYRING=none, as under CI): the key stays in folio.conf, with a warning.
    void withoutAKeyringThePlainKeyIsKept() {
        qputenv("FOLIO_KEYRING", "none");
        writeOldConf(QStringLiteral("sk-old"));
        const AppSettings s = AppSettings::load();
        QCOMPARE(s.remoteApiKey, QStringLiteral("sk-old"));
        QVERIFY(!s.apiKeyInKeyring);
        QVERIFY(s.apiKeyWarning.contains(QSettings().fileName()));
        QCOMPARE(rawKey(), QStringLiteral("sk-old"));

        // Settings shows the warning under the key.
        SettingsDialog dialog(s);
        auto* note = dialog.findChild<QLabel*>(QStringLiteral("apiKeyStorageNote"));
        QVERIFY(note);
        QCOMPARE(note->text(), s.apiKeyWarning);

        // A changed key is still saved, in the file, and the caller is told.
        AppSettings changed = s;
        changed.remoteApiKey = QStringLiteral("sk-new");
        QVERIFY(!changed.save().isEmpty());
        QCOMPARE(rawKey(), QStringLiteral("sk-new"));
        QCOMPARE(AppSettings::load().remoteApiKey, QStringLiteral("sk-new"));
        // Saving other settings leaves the key alone.
        AppSettings other = AppSettings::load();
        other.threads = 3;
        QVERIFY(other.save().isEmpty());
        QCOMPARE(rawKey(), QStringLiteral("sk-new"));
    }

    // The warning says the file is readable by its owner only: it must be (issue #48 §5), also
    // after other settings are written, and for a file written before with the usual 0644.
    void aPlainKeyIsReadableByItsOwnerOnly() {
        qputenv("FOLIO_KEYRING", "none");
        const QString file = QSettings().fileName();
        const auto others = QFileDevice::ReadGroup | QFileDevice::WriteGroup |
                            QFileDevice::ReadOther | QFileDevice::WriteOther;
        writeOldConf(QStringLiteral("sk-old"));
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                QFileDevice::ReadGroup | QFileDevice::ReadOther));
        const AppSettings s = AppSettings::load(); // reading it fixes the mode
        QVERIFY(s.apiKeyWarning.contains(QStringLiteral("readable by your user account only")));
        QCOMPARE(QFile::permissions(file) & others, QFileDevice::Permissions());
        AppSettings changed = s;
        changed.remoteApiKey = QStringLiteral("sk-new");
        changed.save();
        QCOMPARE(QFile::permissions(file) & others, QFileDevice::Permissions());
        // Other settings written later (the window's geometry at close) keep the mode.
        {
            QSettings later;
            later.setValue(QStringLiteral("window/geometry"), QByteArray(64, 'x'));
        }
        QCOMPARE(rawKey(), QStringLiteral("sk-new"));
        QCOMPARE(QFile::permissions(file) & others, QFileDevice::Permissions());
        QVERIFY(QFile::permissions(file) & QFileDevice::ReadOwner);
    }

    // FOLIO_API_KEY, which folio-cli honours, is the server's key when the settings keep none.
    void theEnvironmentsKeyWhenNoneIsSaved() {
        qputenv("FOLIO_KEYRING", "none");
        AppSettings s = AppSettings::load();
        s.backend = BackendConfig::Kind::Remote;
        s.remoteUrl = QStringLiteral("http://127.0.0.1:8000/v1");
        s.remoteApiKey.clear();
        qputenv("FOLIO_API_KEY", "sk-from-env");
        QCOMPARE(s.backendConfig().apiKey, QStringLiteral("sk-from-env"));
        s.remoteApiKey = QStringLiteral("sk-saved"); // a key in the settings wins
        QCOMPARE(s.backendConfig().apiKey, QStringLiteral("sk-saved"));
        qunsetenv("FOLIO_API_KEY");
        s.remoteApiKey.clear();
        QVERIFY(s.backendConfig().apiKey.isEmpty());
    }

    // A keyring: the old plain key moves into it and leaves folio.conf.
    void aPlainKeyMovesToTheKeyring() {
        FakeKeyring keyring;
        setSecretStoreForTesting(&keyring);
        writeOldConf(QStringLiteral("sk-old"));
        const AppSettings s = AppSettings::load();
        QCOMPARE(s.remoteApiKey, QStringLiteral("sk-old"));
        QVERIFY(s.apiKeyInKeyring);
        QVERIFY(s.apiKeyWarning.isEmpty());
        QCOMPARE(keyring.entries.value(QStringLiteral("backend/apiKey")), QStringLiteral("sk-old"));
        QVERIFY(!QSettings().contains(QStringLiteral("backend/apiKey")));
        QVERIFY(QSettings().value(QStringLiteral("backend/apiKeyInKeyring")).toBool());
        QCOMPARE(AppSettings::load().remoteApiKey, QStringLiteral("sk-old"));

        AppSettings changed = s;
        changed.remoteApiKey = QStringLiteral("sk-new");
        QVERIFY(changed.save().isEmpty());
        QCOMPARE(keyring.entries.value(QStringLiteral("backend/apiKey")), QStringLiteral("sk-new"));
        QVERIFY(!QSettings().contains(QStringLiteral("backend/apiKey")));
        QCOMPARE(AppSettings::load().remoteApiKey, QStringLiteral("sk-new"));

        SettingsDialog dialog(AppSettings::load());
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("apiKeyStorageNote"))
                    ->text()
                    .contains(QStringLiteral("keyring")));

        // Clearing the key clears it everywhere.
        AppSettings cleared = AppSettings::load();
        cleared.remoteApiKey.clear();
        cleared.save();
        QVERIFY(keyring.entries.isEmpty());
        QVERIFY(!QSettings().contains(QStringLiteral("backend/apiKey")));
        QVERIFY(AppSettings::load().remoteApiKey.isEmpty());
    }

    // A keyring that says yes and keeps nothing: the plain key is not dropped.
    void aKeyringThatLosesTheKeyDoesNotTakeIt() {
        FakeKeyring keyring;
        keyring.losesKeys = true;
        setSecretStoreForTesting(&keyring);
        writeOldConf(QStringLiteral("sk-old"));
        const AppSettings s = AppSettings::load();
        QCOMPARE(s.remoteApiKey, QStringLiteral("sk-old"));
        QVERIFY(!s.apiKeyInKeyring);
        QVERIFY(!s.apiKeyWarning.isEmpty());
        QCOMPARE(rawKey(), QStringLiteral("sk-old"));
    }

    // The keyring stops after the key moved there: a warning, and the key stays in the keyring.
    void aStoppedKeyringWarnsAndKeepsItsEntry() {
        FakeKeyring keyring;
        setSecretStoreForTesting(&keyring);
        writeOldConf(QStringLiteral("sk-old"));
        QVERIFY(AppSettings::load().apiKeyInKeyring);
        keyring.down = true;
        const AppSettings s = AppSettings::load();
        QVERIFY(s.remoteApiKey.isEmpty());
        QVERIFY(s.apiKeyWarning.contains(QStringLiteral("keyring stopped")));
        s.save(); // saving other settings meanwhile
        keyring.down = false;
        QCOMPARE(AppSettings::load().remoteApiKey, QStringLiteral("sk-old"));
    }

    // The real system keyring (qtkeychain): under CI no keyring daemon runs and the fallback is
    // taken; on a desktop the key goes into the keyring. Either way the key survives, quickly.
    void theSystemKeyringOrItsFallback() {
        qunsetenv("FOLIO_KEYRING");
        writeOldConf(QStringLiteral("sk-system"));
        QElapsedTimer timer;
        timer.start();
        const AppSettings s = AppSettings::load();
        QVERIFY(timer.elapsed() < 15000);
        QCOMPARE(s.remoteApiKey, QStringLiteral("sk-system"));
        if (s.apiKeyInKeyring) {
            QVERIFY(!QSettings().contains(QStringLiteral("backend/apiKey")));
            QCOMPARE(AppSettings::load().remoteApiKey, QStringLiteral("sk-system"));
            AppSettings cleared = s;
            cleared.remoteApiKey.clear();
            cleared.save(); // leaves nothing behind in the desktop's keyring
        } else {
            qInfo("no system keyring: %s", qPrintable(s.apiKeyWarning));
            QVERIFY(!s.apiKeyWarning.isEmpty());
            QCOMPARE(rawKey(), QStringLiteral("sk-system"));
        }
    }
};

QTEST_MAIN(TestKeyring)
#include "test_keyring.moc"
