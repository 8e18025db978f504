#pragma once
// Ctrl+F (issue #25): a find bar that floats at the top right of what it searches, the chat's
// transcript or the PDF preview. Enter / F3 go to the next match, Shift+Enter / Shift+F3 to
// the previous one, Esc closes the bar. What a search does is a Searcher's business.

#include <QFrame>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QPdfSearchModel;
class QPdfView;
class QTextBrowser;

namespace folio::ui {

class Searcher {
public:
    virtual ~Searcher() = default;
    // Goes to the next (step 1), previous (-1) or first from here (0) match of `text`;
    // returns the number of matches (0: none), *current its 1-based number (0: unknown).
    virtual int find(const QString& text, int step, int* current) = 0;
    virtual void clear() = 0;
    // The current match with the words around it ("p. 8, OCR text: …Hartley & Rowe LLP…");
    // "" when the searcher does not say.
    virtual QString context() const { return {}; }
    // Called when matches arrive later (a PDF is searched page by page in the background).
    std::function<void()> resultsChanged;
};

class FindBar : public QFrame {
    Q_OBJECT
public:
    // A hidden bar over `host` (its child), searching with `searcher`.
    FindBar(QWidget* host, std::unique_ptr<Searcher> searcher);
    ~FindBar() override;

    // Shows the bar with the search text selected and focused.
    void open();
    void findNext() { search(1); }
    QLineEdit* edit() const { return edit_; }
    QString status() const;
    // The current match as the bar shows it (Searcher::context).
    QString matchContext() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void search(int step);
    void place();

    QWidget* host_;
    std::unique_ptr<Searcher> searcher_;
    QLineEdit* edit_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* context_ = nullptr;
    static constexpr int kContextWidth = 260; // pixels of the match's line shown
};

// Finds in a transcript (QTextBrowser): selects and scrolls to the match, wrapping around.
std::unique_ptr<Searcher> transcriptSearcher(QTextBrowser* view);
// Finds in the PDF shown by `view` (QPdfSearchModel) and in the OCR text of its scanned pages
// (the Document the view carries, kPreviewDocumentProperty): jumps to the match's place.
std::unique_ptr<Searcher> pdfSearcher(QPdfView* view);

} // namespace folio::ui
