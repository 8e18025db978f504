# The figure checker (core/figures, docs/FIGURE_CHECK.md): the table of formats and traps.
folio_add_test(test_figures SOURCES figures/test_figures.cpp LIBS folio_figures LABELS figures)
