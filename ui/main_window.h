#pragma once
// The workbench window: Documents (left dock), Chat (centre), Devices (right dock), menus,
// and a status bar with the model, thread count and engine state.

#include <QMainWindow>

class QLabel;
class QDockWidget;
class QMenu;

namespace folio::ui {

class ChatPane;
class DevicesPane;
class DocumentsPane;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openDocuments(const QStringList& paths);
    // Sets the model file (GGUF) to use; the engine loads it off the GUI thread.
    void openModel(const QString& path);
    // True while documents or a model are loading.
    bool isBusy() const;

    DocumentsPane* documentsPane() const { return documents_; }
    ChatPane* chatPane() const { return chat_; }
    DevicesPane* devicesPane() const { return devices_; }

Q_SIGNALS:
    // Emitted when the last pending load finished.
    void idle();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void chooseDocuments();
    void chooseModel();
    void exportTranscript();
    void about();
    void updateRecentMenu();
    void setState(const QString& state);
    void onBusyChanged();

    DocumentsPane* documents_ = nullptr;
    ChatPane* chat_ = nullptr;
    DevicesPane* devices_ = nullptr;
    QDockWidget* documentsDock_ = nullptr;
    QDockWidget* devicesDock_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* threadsLabel_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    int modelLoads_ = 0;
};

} // namespace folio::ui
