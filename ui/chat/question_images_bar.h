#pragma once
// The images attached to the next question, as chips above the chat input (issue #23): a
// thumbnail and a label each ("chart.png", "report.pdf p. 12 (part)"), with a remove button.
// Only these go with the question; sending takes them.

#include "core/chat/question_image.h"

#include <QList>
#include <QWidget>

class QHBoxLayout;

namespace folio::ui {

class QuestionImagesBar : public QWidget {
    Q_OBJECT
public:
    explicit QuestionImagesBar(QWidget* parent = nullptr);

    const QList<QuestionImage>& images() const { return images_; }
    // Adds `image` (once: the same stored file is not attached twice).
    void add(const QuestionImage& image);
    void remove(int index);
    void clear();
    // The images, cleared from the bar (the question being sent takes them).
    QList<QuestionImage> take();
    // The chips' labels, in order (tests, accessibility).
    QStringList labels() const;

Q_SIGNALS:
    void imagesChanged();
    // The chip's context menu: "Extract table" from this image (a chart, a PDF page or a crop
    // of one: its source and page say what its figures are checked against).
    void extractTableRequested(const folio::ui::QuestionImage& image);

private:
    void rebuild();

    QList<QuestionImage> images_;
    QHBoxLayout* layout_ = nullptr;
};

} // namespace folio::ui
