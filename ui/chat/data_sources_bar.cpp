#include "chat/data_sources_bar.h"

#include "style/palette_colors.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolButton>

namespace folio::ui {

using style::Tone;

DataSourcesBar::DataSourcesBar(QWidget* parent) : QWidget(parent) {
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(0, 0, 0, 0);
    menuButton_ = new QToolButton(this);
    menuButton_->setObjectName(QStringLiteral("dataSourcesButton"));
    menuButton_->setText(tr("Data"));
    menuButton_->setToolTip(tr("Attach a SQLite database or CSV files the model may query "
                               "(read-only SQL)"));
    menuButton_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(menuButton_);
    menu->addAction(tr("Attach SQLite database…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Attach a SQLite database"), QString(),
            tr("SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"));
        if (!path.isEmpty())
            attachDatabase(path);
    });
    menu->addAction(tr("Attach CSV files…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Attach CSV files"), QString(), tr("CSV files (*.csv);;All files (*)"));
        if (!paths.isEmpty())
            attachCsvFiles(paths);
    });
    menu->addSeparator();
    menu->addAction(tr("Remove data sources"), this, &DataSourcesBar::removeAll);
    menuButton_->setMenu(menu);
    h->addWidget(menuButton_);
    label_ = new QLabel(this);
    label_->setObjectName(QStringLiteral("dataSourcesLabel"));
    label_->setTextFormat(Qt::RichText);
    h->addWidget(label_, 1);
    tools_ = new QCheckBox(tr("Tools"), this);
    tools_->setObjectName(QStringLiteral("toolsCheck"));
    tools_->setToolTip(tr("Let the model run read-only SQL queries on the attached data"));
    connect(tools_, &QCheckBox::toggled, this,
            [this](bool on) { Q_EMIT sourcesChanged(paths_, on); });
    h->addWidget(tools_);
    style::followPalette(this, [this] { refresh(); });
}

void DataSourcesBar::setSources(const QStringList& paths, bool toolsEnabled) {
    paths_ = paths;
    const QSignalBlocker block(tools_);
    tools_->setChecked(toolsEnabled);
    refresh();
}

void DataSourcesBar::attachDatabase(const QString& path) {
    paths_ = {QFileInfo(path).absoluteFilePath()};
    setSources(paths_, true);
    Q_EMIT sourcesChanged(paths_, true);
}

void DataSourcesBar::attachCsvFiles(const QStringList& paths) {
    // CSV files go together into one in-memory database; a SQLite file cannot join them.
    if (!paths_.isEmpty() && !paths_.first().endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        paths_.clear();
    for (const QString& p : paths) {
        const QString abs = QFileInfo(p).absoluteFilePath();
        if (!paths_.contains(abs))
            paths_ << abs;
    }
    setSources(paths_, true);
    Q_EMIT sourcesChanged(paths_, true);
}

void DataSourcesBar::removeAll() {
    setSources({}, tools_->isChecked());
    Q_EMIT sourcesChanged(paths_, tools_->isChecked());
}

QString DataSourcesBar::summary() const {
    return label_->text();
}

void DataSourcesBar::refresh() {
    missing_.clear();
    QStringList parts;
    for (const QString& p : paths_) {
        const QString name = QFileInfo(p).fileName().toHtmlEscaped();
        if (QFileInfo::exists(p)) {
            parts << QStringLiteral("<span style='background:%2; color:%3'>&nbsp;%1"
                                    "&nbsp;</span>")
                         .arg(name, style::css(style::toneBackground(palette(), Tone::Positive)),
                              style::css(style::readable(
                                  style::toneText(palette(), Tone::Positive),
                                  style::toneBackground(palette(), Tone::Positive))));
        } else {
            missing_ << p;
            parts << QStringLiteral("<span style='color:%2'>%1</span>")
                         .arg(tr("%1 not found (%2): attach it again").arg(name, p.toHtmlEscaped()),
                              style::css(style::toneText(palette(), Tone::Negative)));
        }
    }
    label_->setText(parts.isEmpty()
                        ? QStringLiteral("<span style='color:%1'>%2</span>")
                              .arg(style::css(style::mutedText(palette())), tr("No data sources"))
                        : parts.join(QLatin1Char(' ')));
    label_->setToolTip(paths_.join(QLatin1Char('\n')));
    tools_->setEnabled(!paths_.isEmpty());
}

} // namespace folio::ui
