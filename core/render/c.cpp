// C99 for the host compiler: global dims are loops, a THREAD dim is the core_id parameter.
#include <fmt/format.h>

#include "core/render/cstyle.h"
#include "core/render/render.h"

namespace tr {

std::string render_c(const UOpProgram& p) {
  static const CStyleLanguage lang{
      .prelude = "#include <math.h>\n",
      .kernel_prefix = "void ",
      .buffer_prefix = "",
      .restrict_kw = "restrict",
      .extra_params = {"int core_id"},
      .type = [](DType t) -> std::string {
        switch (t) {
          case DType::Bool: return "_Bool";
          case DType::Int8: return "signed char";
          case DType::UInt8: return "unsigned char";
          case DType::Int16: return "short";
          case DType::UInt16: return "unsigned short";
          case DType::Int32: return "int";
          case DType::UInt32: return "unsigned int";
          case DType::Int64: return "long long";
          case DType::UInt64: return "unsigned long long";
          case DType::Float16: return "_Float16";
          case DType::Float32: return "float";
          case DType::Float64: return "double";
        }
        return "?";
      },
      .special = nullptr,
      .math = [](const std::string& fn, DType t, const std::string& x) {
        if (t == DType::Float64) return fmt::format("{}({})", fn, x);
        if (t == DType::Float32) return fmt::format("{}f({})", fn, x);
        return fmt::format("((_Float16){}f((float){}))", fn, x);
      },
  };
  return render_cstyle(lang, p);
}

}  // namespace tr
