#pragma once
// Where the API key of a remote server lives (issue #25): in the system keyring (qtkeychain:
// Secret Service or KWallet), not in plain folio.conf. Where no keyring runs (a bare X session,
// CI), the key stays in folio.conf as before, and the Settings dialog says so. A key found in
// folio.conf is moved to the keyring once the keyring has it (read back), never dropped before.

#include <QString>

class QSettings;

namespace folio::ui {

// A place for secrets: the system keyring, or a stand-in in tests.
class SecretStore {
public:
    struct Result {
        bool ok = false;
        QString value;
        QString error; // for the user when !ok
    };
    virtual ~SecretStore() = default;
    virtual Result read(const QString& key) = 0;
    virtual Result write(const QString& key, const QString& value) = 0;
    virtual Result remove(const QString& key) = 0;
};

// The store in use: the system keyring (service "Folio/<application name>"; each call waits at
// most 5 s for it), none with FOLIO_KEYRING=none, or the stand-in given here (nullptr: back to
// the system keyring).
SecretStore& secretStore();
void setSecretStoreForTesting(SecretStore* store);

struct ApiKeyLocation {
    QString key;
    bool inKeyring = false;
    QString warning; // "" when the key is safe in the keyring (or there is none)
};

// `settings` is in the group of the backend ("apiKey" is the plain key, "apiKeyInKeyring" says
// where it is). Loading moves a plain key into the keyring when it can.
ApiKeyLocation loadApiKey(QSettings& settings);
// Stores `key` ("" removes it); returns where it went.
ApiKeyLocation saveApiKey(QSettings& settings, const QString& key);
// A key kept in plain text makes its settings file readable and writable by its owner only
// (mode 0600): written out now and its mode set; later writes keep the mode (QSettings replaces
// the file through QSaveFile, which keeps it). False when the mode could not be set.
bool keepSettingsPrivate(QSettings& settings);
// The key from the environment (FOLIO_API_KEY, as folio-cli reads it) for a server whose
// settings keep none; "" when unset.
QString environmentApiKey();

} // namespace folio::ui
