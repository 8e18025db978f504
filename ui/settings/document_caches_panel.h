#pragma once
// Settings → Document caches: the snapshots of read documents in the cache folder
// (doc_cache/cache_index.h) with their documents, model, size, tokens and last use, most
// recently used first; Delete, Delete all, and the size budget (least recently used first out).
// Changes apply at once.

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

    void refresh();
    void deleteSelected();
    void deleteAll();
    // Saves the budget (bytes) and evicts least recently used caches over it.
    void setBudget(qint64 bytes);

private:
    QString dir_;
    QTreeWidget* list_ = nullptr;
    QLabel* total_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* deleteAll_ = nullptr;
};

} // namespace folio::ui
