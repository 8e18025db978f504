#pragma once
// A tree's columns fitted to its width (issue #48 §11: the Devices pane's headers were cut off
// behind a horizontal scroll bar). The columns before the last take their contents' width, each
// at least its header's, together at most three quarters of the width; the last takes the rest
// (its header whole; its text elided, whole in the item's tooltip). Kept fitted when the tree
// is resized; call fitColumns after changing the items.

class QTreeWidget;

namespace folio::ui {

// Turns fitting on for `tree` (no horizontal scroll bar, refitted on every resize).
void keepColumnsFitted(QTreeWidget* tree);
// Fits `tree`'s columns to its viewport's width now.
void fitColumns(QTreeWidget* tree);

} // namespace folio::ui
