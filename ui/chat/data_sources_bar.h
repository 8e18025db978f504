#pragma once
// The row above the chat input that shows the chat's data sources (a SQLite database or CSV
// files the read-only SQL tool may query), a "Data" menu to attach or remove them, and the
// chat's "Tools" switch. Files that no longer exist are named in red, so a chat whose data moved
// still opens and says what is missing.

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QToolButton;

namespace folio::ui {

class DataSourcesBar : public QWidget {
    Q_OBJECT
public:
    explicit DataSourcesBar(QWidget* parent = nullptr);

    void setSources(const QStringList& paths, bool toolsEnabled);
    // The text shown (file names, and which are missing).
    QString summary() const;
    QStringList missingFiles() const { return missing_; }
    QCheckBox* toolsCheck() const { return tools_; }

    // What the menu's actions do (the file dialogs only choose the paths).
    void attachDatabase(const QString& path);
    void attachCsvFiles(const QStringList& paths);
    void removeAll();

Q_SIGNALS:
    void sourcesChanged(const QStringList& paths, bool toolsEnabled);

private:
    void refresh();

    QStringList paths_;
    QStringList missing_;
    QLabel* label_ = nullptr;
    QToolButton* menuButton_ = nullptr;
    QCheckBox* tools_ = nullptr;
};

} // namespace folio::ui
