#pragma once
// Settings → Document caches: the snapshots of read documents in the cache folder
// (doc_cache/cache_index.h) with their documents, model, size, tokens and last use, most
// recently used first; Delete, Delete all, and the size budget (least recently used first out).
// Changes apply at once; what Delete removed can be brought back with Undo until the panel
// closes (the snapshots wait in the folder's "deleted" folder until then).

#include "doc_cache/cache_index.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace folio::ui {

class DocumentCachesPanel : public QWidget {
    Q_OBJECT
public:
    // `dir` empty: CacheIndex::defaultDir().
    explicit DocumentCachesPanel(const QString& dir = QString(), QWidget* parent = nullptr);
    ~DocumentCachesPanel() override; // what Delete removed is gone for good

    void refresh();
    void deleteSelected();
    void deleteAll();
    // Brings back what the last Deletes removed.
    void undoDelete();
    // Saves the budget (bytes) and evicts least recently used caches over it.
    void setBudget(qint64 bytes);

private:
    QString dir_;
    QTreeWidget* list_ = nullptr;
    QLabel* total_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* deleteAll_ = nullptr;
    QPushButton* undo_ = nullptr;
    QLabel* deleted_ = nullptr;
    QList<CacheEntry> taken_; // deleted while the panel is open, for Undo
    void takeOut(const QStringList& keys);
};

} // namespace folio::ui
