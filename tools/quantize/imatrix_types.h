#pragma once
// Types folio-cli quantize reads but does not write: the grid i-quants and ternary types (and
// llama-quantize's file types made of them). Folio computes with them (kernels/weight_types.cpp
// has rows without a weight quantizer), but a useful IQ1/IQ2/IQ3 file needs an importance matrix.

#include "folio/error.h"

#include <string>

namespace folio::tools {

// An error naming `name` when it is such a type or file type (as a recipe type or a recipe
// name), else success.
Status refuse_unwritable_type(const std::string& name);

} // namespace folio::tools
