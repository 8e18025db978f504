# The figure checker (core/figures, docs/FIGURE_CHECK.md): the table of formats and traps, and
# `folio-cli check-figures` on the sample report.
folio_add_test(test_figures SOURCES core/figures/test_figures.cpp LIBS folio_figures LABELS figures)
if(FOLIO_BUILD_UI)
    folio_add_test(test_check_figures_cli SOURCES core/figures/test_check_figures_cli.cpp
                   LABELS figures app TIMEOUT 120)
    add_dependencies(test_check_figures_cli folio-cli folio_samples)
endif()
