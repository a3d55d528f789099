#pragma once
// The body of one PTX kernel as it is written: fresh registers of each class, each declared once
// at the top, and the instructions in order. The renderer (ptx.cpp) and the float64 math routines
// (ptx_math.cpp) write into it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/render/source_lines.h"

namespace tr {

// PTX register classes: predicates and untyped bits of each width (an instruction's type suffix
// says how it reads them, so a .b32 register holds an int32, a uint32 or a float32).
enum class PtxReg : uint8_t { Pred, B16, B32, B64 };

class PtxCode {
 public:
  std::string reg(PtxReg cls);
  void inst(const std::string& text) { line("\t" + text + ";"); }
  void label(const std::string& name) { line(name + ":"); }
  // The UOps that the instructions written from now on spell.
  void spelling(std::vector<int> uops) { spelling_ = std::move(uops); }
  std::string fresh_label(const std::string& stem) { return stem + "_" + std::to_string(labels_++); }
  // The register declarations, then the instructions.
  RenderedSource text() const;

 private:
  int counts_[4] = {0, 0, 0, 0};
  int labels_ = 0;
  std::vector<std::string> body_;
  std::vector<std::vector<int>> body_uops_;  // per line of body_: the UOps it spells
  std::vector<int> spelling_;

  void line(std::string text) {
    body_.push_back(std::move(text));
    body_uops_.push_back(spelling_);
  }
};

// float64 math as PTX has none of it: each writes the instructions that compute f(x) into code and
// returns the register (a .b64) that holds the result. Errors are near 1 ulp: exp2 and log2 over
// their whole range, sin where |x| < 1e15 (Cody-Waite reduction; beyond it the reduction loses
// the digits that a Payne-Hanek reduction would keep).
std::string ptx_exp2_f64(PtxCode& code, const std::string& x);
std::string ptx_log2_f64(PtxCode& code, const std::string& x);
std::string ptx_sin_f64(PtxCode& code, const std::string& x);

// A float64 constant as PTX spells it: 0d3FF0000000000000.
std::string ptx_f64(double d);

}  // namespace tr
