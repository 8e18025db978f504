#include "doc_cache/reading_presenter.h"

#include <QLocale>
#include <QTimer>
#include <QtMath>

#include <chrono>

namespace folio::ui {

namespace {

// Room the question and the answer need besides the documents (as the Documents pane's summary).
constexpr qint64 kQuestionReserve = 1024;

QString duration(double seconds) {
    if (seconds < 60)
        return QObject::tr("%1 s").arg(qMax(1, qRound(seconds)));
    if (seconds < 3600)
        return QObject::tr("%1 min").arg(qRound(seconds / 60));
    return QObject::tr("%1 h %2 min")
        .arg(int(seconds / 3600))
        .arg(qRound(fmod(seconds, 3600) / 60));
}

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

ReadingPresenter::ReadingPresenter(QObject* parent)
    : QObject(parent), clock_(steadySeconds), ticker_(new QTimer(this)) {
    ticker_->setInterval(1000);
    connect(ticker_, &QTimer::timeout, this, &ReadingPresenter::tick);
    connect(&counts_, &TokenCountCache::counted, this,
            [this](const QString& fingerprint, qint64 tokens) {
                Q_EMIT documentTokens(fingerprint, tokenLine(tokens, contextLimit_));
                refresh(); // a size became known: maybe the documents can be read now
            });
}

QString ReadingPresenter::tokenLine(qint64 tokens, qint64 contextLimit) {
    const QString n = tr("%1 tokens").arg(QLocale().toString(tokens));
    if (contextLimit <= 0)
        return n;
    return tokens + kQuestionReserve <= contextLimit
               ? n + tr(" · fits")
               : n + tr(" · too long: pages will be chosen per question");
}

QString ReadingPresenter::progressLine(qint64 done, qint64 total, double etaSeconds) {
    const int percent = total > 0 ? int(qMin<qint64>(100, done * 100 / total)) : 0;
    QString line = tr("reading %1%").arg(percent);
    if (etaSeconds > 0 && done < total)
        line += tr(" · about %1 left").arg(duration(etaSeconds));
    return line;
}

void ReadingPresenter::update(const QString& systemPrompt, const QList<Document>& documents,
                              bool engineReady, qint64 contextLimit,
                              const PrefixImageOptions& images) {
    documents_ = documents;
    images_ = images;
    systemPrompt_ = systemPrompt;
    engineReady_ = engineReady;
    const bool limitChanged = contextLimit != contextLimit_;
    contextLimit_ = contextLimit;
    if (limitChanged)
        countAll();
    refresh();
    countAll();
}

int ReadingPresenter::prefixFits(const DocumentPrefix& prefix) const {
    if (contextLimit_ <= 0)
        return 1;
    qint64 tokens = counts_.counter().text(systemPrompt_) + kQuestionReserve;
    // Page images: at most their canvas budget each (the counts above are of the text).
    tokens += prefix.imageFiles().size() * qint64(images_.params.maxTokens);
    for (const Document& d : documents_) {
        if (!prefix.fingerprints().contains(d.fingerprint))
            continue;
        const qint64 n = counts_.cached(d);
        if (n < 0)
            return -1;
        tokens += n;
    }
    return tokens <= contextLimit_ ? 1 : 0;
}

void ReadingPresenter::refresh() {
    DocumentPrefix prefix =
        engineReady_ ? documentPrefix(systemPrompt_, documents_, images_) : DocumentPrefix();
    const int fits = prefix.isEmpty() ? 1 : prefixFits(prefix);
    const QStringList skipped = fits == 1 ? QStringList() : prefix.fingerprints();
    if (fits != 1)
        prefix = DocumentPrefix();
    // Too long: the size line already says its pages are chosen per question.
    for (const QString& fingerprint : skipped)
        setStatus(fingerprint, fits < 0 ? tr("counting its tokens…") : QString());
    if (engineReady_ == ready_ && prefix.sameAs(prefix_))
        return;
    const bool engineReady = engineReady_;
    ready_ = engineReady;
    // Documents no longer in the prefix lose their reading line.
    for (const PrefixDocument& d : prefix_.documents)
        if (!prefix.fingerprints().contains(d.fingerprint) && !skipped.contains(d.fingerprint))
            setStatus(d.fingerprint, QString());
    prefix_ = prefix;
    rates_.clear(); // a new read: rates are measured afresh
    for (const PrefixDocument& d : prefix_.documents)
        setStatus(d.fingerprint, tr("waiting to be read"));
    Q_EMIT statusLine(prefix_.isEmpty() ? QString() : tr("Reading documents in the background…"));
    Q_EMIT readRequested(prefix_);
}

void ReadingPresenter::setStatus(const QString& fingerprint, const QString& text) {
    if (status_.value(fingerprint) == text && status_.contains(fingerprint))
        return;
    status_.insert(fingerprint, text);
    Q_EMIT documentStatus(fingerprint, text);
}

void ReadingPresenter::onProgress(const QString& fingerprint, qint64 done, qint64 total,
                                  double eta) {
    QString title;
    for (const PrefixDocument& d : prefix_.documents)
        if (d.fingerprint == fingerprint)
            title = d.title;
    if (title.isEmpty())
        return;    // another prefix's
    Q_UNUSED(eta); // the engine's figure over the whole read: the measured rate is used
    const double now = clock_();
    auto r = rates_.find(fingerprint);
    if (r != rates_.end() && done < r->done) { // read again from the start
        rates_.erase(r);
        r = rates_.end();
    }
    if (r == rates_.end()) {
        // The first report: what was read before it is not timed here.
        r = rates_.insert(fingerprint, Reading());
        r->eta.start(double(total), now, double(done));
        r->firstTime = now;
        r->firstDone = done;
    } else {
        r->eta.setTotal(double(total));
        r->eta.progress(double(done), now);
    }
    r->title = title;
    r->done = done;
    r->total = total;
    r->lastTime = now;
    showReading(fingerprint, *r, now);
    if (!ticker_->isActive())
        ticker_->start();
}

void ReadingPresenter::showReading(const QString& fingerprint, const Reading& r, double now) {
    const QString line = progressLine(r.done, r.total, r.eta.remaining(now));
    setStatus(fingerprint, line);
    Q_EMIT statusLine(tr("Reading %1 in the background: %2").arg(r.title, line));
}

void ReadingPresenter::tick() {
    if (rates_.isEmpty()) {
        ticker_->stop();
        return;
    }
    const double now = clock_();
    for (auto it = rates_.cbegin(); it != rates_.cend(); ++it)
        if (prefix_.fingerprints().contains(it.key()))
            showReading(it.key(), it.value(), now);
}

void ReadingPresenter::onResumed(const QString& fingerprint, qint64 done, qint64 total) {
    QString title;
    for (const PrefixDocument& d : prefix_.documents)
        if (d.fingerprint == fingerprint)
            title = d.title;
    if (title.isEmpty())
        return; // another prefix's
    const int percent = total > 0 ? int(qMin<qint64>(100, done * 100 / total)) : 0;
    setStatus(fingerprint, tr("resuming at %1%").arg(percent));
    Q_EMIT statusLine(tr("Reading %1 in the background: resuming at %2%").arg(title).arg(percent));
}

void ReadingPresenter::onDocumentRead(const QString& fingerprint, qint64 tokens) {
    if (!prefix_.fingerprints().contains(fingerprint))
        return;
    Q_UNUSED(tokens); // the prompt through this document, earlier ones included
    // Its reading rate: tokens read between its first and last progress over that time.
    const Reading rate = rates_.take(fingerprint);
    const qint64 read = rate.done - rate.firstDone;
    const double seconds = rate.lastTime - rate.firstTime;
    if (read > 0 && seconds > 0.05)
        setStatus(fingerprint, tr("read at %1 tokens/s · ready for questions")
                                   .arg(QLocale().toString(qRound(read / seconds))));
    else
        setStatus(fingerprint, tr("read · ready for questions"));
}

void ReadingPresenter::onFinished(qint64 tokens, bool fromCache, double seconds) {
    rates_.clear();
    if (fromCache)
        for (const PrefixDocument& d : prefix_.documents)
            setStatus(d.fingerprint, tr("read · loaded from the document cache"));
    Q_EMIT statusLine(
        fromCache
            ? tr("Documents loaded from the cache (%1 tokens)").arg(QLocale().toString(tokens))
            : tr("Documents read (%1 tokens in %2)")
                  .arg(QLocale().toString(tokens), duration(seconds)));
}

void ReadingPresenter::onMessage(const QString& message) {
    Q_EMIT notice(message);
}

void ReadingPresenter::onCounterChanged(const TokenCounter& counter) {
    counts_.setCounter(counter);
    countAll();
}

void ReadingPresenter::countAll() {
    for (const Document& d : documents_)
        counts_.count(d); // emits at once when cached, later when counted
}

} // namespace folio::ui
