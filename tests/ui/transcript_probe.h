#pragma once
// For the workbench tests: where a link sits in the transcript's document.

#include <QTextBlock>
#include <QTextDocument>

namespace folio::test {

// The document position of the first link to `href`, or -1.
inline int anchorPosition(QTextDocument* doc, const QString& href) {
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorHref() == href)
                return it.fragment().position();
    return -1;
}

} // namespace folio::test
