// ChatDocuments: the shown chat's documents — opening and loading them (through
// LoadedDocuments), their problems, editing the list (remove, reorder, pin, locate) and the
// lines the reading and the model add. OCR of their scanned pages: chat_documents_ocr.cpp.
#include "core/documents/chat_documents.h"

#include "core/documents/document_loader.h"
#include "core/documents/loaded_documents.h"

#include <QFileInfo>

#include <algorithm>
#include <optional>

namespace folio::ui {

ChatDocuments::ChatDocuments(LoadedDocuments* loaded, QObject* parent)
    : QObject(parent), loaded_(loaded ? loaded : new LoadedDocuments(this)) {
    connect(loaded_, &LoadedDocuments::progress, this, &ChatDocuments::onReadProgress);
    connect(loaded_, &LoadedDocuments::finished, this,
            [this](const QString& path, const Document& doc) { onReadFinished(path, doc); });
    connect(loaded_, &LoadedDocuments::ocrProgress, this, &ChatDocuments::onOcrProgress);
    connect(loaded_, &LoadedDocuments::documentUpdated, this,
            [this](const QString& path, const Document& doc) { showUpdatedDocument(path, doc); });
    connect(loaded_, &LoadedDocuments::ocrFinished, this, &ChatDocuments::onOcrFinished);
}

int ChatDocuments::openFiles(const QStringList& paths) {
    bool added = false;
    int shown = -1;
    for (const QString& path : paths) {
        if (!isSupportedDocument(path)) {
            Q_EMIT loadFailed(tr("%1: unsupported file type (PDF, PNG, JPEG, BMP, GIF)")
                                  .arg(QFileInfo(path).fileName()));
            continue;
        }
        const QString abs = QFileInfo(path).absoluteFilePath();
        int existing = -1;
        for (int i = 0; i < documents_.size() && existing < 0; ++i)
            if (documents_[i].path == abs && documents_[i].state != Document::State::Failed)
                existing = i;
        if (existing >= 0) { // already in the chat: shown, not added twice
            shown = existing;
            continue;
        }
        ChatDocument saved;
        saved.path = abs;
        saved.title = QFileInfo(path).fileName();
        appendAndLoad(abs, saved, false);
        added = true;
    }
    if (added)
        Q_EMIT documentsEdited();
    return shown;
}

int ChatDocuments::append(const QString& path, const ChatDocument& saved, bool restored, int row) {
    Document placeholder;
    placeholder.path = path;
    placeholder.title = saved.title.isEmpty() ? QFileInfo(path).fileName() : saved.title;
    placeholder.kind = saved.isImage ? Document::Kind::Image : Document::Kind::Pdf;
    Entry entry;
    entry.id = nextId_++;
    entry.saved = saved;
    entry.restored = restored;
    const int at = row < 0 || row > documents_.size() ? int(documents_.size()) : row;
    documents_.insert(at, placeholder);
    progress_.insert(at, 0);
    entries_.insert(at, entry);
    return at;
}

void ChatDocuments::startLoad(int row) {
    const quint64 id = entries_[row].id;
    const QString path = documents_[row].path;
    // The chat's OCR languages for the document, before its OCR starts (a document read in
    // another chat with other languages has its OCR pages read again with these).
    if (!entries_[row].saved.isImage)
        loaded_->setOcrLanguages(path, entries_[row].saved.ocrLanguages);
    if (const std::optional<Document> read = loaded_->find(path)) {
        // Read before (in another chat, or at an earlier visit): ready without reading again,
        // once the caller has set up every row.
        QMetaObject::invokeMethod(
            this, [this, id, doc = *read] { onLoaded(id, doc); }, Qt::QueuedConnection);
        // Scanned pages whose OCR stopped before (the document was removed meanwhile) are read
        // now; those OCR could not read wait for "Read scanned pages with OCR".
        if (loaded_->ocrEnabled() &&
            !read->pagesWithSource(PageOrigin::Source::OcrPending).isEmpty())
            loaded_->readOcr(path);
    } else {
        loaded_->read(path);
    }
}

int ChatDocuments::appendAndLoad(const QString& path, const ChatDocument& saved, bool restored) {
    const int row = append(path, saved, restored);
    Q_EMIT rowInserted(row); // before the load, which may report on the row at once (OCR)
    startLoad(row);
    updateBusy();
    return row;
}

void ChatDocuments::onReadProgress(const QString& path, int done, int total) {
    for (int i = 0; i < documents_.size(); ++i) {
        if (documents_[i].path != path || documents_[i].state != Document::State::Loading)
            continue;
        progress_[i] = done;
        documents_[i].pageCount = total;
        Q_EMIT rowChanged(i);
    }
}

void ChatDocuments::onReadFinished(const QString& path, const Document& doc) {
    QList<quint64> waiting;
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].path == path && documents_[i].state == Document::State::Loading)
            waiting << entries_[i].id;
    for (quint64 id : waiting)
        onLoaded(id, doc);
}

int ChatDocuments::rowOf(quint64 id) const {
    for (int i = 0; i < entries_.size(); ++i)
        if (entries_[i].id == id)
            return i;
    return -1;
}

int ChatDocuments::pendingLoads() const {
    int pending = 0;
    for (const Document& d : documents_)
        pending += d.state == Document::State::Loading ? 1 : 0;
    return pending;
}

QStringList ChatDocuments::loadingTitles() const {
    QStringList titles;
    for (const Document& d : documents_)
        if (d.state == Document::State::Loading)
            titles << d.title;
    return titles;
}

void ChatDocuments::updateBusy() {
    const bool busy = pendingLoads() > 0;
    if (busy != busy_) {
        busy_ = busy;
        Q_EMIT busyChanged(busy);
    }
}

void ChatDocuments::onLoaded(quint64 id, const Document& doc) {
    const int index = rowOf(id);
    if (index < 0) // removed (or another chat shown) meanwhile
        return;
    documents_[index] = doc;
    Entry& entry = entries_[index];
    const Problem before = entry.problem;
    if (doc.state == Document::State::Failed) {
        // A file the user just chose is reported by loadFailed; one the chat kept is a problem
        // of the chat (named with "Locate…").
        if (entry.restored)
            entry.problem = QFileInfo::exists(doc.path) ? Problem::Unreadable : Problem::Missing;
    } else {
        entry.problem = !entry.saved.fingerprint.isEmpty() && !doc.fingerprint.isEmpty() &&
                                doc.fingerprint != entry.saved.fingerprint
                            ? Problem::Changed
                            : Problem::None;
        if (entry.problem == Problem::None) {
            // The chat keeps what the file is now (a new document, or one located again).
            entry.saved.fingerprint = doc.fingerprint;
            entry.saved.pageCount = doc.pageCount;
            entry.saved.title = doc.title;
            entry.saved.isImage = doc.kind == Document::Kind::Image;
        }
    }
    const bool problem = entry.problem != Problem::None;
    const bool problemChanged = before != entry.problem;
    const bool restored = entry.restored;
    Q_EMIT rowChanged(index);
    if (doc.state == Document::State::Failed && !restored)
        Q_EMIT loadFailed(doc.error);
    else if (doc.state != Document::State::Failed)
        Q_EMIT documentLoaded(doc);
    Q_EMIT rowLoaded(index);
    Q_EMIT totalsChanged();
    Q_EMIT documentsEdited();
    if (problemChanged || problem)
        Q_EMIT problemsChanged();
    updateBusy();
}

void ChatDocuments::setDocuments(const QList<ChatDocument>& documents) {
    const bool hadProblems = std::any_of(entries_.cbegin(), entries_.cend(),
                                         [](const Entry& e) { return e.problem != Problem::None; });
    documents_.clear();
    progress_.clear();
    entries_.clear();
    removed_.reset(); // another chat's list: its removal is not this one's to undo
    for (const ChatDocument& d : documents)
        append(d.path, d, true);
    Q_EMIT rowsReset(); // before the loads, which may report on rows at once (OCR)
    for (int row = 0; row < documents_.size(); ++row)
        startLoad(row);
    Q_EMIT totalsChanged();
    updateBusy();
    if (hadProblems)
        Q_EMIT problemsChanged();
}

QList<ChatDocument> ChatDocuments::chatDocuments() const {
    QList<ChatDocument> out;
    for (const Entry& e : entries_)
        out << e.saved;
    return out;
}

void ChatDocuments::remove(int row) {
    if (row < 0 || row >= documents_.size())
        return;
    const bool hadProblem = entries_[row].problem != Problem::None;
    // A read no chat waits for any more stops (another chat that needs it reads it again).
    if (documents_[row].state == Document::State::Loading)
        loaded_->cancel(documents_[row].path);
    // So does the OCR of its scanned pages (what was read stays in the cache).
    const QString path = documents_[row].path;
    removed_ = Removed{row, entries_[row].saved};
    const QString title = documents_[row].title;
    int shown = 0;
    for (const Document& d : std::as_const(documents_))
        shown += d.path == path ? 1 : 0;
    if (shown == 1)
        loaded_->cancelOcr(path);
    documents_.removeAt(row);
    progress_.removeAt(row);
    entries_.removeAt(row);
    Q_EMIT rowRemoved(row);
    Q_EMIT totalsChanged();
    updateBusy();
    Q_EMIT documentsEdited();
    if (hadProblem)
        Q_EMIT problemsChanged();
    Q_EMIT documentRemoved(title);
}

bool ChatDocuments::restoreRemoved() {
    if (!removed_)
        return false;
    const Removed r = *std::exchange(removed_, std::nullopt);
    const int row = append(r.saved.path, r.saved, true, r.row);
    Q_EMIT rowInserted(row); // before the load, which may report on the row at once (OCR)
    startLoad(row);
    updateBusy();
    Q_EMIT totalsChanged();
    Q_EMIT documentsEdited();
    return true;
}

void ChatDocuments::move(int row, int delta) {
    const int to = row + delta;
    if (row < 0 || row >= documents_.size() || to < 0 || to >= documents_.size() || delta == 0)
        return;
    documents_.move(row, to);
    progress_.move(row, to);
    entries_.move(row, to);
    Q_EMIT rowMoved(row, to);
    Q_EMIT documentsEdited();
    if (entries_[to].problem != Problem::None)
        Q_EMIT problemsChanged();
}

void ChatDocuments::setPinnedPages(int row, const QString& pages) {
    if (row < 0 || row >= entries_.size() || entries_[row].saved.pinnedPages == pages.trimmed())
        return;
    entries_[row].saved.pinnedPages = pages.trimmed();
    Q_EMIT rowChanged(row);
    Q_EMIT documentsEdited();
}

void ChatDocuments::setReadScannedPages(int row, bool on) {
    if (row < 0 || row >= entries_.size() || entries_[row].saved.readScannedPages == on)
        return;
    entries_[row].saved.readScannedPages = on;
    Q_EMIT rowChanged(row);
    Q_EMIT documentsEdited();
}

void ChatDocuments::locate(int row, const QString& path) {
    if (row < 0 || row >= entries_.size() || path.isEmpty())
        return;
    ChatDocument saved = entries_[row].saved;
    saved.path = QFileInfo(path).absoluteFilePath();
    // The located file replaces the old one in place (same row, same place in the prompt).
    remove(row);
    appendAndLoad(saved.path, saved, true);
    const int last = int(documents_.size()) - 1;
    move(last, row - last);
    // A file that differs from what the chat had is taken as the chat's document from now on.
    entries_[row].saved.fingerprint.clear();
    Q_EMIT documentsEdited();
    Q_EMIT problemsChanged();
}

ChatDocuments::Problem ChatDocuments::problem(int row) const {
    return row >= 0 && row < entries_.size() ? entries_[row].problem : Problem::None;
}

QString ChatDocuments::problemText(int row) const {
    if (row < 0 || row >= entries_.size())
        return {};
    const ChatDocument& d = entries_[row].saved;
    const QString name = QFileInfo(d.path).fileName();
    switch (entries_[row].problem) {
    case Problem::None:
        return {};
    case Problem::Missing:
        return tr("%1 is missing (it was at %2).").arg(name, d.path);
    case Problem::Changed:
        return tr("%1 has changed since it was added to this chat (%2); answers use the file as "
                  "it is now.")
            .arg(name, d.path);
    case Problem::Unreadable:
        return tr("%1 cannot be read: %2").arg(name, documents_[row].error);
    }
    return {};
}

ChatDocuments::Totals ChatDocuments::totals() const {
    Totals t;
    for (const Document& d : documents_) {
        if (d.state != Document::State::Ready)
            continue;
        t.pages += d.pageCount;
        // Exact counts where the model's tokenizer counted the document, else estimates.
        const auto it = exactTokens_.constFind(d.fingerprint);
        if (it != exactTokens_.cend() && d.kind == Document::Kind::Pdf) {
            t.tokens += *it;
        } else {
            t.tokens += d.estimatedTokens(charsPerToken());
            t.exact = false;
        }
    }
    return t;
}

qint64 ChatDocuments::estimatedTokens() const {
    qint64 tokens = 0;
    for (const Document& d : documents_)
        if (d.state == Document::State::Ready)
            tokens += d.estimatedTokens(charsPerToken());
    return tokens;
}

void ChatDocuments::setCharsPerToken(double ratio) {
    if (qAbs(ratio - charsPerToken_) < 0.01)
        return;
    charsPerToken_ = ratio;
    for (int i = 0; i < documents_.size(); ++i)
        Q_EMIT rowChanged(i);
    if (!documents_.isEmpty())
        Q_EMIT totalsChanged();
}

void ChatDocuments::refreshRowsOf(const QString& path) {
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].path == path)
            Q_EMIT rowChanged(i);
}

void ChatDocuments::setReadingStatus(const QString& fingerprint, const QString& text) {
    if (readingStatus_.value(fingerprint) == text)
        return;
    readingStatus_.insert(fingerprint, text);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].fingerprint == fingerprint)
            Q_EMIT rowChanged(i);
}

void ChatDocuments::setExactTokens(const QString& fingerprint, qint64 tokens) {
    exactTokens_.insert(fingerprint, tokens);
    if (!documents_.isEmpty())
        Q_EMIT totalsChanged();
}

void ChatDocuments::setTokenLine(const QString& fingerprint, const QString& text) {
    tokenLines_.insert(fingerprint, text);
    for (int i = 0; i < documents_.size(); ++i)
        if (documents_[i].fingerprint == fingerprint)
            Q_EMIT rowChanged(i);
}

} // namespace folio::ui
