#pragma once
// The documents that go with the next question, as chips above the input: each a title
// (shortened in the middle, whole in the tooltip) and, for a document of the chat, a remove
// button. Hidden while there are none.

#include <QList>
#include <QStringList>
#include <QWidget>

class QHBoxLayout;

namespace folio::ui {

class AttachmentChips : public QWidget {
    Q_OBJECT
public:
    explicit AttachmentChips(QWidget* parent = nullptr);

    // `rows[i]`: the chat's row of names[i] (removeRequested names it); names past the end of
    // `rows` have no remove button.
    void setAttachments(const QStringList& names, const QList<int>& rows = {});
    const QStringList& names() const { return names_; }

Q_SIGNALS:
    void removeRequested(int row);

private:
    QString chipStyle() const;

    QStringList names_;
    QHBoxLayout* layout_ = nullptr;
};

} // namespace folio::ui
