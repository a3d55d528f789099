// QCOM's differences from OpenCL C: buffers taken as images, addressed by texel.
#include "core/render/qcom.h"

#include <array>

#include <fmt/format.h>

#include "core/render/opencl.h"

namespace tr {
namespace {

CStyleLanguage qcom_language(bool native_half) {
  CStyleLanguage lang = opencl_language(native_half);
  // a texel is four floats; a buffer of more than a row's texels wraps onto the next rows
  const std::string coord = fmt::format("(int2)((({{idx}})/4)%{0},(({{idx}})/4)/{0})", kImageWidth);
  lang.image_param = "{access} image2d_t {name}";
  lang.image_load = "read_imagef({buf}, tr_sampler, " + coord + ")";
  lang.image_store = "write_imagef({buf}, " + coord + ", {val});";
  lang.image_prelude = "__constant sampler_t tr_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n";
  return lang;
}

}  // namespace

namespace {

const CStyleLanguage& qcom_language_for(bool native_half) {
  static const std::array<CStyleLanguage, 2> langs{qcom_language(false), qcom_language(true)};
  return langs[native_half ? 1 : 0];
}

}  // namespace

RenderedSource render_qcom(const UOpProgram& p) { return render_cstyle(qcom_language_for(true), p); }

std::string render_qcom_for(const UOpProgram& p, bool native_half) { return render_cstyle(qcom_language_for(native_half), p).text; }

}  // namespace tr
