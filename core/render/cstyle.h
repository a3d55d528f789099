#pragma once
// The rendering every C-like language shares; each language is a small table of its spellings.
#include <functional>
#include <string>
#include <vector>

#include "core/uops.h"

namespace tr {

struct CStyleLanguage {
  std::string prelude;         // text before the kernel: includes, helpers
  std::string kernel_prefix;   // "void ", "__kernel void ", ...
  std::string buffer_prefix;   // "", "__global "
  std::string restrict_kw;     // "restrict", "__restrict__"
  std::vector<std::string> extra_params;  // C: "int core_id"
  std::function<std::string(DType)> type;                        // a scalar type's name
  std::function<std::string(const UOp&)> special;                // the expression of a SPECIAL launch id
  std::function<std::string(const std::string& fn, DType, const std::string& x)> math;  // exp2, log2, sin, sqrt, trunc
};

std::string render_cstyle(const CStyleLanguage& lang, const UOpProgram& program);
// The literal of a constant of dtype t, e.g. "1.5f", "-INFINITY", "3".
std::string cstyle_literal(const ConstValue& v, DType t, const std::function<std::string(DType)>& type);

}  // namespace tr
