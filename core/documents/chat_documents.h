#pragma once
// The shown chat's documents, without widgets: per document (in prompt order) the ChatDocument
// the chat keeps, the Document as read (LoadedDocuments: each file read once for every chat),
// what is wrong with it (missing, changed, unreadable) and how far its load has come; the
// per-fingerprint lines the reading and the model add (background reading, exact sizes) and
// the OCR progress of its scanned pages. Opening, removing, reordering, pinning pages and
// locating a moved file happen here; every change the chat should keep is reported by
// documentsEdited(). The Documents pane is a view of it (its rows follow the row signals).

#include "core/documents/chat_document.h"
#include "core/documents/document.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QStringList>

#include <optional>

namespace folio::ui {

class LoadedDocuments;

class ChatDocuments : public QObject {
    Q_OBJECT
public:
    // `loaded`: the files read for every chat; nullptr: a set of its own.
    explicit ChatDocuments(LoadedDocuments* loaded = nullptr, QObject* parent = nullptr);
    LoadedDocuments* loadedDocuments() const { return loaded_; }

    // What is wrong with a document the chat had kept.
    enum class Problem { None, Missing, Changed, Unreadable };

    // Starts loading each file in the background; unsupported files are reported (loadFailed)
    // and skipped. A file already in the list is not added twice: returns the row of the last
    // such file (to be shown instead), -1 when there was none.
    int openFiles(const QStringList& paths);
    // Another chat's documents instead of the current ones (each loaded again, or found read);
    // a file that is gone or whose SHA-256 differs from the saved fingerprint gets a problem.
    void setDocuments(const QList<ChatDocument>& documents);
    // The documents as the chat keeps them (path, fingerprint, title, pages, pinned pages).
    QList<ChatDocument> chatDocuments() const;
    void remove(int row);
    // The document removed last from the chat shown (issue #48 §13: removals can be undone):
    // back in its place, with its pinned pages and switches, read again or found read. False
    // when there is none, or another chat's documents are shown since.
    bool restoreRemoved();
    bool canRestoreRemoved() const { return removed_.has_value(); }
    // Moves the document at `row` by `delta` places (prompt order).
    void move(int row, int delta);
    void setPinnedPages(int row, const QString& pages);
    // "Read scanned pages with the vision model" for the document at `row` (on by default).
    void setReadScannedPages(int row, bool on);
    // The chat's document at `row` is the file at `path` (a moved file found again): loaded
    // from there in the same place; its fingerprint is checked against the saved one, then kept.
    void locate(int row, const QString& path);

    int count() const { return int(documents_.size()); }
    const QList<Document>& documents() const { return documents_; }
    const ChatDocument& chatDocument(int row) const { return entries_[row].saved; }
    // Pages read so far of the document at `row`, while it loads.
    int progress(int row) const { return progress_.value(row); }
    Problem problem(int row) const;
    // What is wrong with the document at `row`, for the user ("report.pdf is missing (…)").
    QString problemText(int row) const;
    int pendingLoads() const;
    // Titles of the documents still loading.
    QStringList loadingTitles() const;

    // OCR of the document at `row`: its languages ("auto", "eng", "chi_sim", "eng+chi_sim":
    // saved, and its scanned pages read again with them), stop, read what is left.
    void setOcrLanguages(int row, const QString& languages);
    QString ocrLanguages(int row) const;
    void stopOcr(int row);
    void readOcr(int row);
    // The row's OCR line ("OCR: page 3 of 8 · about 20 s left", "page 8 read with OCR (…)").
    QString ocrLine(int row) const;

    // Characters per token of the loaded model's tokenizer (0: the default guess, 4).
    void setCharsPerToken(double ratio);
    double charsPerToken() const { return charsPerToken_ > 0 ? charsPerToken_ : 4.0; }
    // Estimated prompt tokens of every ready document.
    qint64 estimatedTokens() const;
    // The ready documents' pages and tokens: exact counts where the model's tokenizer counted
    // a PDF (setExactTokens), else estimates (`exact` false).
    struct Totals {
        int pages = 0;
        qint64 tokens = 0;
        bool exact = true;
    };
    Totals totals() const;
    // A line about a document's background reading, its exact size line, by fingerprint.
    QString readingStatus(const QString& fingerprint) const {
        return readingStatus_.value(fingerprint);
    }
    bool hasTokenLine(const QString& fingerprint) const {
        return tokenLines_.contains(fingerprint);
    }
    QString tokenLine(const QString& fingerprint) const { return tokenLines_.value(fingerprint); }

public Q_SLOTS:
    // The document's background reading ("reading 40% · 1 min left"; "": none).
    void setReadingStatus(const QString& fingerprint, const QString& text);
    // The document's exact size line, shown instead of the estimate ("12,345 tokens · fits").
    void setTokenLine(const QString& fingerprint, const QString& text);
    // The document's exact token count (the loaded model's tokenizer).
    void setExactTokens(const QString& fingerprint, qint64 tokens);

Q_SIGNALS:
    // The rows, as a list view follows them: all replaced (another chat), one added (at the
    // end, or a removed one back in its place), removed, moved, its line changed, its document
    // loaded (or failed).
    void rowsReset();
    void rowInserted(int row);
    void rowRemoved(int row);
    // The user removed `title` from the chat (restoreRemoved() can bring it back).
    void documentRemoved(const QString& title);
    void rowMoved(int from, int to);
    void rowChanged(int row);
    void rowLoaded(int row);
    // The pages and tokens of the whole list changed (totals()).
    void totalsChanged();
    void documentLoaded(const folio::ui::Document& document);
    void loadFailed(const QString& message);
    void busyChanged(bool busy);
    // The list of documents changed (opened, removed, moved, pinned, located, or loaded with
    // its fingerprint and page count): the chat should keep chatDocuments().
    void documentsEdited();
    // Documents gained or lost a problem (see problem()).
    void problemsChanged();
    // A document's text changed after it loaded (OCR of its scanned pages ended): what
    // depends on its text (sizes, the read-ahead) should follow.
    void documentTextChanged(const folio::ui::Document& document);
    // Something about OCR the user should know (a missing language pack, a page that could
    // not be read, a damaged cache entry read again, OCR stopped).
    void ocrMessage(const QString& message, bool error);

private:
    struct Entry {
        quint64 id = 0;
        ChatDocument saved; // as the chat keeps it
        bool restored = false;
        Problem problem = Problem::None;
    };
    // Appends a row for `path`, loading (a placeholder); returns its row. startLoad() then
    // finds it read or reads it; appendAndLoad() does both and reports the row.
    // At `row` (-1: the end).
    int append(const QString& path, const ChatDocument& saved, bool restored, int row = -1);
    void startLoad(int row);
    int appendAndLoad(const QString& path, const ChatDocument& saved, bool restored);
    int rowOf(quint64 id) const;
    void onLoaded(quint64 id, const Document& doc);
    void onReadProgress(const QString& path, int done, int total);
    void onReadFinished(const QString& path, const Document& doc);
    void updateBusy();
    void refreshRowsOf(const QString& path);
    void onOcrProgress(const QString& path, int done, int total, double etaSeconds);
    // Rows of `path` showing this read of it (same fingerprint) take `doc`; true if any did.
    bool showUpdatedDocument(const QString& path, const Document& doc);
    void onOcrFinished(const QString& path, const Document& doc, bool cancelled,
                       const QString& message);

    LoadedDocuments* loaded_ = nullptr;
    QList<Document> documents_;
    QList<int> progress_;  // pages read so far, while loading
    QList<Entry> entries_; // per document: its place in the chat
    quint64 nextId_ = 1;
    struct Removed {
        int row = 0;
        ChatDocument saved;
    };
    std::optional<Removed> removed_; // the last removal, while this chat is shown
    bool busy_ = false;
    double charsPerToken_ = 0;
    QHash<QString, QString> readingStatus_; // by fingerprint
    QHash<QString, QString> tokenLines_;    // by fingerprint
    QHash<QString, qint64> exactTokens_;    // by fingerprint
    QHash<QString, QString> ocrProgress_;   // by path, while OCR runs
    QHash<QString, QString> ocrProblem_;    // by path: the last OCR's problem
};

} // namespace folio::ui
