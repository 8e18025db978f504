#pragma once
// The Devices pane's view of a remote backend: the server and model answering, what the server
// reported for the last answer (usage: prompt, cached and generated tokens), a plain statement
// that it reports no memory or cache figures, and per answer the TTFT and decode t/s measured
// by Folio (network included).

#include <QGroupBox>

class QLabel;
class QTreeWidget;

namespace folio::ui {

struct BackendStatusQ;
struct RequestStatsQ;

class ServerPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit ServerPanel(QWidget* parent = nullptr);

    void setServer(const QString& endpoint, const QString& model, qint64 contextLength);
    void setStatus(const BackendStatusQ& status);
    // One finished answer (client-side figures); the newest comes first, at most 50 are kept.
    void addAnswer(const RequestStatsQ& stats);
    void clearAnswers();

    QString statusText() const;
    QString noteText() const;
    QTreeWidget* answers() const { return answers_; }

private:
    QLabel* server_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* note_ = nullptr;
    QTreeWidget* answers_ = nullptr;
    int answerCount_ = 0;
};

} // namespace folio::ui
