// exp2, log2 and sin in float64 for the PTX renderer: PTX has approximate float32 versions only.
// Each is straight-line code (selects, no branches) around a polynomial whose coefficients are
// Taylor series terms, evaluated by Horner's rule with fused multiply-adds. The PTX renderer also
// computes float32 log2 and sin through these, which keeps them within an ulp as CUDA's are.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/render/ptx.h"

namespace tr {

std::string PtxCode::reg(PtxReg cls) {
  static constexpr const char* prefix[] = {"%p", "%h", "%r", "%rd"};
  const int c = static_cast<int>(cls);
  return fmt::format("{}{}", prefix[c], counts_[c]++);
}

RenderedSource PtxCode::text() const {
  static constexpr const char* decl[] = {".pred %p", ".b16 %h", ".b32 %r", ".b64 %rd"};
  RenderedSource out;
  for (int c = 0; c < 4; c++)
    if (counts_[c] > 0) out.append(fmt::format("\t.reg {}<{}>;\n", decl[c], counts_[c]));
  for (size_t l = 0; l < body_.size(); l++) out.append(body_[l] + "\n", body_uops_[l]);
  return out;
}

std::string ptx_f64(double d) { return fmt::format("0d{:016X}", std::bit_cast<uint64_t>(d)); }

namespace {

// The bits of the float64 in a 64-bit hex literal, for selp.b64 and the integer ops.
std::string bits_of(double d) { return fmt::format("0x{:016X}", std::bit_cast<uint64_t>(d)); }

// The float64 pieces of pi/2, whose sum is pi/2 to about 160 bits: k*pi/2 is subtracted a piece at
// a time, each with one rounding, so that x - k*pi/2 keeps its digits where it is small.
constexpr uint64_t kHalfPi1 = 0x3FF921FB54442D18, kHalfPi2 = 0x3C91A62633145C07, kHalfPi3 = 0xB91F1976B7ED8FBC;

// c[0] + z*(c[1] + z*(c[2] + ...)) into a fresh register.
std::string horner(PtxCode& code, const std::string& z, const std::vector<double>& c) {
  const std::string acc = code.reg(PtxReg::B64);
  code.inst(fmt::format("mov.b64 {}, {}", acc, ptx_f64(c.back())));
  for (size_t k = c.size() - 1; k-- > 0;) code.inst(fmt::format("fma.rn.f64 {0}, {0}, {1}, {2}", acc, z, ptx_f64(c[k])));
  return acc;
}

// r = cond ? a : r
void select_into(PtxCode& code, const std::string& r, const std::string& cond, const std::string& a) {
  code.inst(fmt::format("selp.b64 {0}, {1}, {0}, {2}", r, a, cond));
}

}  // namespace

// 2^x = 2^n * 2^f with n = rint(x) and |f| <= 1/2; 2^n is applied as two powers of two so that
// each stays a normal number down to the smallest subnormal result.
std::string ptx_exp2_f64(PtxCode& code, const std::string& x) {
  std::vector<double> c;
  long double term = 1;
  for (int k = 0; k <= 14; k++) {
    c.push_back(static_cast<double>(term));
    term *= 0.693147180559945309417232121458176568L / (k + 1);
  }
  const std::string xc = code.reg(PtxReg::B64), n = code.reg(PtxReg::B64), f = code.reg(PtxReg::B64);
  code.inst(fmt::format("max.f64 {}, {}, {}", xc, x, ptx_f64(-1080)));
  code.inst(fmt::format("min.f64 {0}, {0}, {1}", xc, ptx_f64(1030)));
  code.inst(fmt::format("cvt.rni.f64.f64 {}, {}", n, xc));
  code.inst(fmt::format("sub.rn.f64 {}, {}, {}", f, xc, n));
  const std::string p = horner(code, f, c);
  const std::string ni = code.reg(PtxReg::B32), n1 = code.reg(PtxReg::B32), n2 = code.reg(PtxReg::B32);
  code.inst(fmt::format("cvt.rni.s32.f64 {}, {}", ni, n));
  code.inst(fmt::format("shr.s32 {}, {}, 1", n1, ni));
  code.inst(fmt::format("sub.s32 {}, {}, {}", n2, ni, n1));
  const std::string r = code.reg(PtxReg::B64);
  code.inst(fmt::format("mov.b64 {}, {}", r, p));
  for (const std::string& half : {n1, n2}) {
    const std::string scale = code.reg(PtxReg::B64);
    code.inst(fmt::format("cvt.s64.s32 {}, {}", scale, half));
    code.inst(fmt::format("add.s64 {0}, {0}, 1023", scale));
    code.inst(fmt::format("shl.b64 {0}, {0}, 52", scale));
    code.inst(fmt::format("mul.rn.f64 {0}, {0}, {1}", r, scale));
  }
  const std::string nan = code.reg(PtxReg::Pred);
  code.inst(fmt::format("setp.nan.f64 {}, {}, {}", nan, x, x));
  select_into(code, r, nan, x);
  return r;
}

// log2 x = e + log2 m with m in [sqrt(1/2), sqrt(2)], and ln m = 2 atanh(s) = 2(s + s^3/3 + ...)
// with s = (m-1)/(m+1), |s| < 0.18. Subnormal x is scaled by 2^54 first.
std::string ptx_log2_f64(PtxCode& code, const std::string& x) {
  const std::string tiny = code.reg(PtxReg::Pred), xs = code.reg(PtxReg::B64), e = code.reg(PtxReg::B32);
  code.inst(fmt::format("setp.lt.f64 {}, {}, {}", tiny, x, ptx_f64(0x1p-1022)));
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", xs, x, ptx_f64(0x1p54)));
  code.inst(fmt::format("selp.b64 {0}, {0}, {1}, {2}", xs, x, tiny));
  const std::string e64 = code.reg(PtxReg::B64), m = code.reg(PtxReg::B64);
  code.inst(fmt::format("shr.u64 {}, {}, 52", e64, xs));
  code.inst(fmt::format("and.b64 {0}, {0}, 2047", e64));
  code.inst(fmt::format("cvt.u32.u64 {}, {}", e, e64));
  const std::string bias = code.reg(PtxReg::B32);
  code.inst(fmt::format("selp.s32 {}, 1077, 1023, {}", bias, tiny));
  code.inst(fmt::format("sub.s32 {0}, {0}, {1}", e, bias));
  code.inst(fmt::format("and.b64 {}, {}, 0x000FFFFFFFFFFFFF", m, xs));
  code.inst(fmt::format("or.b64 {0}, {0}, 0x3FF0000000000000", m));
  const std::string big = code.reg(PtxReg::Pred), half = code.reg(PtxReg::B64), one = code.reg(PtxReg::B32);
  code.inst(fmt::format("setp.gt.f64 {}, {}, {}", big, m, ptx_f64(std::sqrt(2.0))));
  code.inst(fmt::format("mul.rn.f64 {}, {}, 0d3FE0000000000000", half, m));
  select_into(code, m, big, half);
  code.inst(fmt::format("selp.s32 {}, 1, 0, {}", one, big));
  code.inst(fmt::format("add.s32 {0}, {0}, {1}", e, one));
  const std::string num = code.reg(PtxReg::B64), den = code.reg(PtxReg::B64), s = code.reg(PtxReg::B64), z = code.reg(PtxReg::B64);
  code.inst(fmt::format("sub.rn.f64 {}, {}, 0d3FF0000000000000", num, m));
  code.inst(fmt::format("add.rn.f64 {}, {}, 0d3FF0000000000000", den, m));
  code.inst(fmt::format("div.rn.f64 {}, {}, {}", s, num, den));
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", z, s, s));
  std::vector<double> c;
  for (int k = 0; k <= 10; k++) c.push_back(1.0 / (2 * k + 1));
  const std::string t = horner(code, z, c);
  const std::string ln = code.reg(PtxReg::B64), ed = code.reg(PtxReg::B64), r = code.reg(PtxReg::B64);
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", ln, s, t));
  code.inst(fmt::format("cvt.rn.f64.s32 {}, {}", ed, e));
  code.inst(fmt::format("fma.rn.f64 {}, {}, {}, {}", r, ln, ptx_f64(static_cast<double>(2 / 0.693147180559945309417232121458176568L)), ed));
  const std::string q = code.reg(PtxReg::Pred);
  code.inst(fmt::format("setp.eq.f64 {}, {}, {}", q, x, ptx_f64(INFINITY)));
  select_into(code, r, q, bits_of(INFINITY));
  code.inst(fmt::format("setp.eq.f64 {}, {}, 0d0000000000000000", q, x));
  select_into(code, r, q, bits_of(-INFINITY));
  code.inst(fmt::format("setp.lt.f64 {}, {}, 0d0000000000000000", q, x));
  select_into(code, r, q, bits_of(NAN));
  code.inst(fmt::format("setp.nan.f64 {}, {}, {}", q, x, x));
  select_into(code, r, q, x);
  return r;
}

// sin x = ±sin r or ±cos r by the quadrant k = rint(x*2/pi), with r = x - k*pi/2 in [-pi/4, pi/4].
std::string ptx_sin_f64(PtxCode& code, const std::string& x) {
  const std::string k = code.reg(PtxReg::B64), nk = code.reg(PtxReg::B64), r = code.reg(PtxReg::B64);
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", k, x, ptx_f64(0.63661977236758134308)));
  code.inst(fmt::format("cvt.rni.f64.f64 {0}, {0}", k));
  code.inst(fmt::format("neg.f64 {}, {}", nk, k));
  code.inst(fmt::format("fma.rn.f64 {}, {}, 0d{:016X}, {}", r, nk, kHalfPi1, x));
  code.inst(fmt::format("fma.rn.f64 {0}, {1}, 0d{2:016X}, {0}", r, nk, kHalfPi2));
  code.inst(fmt::format("fma.rn.f64 {0}, {1}, 0d{2:016X}, {0}", r, nk, kHalfPi3));
  const std::string z = code.reg(PtxReg::B64);
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", z, r, r));
  std::vector<double> sc, cc;
  long double fact = 1;  // (2j)! then (2j+1)!
  for (int j = 0; j <= 8; j++) {
    if (j > 0) fact *= (2 * j - 1) * (2 * j);
    cc.push_back(static_cast<double>((j % 2 ? -1 : 1) / fact));
    sc.push_back(static_cast<double>((j % 2 ? -1 : 1) / (fact * (2 * j + 1))));
  }
  const std::string sp = horner(code, z, sc), cosr = horner(code, z, cc), sinr = code.reg(PtxReg::B64);
  code.inst(fmt::format("mul.rn.f64 {}, {}, {}", sinr, sp, r));
  const std::string q64 = code.reg(PtxReg::B64), q = code.reg(PtxReg::B32), odd = code.reg(PtxReg::Pred),
                    flip = code.reg(PtxReg::Pred), bit = code.reg(PtxReg::B32);
  code.inst(fmt::format("cvt.rni.s64.f64 {}, {}", q64, k));
  code.inst(fmt::format("cvt.u32.u64 {}, {}", q, q64));
  code.inst(fmt::format("and.b32 {}, {}, 1", bit, q));
  code.inst(fmt::format("setp.ne.u32 {}, {}, 0", odd, bit));
  code.inst(fmt::format("and.b32 {}, {}, 2", bit, q));
  code.inst(fmt::format("setp.ne.u32 {}, {}, 0", flip, bit));
  const std::string v = code.reg(PtxReg::B64), neg = code.reg(PtxReg::B64);
  code.inst(fmt::format("selp.b64 {}, {}, {}, {}", v, cosr, sinr, odd));
  code.inst(fmt::format("neg.f64 {}, {}", neg, v));
  select_into(code, v, flip, neg);
  return v;
}

}  // namespace tr
