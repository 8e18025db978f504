#include "settings/document_caches_panel.h"

#include "doc_cache/cache_index.h"
#include "folio/model_info.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio::ui {

namespace {

QString bytesText(qint64 bytes) {
    return QString::fromStdString(format_bytes(static_cast<uint64_t>(qMax<qint64>(0, bytes))));
}

} // namespace

DocumentCachesPanel::DocumentCachesPanel(const QString& dir, QWidget* parent)
    : QWidget(parent), dir_(dir.isEmpty() ? CacheIndex::defaultDir() : dir) {
    setObjectName(QStringLiteral("documentCachesPanel"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Documents read by a model are kept here, so the next question (also after a "
                      "restart) does not read them again. Folder: %1")
                       .arg(dir_),
                   this);
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(intro);

    list_ = new QTreeWidget(this);
    list_->setObjectName(QStringLiteral("documentCacheList"));
    list_->setHeaderLabels(
        {tr("Documents"), tr("Model"), tr("Size"), tr("Tokens"), tr("Last used")});
    list_->setRootIsDecorated(false);
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    list_->setMinimumHeight(180);
    layout->addWidget(list_, 1);

    total_ = new QLabel(this);
    total_->setObjectName(QStringLiteral("documentCacheTotal"));
    layout->addWidget(total_);

    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Size budget"), this));
    budget_ = new QSpinBox(this);
    budget_->setObjectName(QStringLiteral("documentCacheBudget"));
    budget_->setRange(1, 4096);
    budget_->setSuffix(tr(" GiB"));
    budget_->setValue(static_cast<int>(qMax<qint64>(1, CacheIndex::budgetSetting() >> 30)));
    connect(budget_, &QSpinBox::valueChanged, this,
            [this](int gib) { setBudget(qint64(gib) << 30); });
    row->addWidget(budget_);
    row->addStretch(1);
    delete_ = new QPushButton(tr("Delete"), this);
    delete_->setObjectName(QStringLiteral("documentCacheDelete"));
    connect(delete_, &QPushButton::clicked, this, &DocumentCachesPanel::deleteSelected);
    row->addWidget(delete_);
    deleteAll_ = new QPushButton(tr("Delete all"), this);
    deleteAll_->setObjectName(QStringLiteral("documentCacheDeleteAll"));
    connect(deleteAll_, &QPushButton::clicked, this, &DocumentCachesPanel::deleteAll);
    row->addWidget(deleteAll_);
    layout->addLayout(row);
    auto* undoRow = new QHBoxLayout;
    deleted_ = new QLabel(this);
    deleted_->setObjectName(QStringLiteral("documentCacheDeleted"));
    undoRow->addWidget(deleted_, 1);
    undo_ = new QPushButton(tr("Undo"), this);
    undo_->setObjectName(QStringLiteral("documentCacheUndo"));
    connect(undo_, &QPushButton::clicked, this, &DocumentCachesPanel::undoDelete);
    undoRow->addWidget(undo_);
    layout->addLayout(undoRow);
    // What an earlier dialog deleted (and a crash kept from being removed) is gone now.
    CacheIndex(dir_).purgeDeleted();
    connect(list_, &QTreeWidget::itemSelectionChanged, this,
            [this] { delete_->setEnabled(!list_->selectedItems().isEmpty()); });
    refresh();
}

DocumentCachesPanel::~DocumentCachesPanel() {
    if (!taken_.isEmpty())
        CacheIndex(dir_).purgeDeleted();
}

void DocumentCachesPanel::refresh() {
    CacheIndex index(dir_);
    list_->clear();
    for (const CacheEntry& e : index.entries()) {
        auto* item = new QTreeWidgetItem(
            {e.documents.join(QStringLiteral(", ")), e.model, bytesText(e.bytes),
             QLocale().toString(e.tokens),
             QLocale().toString(e.lastUsed.toLocalTime(), QLocale::ShortFormat)});
        item->setData(0, Qt::UserRole, e.key);
        item->setToolTip(0, e.documents.join(QLatin1Char('\n')));
        list_->addTopLevelItem(item);
    }
    const qsizetype n = index.entries().size();
    total_->setText(
        (n == 1 ? tr("1 cache") : tr("%1 caches").arg(n)) +
        tr(" · %1 of %2")
            .arg(bytesText(index.totalBytes()), bytesText(CacheIndex::budgetSetting())));
    delete_->setEnabled(!list_->selectedItems().isEmpty());
    deleteAll_->setEnabled(n > 0);
    qint64 takenBytes = 0;
    for (const CacheEntry& e : taken_)
        takenBytes += e.bytes;
    const qsizetype deleted = taken_.size();
    deleted_->setText(deleted == 0 ? QString()
                      : deleted == 1
                          ? tr("Deleted 1 cache (%1).").arg(bytesText(takenBytes))
                          : tr("Deleted %1 caches (%2).").arg(deleted).arg(bytesText(takenBytes)));
    undo_->setVisible(!taken_.isEmpty());
}

void DocumentCachesPanel::takeOut(const QStringList& keys) {
    taken_ += CacheIndex(dir_).takeOut(keys);
    refresh();
}

void DocumentCachesPanel::undoDelete() {
    CacheIndex(dir_).restore(taken_);
    taken_.clear();
    refresh();
}

void DocumentCachesPanel::deleteSelected() {
    QStringList keys;
    for (QTreeWidgetItem* item : list_->selectedItems())
        keys << item->data(0, Qt::UserRole).toString();
    takeOut(keys);
}

void DocumentCachesPanel::deleteAll() {
    QStringList keys;
    for (const CacheEntry& e : CacheIndex(dir_).entries())
        keys << e.key;
    takeOut(keys);
}

void DocumentCachesPanel::setBudget(qint64 bytes) {
    CacheIndex::setBudgetSetting(bytes);
    CacheIndex index(dir_);
    index.enforceBudget(bytes);
    refresh();
}

} // namespace folio::ui
