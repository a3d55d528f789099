// PTX assembly for the CUDA driver to compile when it loads the module (the NV device). Every
// value lives in registers of its width: bool in predicates (a byte in memory), the 8-bit integers
// in 16-bit registers kept sign- or zero-extended, and a vector as one register per lane (loads and
// stores move lane by lane). Half computes in float32 and is rounded after each op, as the CUDA
// renderer's half does; exp2 is ex2.approx as CUDA's exp2f, log2 and sin go through the float64
// routines of ptx_math.cpp, and + * sqrt and the reciprocal round to nearest (.rn, never fused).
#include <algorithm>
#include <bit>
#include <map>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/ptx.h"
#include "core/render/render.h"

namespace tr {
namespace {

// The oldest GPU that CUDA 13 compiles for, or sm_80 where a kernel steps the 16x8x16 matrix unit; the
// driver compiles the module for the GPU it loads on.
std::string header(const std::vector<UOp>& uops) {
  const bool k16 = std::any_of(uops.begin(), uops.end(), [](const UOp& u) { return u.kind == UOpKind::Wmma && u.unit.k == 16; });
  return fmt::format(".version 7.0\n.target {}\n.address_size 64\n", k16 ? "sm_80" : "sm_75");
}

PtxReg reg_class(DType t) {
  if (t == DType::Bool) return PtxReg::Pred;
  switch (itemsize(t)) {
    case 1: case 2: return PtxReg::B16;
    case 4: return PtxReg::B32;
    default: return PtxReg::B64;
  }
}

// How an instruction reads a register of t: the 8-bit integers as their 16-bit registers hold them.
std::string ty(DType t) {
  switch (t) {
    case DType::Bool: return "pred";
    case DType::Int8: case DType::Int16: return "s16";
    case DType::UInt8: case DType::UInt16: return "u16";
    case DType::Int32: return "s32";
    case DType::UInt32: return "u32";
    case DType::Int64: return "s64";
    case DType::UInt64: return "u64";
    case DType::Float16: return "f16";
    case DType::BFloat16: return "bf16";  // a matrix unit's operands only: its values reach PTX as u16 bits
    case DType::Float32: return "f32";
    case DType::Float64: return "f64";
  }
  return "?";
}

std::string bits(DType t) { return t == DType::Bool ? "pred" : fmt::format("b{}", std::max(itemsize(t), 2) * 8); }

std::string mem_ty(DType t) {
  switch (t) {
    case DType::Bool: case DType::UInt8: return "u8";
    case DType::Int8: return "s8";
    case DType::Float16: case DType::BFloat16: return "b16";
    case DType::Int16:
    case DType::UInt16:
    case DType::Int32:
    case DType::UInt32:
    case DType::Int64:
    case DType::UInt64:
    case DType::Float32:
    case DType::Float64: return ty(t);
  }
  return ty(t);
}

// The bits of a constant of t as an immediate of its register's width.
std::string immediate(const ConstValue& v, DType t) {
  const ConstValue c = cast_const(v, t);
  if (t == DType::Bool) return std::get<bool>(c) ? "1" : "0";
  if (t == DType::Float16) return fmt::format("0x{:04X}", half_bits(std::get<double>(c)));
  if (t == DType::Float32) return fmt::format("0f{:08X}", std::bit_cast<uint32_t>(static_cast<float>(std::get<double>(c))));
  if (t == DType::Float64) return ptx_f64(std::get<double>(c));
  const int width = std::max(itemsize(t), 2) * 8;
  const uint64_t u = static_cast<uint64_t>(std::get<int64_t>(c));
  return fmt::format("0x{:X}", width == 64 ? u : u & ((uint64_t{1} << width) - 1));
}

class PtxRenderer {
 public:
  explicit PtxRenderer(const UOpProgram& p) : p_(p), u_(p.uops), r_(u_.size()), inlined_(u_), local_ids_(has_local_ids(u_)) {}

  RenderedSource run() {
    for (size_t i = 0; i < u_.size(); i++) {
      code_.spelling(inlined_.spelled_by(static_cast<int>(i)));
      emit(static_cast<int>(i));
    }
    // the buffers, then the Variables' values: the order in which the launch passes them
    std::vector<int> params;
    for (const UOpKind kind : {UOpKind::DefineGlobal, UOpKind::DefineVar})
      for (size_t i = 0; i < u_.size(); i++)
        if (u_[i].kind == kind) params.push_back(static_cast<int>(i));
    RenderedSource out;
    out.append(fmt::format("{}\n.visible .entry {}(\n", header(u_), p_.name));
    for (size_t k = 0; k < params.size(); k++) {
      const UOp& u = u_[static_cast<size_t>(params[k])];
      out.append(fmt::format("\t.param .u{} {}{}\n", u.kind == UOpKind::DefineGlobal ? 64 : 32, uop_name(u),
                             k + 1 < params.size() ? "," : ""),
                 {params[k]});
    }
    out.append(")\n{\n");
    out.append(shared_);
    out.append(code_.text());
    out.append("\tret;\n}\n");
    return out;
  }

 private:
  const UOpProgram& p_;
  const std::vector<UOp>& u_;
  std::vector<std::vector<std::string>> r_;  // each value's register, one per lane (a scalar's one for every lane)
  PtxCode code_;
  RenderedSource shared_;
  InlinedUOps inlined_;  // constants are immediates in the instructions that read them
  std::map<int, std::string> loops_;  // RANGE -> its loop's label
  bool local_ids_;

  void inst(const std::string& s) { code_.inst(s); }
  std::string reg(DType t) { return code_.reg(reg_class(t)); }
  const std::string& lane(int i, int l) const { return r_[i].size() == 1 ? r_[i][0] : r_[i][l]; }

  void emit(int i) {
    const UOp& u = u_[i];
    switch (u.kind) {
      case UOpKind::DefineGlobal: {
        const std::string p = code_.reg(PtxReg::B64);
        inst(fmt::format("ld.param.u64 {}, [{}]", p, uop_name(u)));
        inst(fmt::format("cvta.to.global.u64 {0}, {0}", p));
        r_[i] = {p};
        return;
      }
      case UOpKind::DefineVar: {
        const std::string v = reg(u.dtype);
        inst(fmt::format("ld.param.u32 {}, [{}]", v, uop_name(u)));
        r_[i] = {v};
        return;
      }
      case UOpKind::DefineLocal: {
        shared_.append(fmt::format("\t.shared .align 16 .b8 {}[{}];\n", uop_name(u), std::max<int64_t>(u.size * itemsize(u.dtype), 1)), {i});
        const std::string p = code_.reg(PtxReg::B64);
        inst(fmt::format("mov.u64 {}, {}", p, uop_name(u)));
        r_[i] = {p};
        return;
      }
      case UOpKind::Const:
        r_[i] = {constant(u.value, u.dtype)};
        inlined_.inline_value(i);
        return;
      case UOpKind::DefineAcc:
        for (int l = 0; l < u.vec; l++) {
          const std::string a = reg(u.dtype);
          move(a, constant(u.value, u.dtype), u.dtype);
          r_[i].push_back(a);
        }
        return;
      case UOpKind::Special: r_[i] = {special(u)}; return;
      case UOpKind::Range: return range(i);
      case UOpKind::EndRange: return end_range(u.srcs[0]);
      case UOpKind::If:
        loops_[i] = code_.fresh_label("$endif");
        inst(fmt::format("@!{} bra {}", lane(u.srcs[0], 0), loops_[i]));
        return;
      case UOpKind::EndIf: code_.label(loops_.at(u.srcs[0])); return;
      case UOpKind::Barrier: inst("bar.sync 0"); return;
      case UOpKind::Load: return load(i);
      case UOpKind::Store: return store(u);
      case UOpKind::Assign:
        for (int l = 0; l < u_[u.srcs[0]].vec; l++) move(lane(u.srcs[0], l), lane(u.srcs[1], l), u_[u.srcs[0]].dtype);
        return;
      case UOpKind::Alu:
        for (int l = 0; l < u.vec; l++) r_[i].push_back(alu(u, l));
        return;
      case UOpKind::Cast:
        for (int l = 0; l < u.vec; l++) r_[i].push_back(cast(lane(u.srcs[0], l), u_[u.srcs[0]].dtype, u.dtype));
        return;
      case UOpKind::Vectorize:
        for (int s : u.srcs) r_[i].push_back(lane(s, 0));
        return;
      case UOpKind::Gep: r_[i] = {lane(u.srcs[0], u.lane)}; return;
      case UOpKind::Shuffle:
        for (int l : u.lanes) r_[i].push_back(lane(u.srcs[l < u_[u.srcs[0]].vec ? 0 : 1], l % u_[u.srcs[0]].vec));
        return;
      case UOpKind::Wmma: return wmma(i);
      case UOpKind::Sink: fail("type", "PTX renders a linear UOp list; a SINK is the lowering graph's root");
    }
  }

  // mma.sync of the m16n8 family: each pair of a thread's 16-bit elements is one 32-bit register, the
  // lower element in the lower bits
  void wmma(int i) {
    const UOp& u = u_[i];
    const MatrixUnit& m = u.unit;
    const size_t a_elems = static_cast<size_t>(m.m * m.k / 32), b_elems = static_cast<size_t>(m.k * m.n / 32);
    const auto packed = [&](size_t from, size_t count) {
      std::vector<std::string> regs;
      for (size_t e = from; e < from + count; e += 2) {
        regs.push_back(code_.reg(PtxReg::B32));
        inst(fmt::format("mov.b32 {}, {{{}, {}}}", regs.back(), lane(u.srcs[e], 0), lane(u.srcs[e + 1], 0)));
      }
      return fmt::format("{{{}}}", fmt::join(regs, ", "));
    };
    const std::string a = packed(0, a_elems), b = packed(a_elems, b_elems);
    std::vector<std::string> c, d;
    for (int l = 0; l < u.vec; l++) {
      c.push_back(lane(u.srcs.back(), l));
      d.push_back(reg(u.dtype));
    }
    inst(fmt::format("mma.sync.aligned.m{}n{}k{}.row.col.{}.{}.{}.{} {{{}}}, {}, {}, {{{}}}", m.m, m.n, m.k, ty(m.acc), ty(m.in),
                     ty(m.in), ty(m.acc), fmt::join(d, ", "), a, b, fmt::join(c, ", ")));
    r_[i] = d;
  }

  // float immediates (0f..., 0d...) need the float types; half's are its bits
  static std::string move_ty(DType t) { return t == DType::Float32 || t == DType::Float64 ? ty(t) : bits(t); }
  void move(const std::string& dst, const std::string& src, DType t) { inst(fmt::format("mov.{} {}, {}", move_ty(t), dst, src)); }

  std::string constant(const ConstValue& v, DType t) {
    const std::string r = reg(t);
    if (t == DType::Bool) {
      const std::string one = code_.reg(PtxReg::B32);
      inst(fmt::format("mov.b32 {}, {}", one, immediate(v, t)));
      inst(fmt::format("setp.ne.b32 {}, {}, 0", r, one));
    } else {
      move(r, immediate(v, t), t);
    }
    return r;
  }

  std::string special(const UOp& u) {
    const char a = "xyz"[u.axis];
    const std::string r = code_.reg(PtxReg::B32);
    if (is_local_id(u)) {
      inst(fmt::format("mov.u32 {}, %tid.{}", r, a));
    } else if (local_ids_ && u.launch == LaunchKind::Global) {
      inst(fmt::format("mov.u32 {}, %ctaid.{}", r, a));
    } else {
      const std::string block = code_.reg(PtxReg::B32), size = code_.reg(PtxReg::B32), thread = code_.reg(PtxReg::B32);
      inst(fmt::format("mov.u32 {}, %ctaid.{}", block, a));
      inst(fmt::format("mov.u32 {}, %ntid.{}", size, a));
      inst(fmt::format("mov.u32 {}, %tid.{}", thread, a));
      inst(fmt::format("mad.lo.s32 {}, {}, {}, {}", r, block, size, thread));
    }
    return r;
  }

  // A loop runs while counter < end: entered only when it runs at least once.
  void range(int i) {
    const UOp& u = u_[i];
    const std::string c = reg(u.dtype), top = code_.fresh_label("$" + uop_name(u));
    move(c, lane(u.srcs[0], 0), u.dtype);
    r_[i] = {c};
    loops_[i] = top;
    const UOp &lo = u_[u.srcs[0]], &hi = u_[u.srcs[1]];
    if (!(lo.kind == UOpKind::Const && hi.kind == UOpKind::Const && as_int(lo.value) < as_int(hi.value))) {
      const std::string empty = code_.reg(PtxReg::Pred);
      inst(fmt::format("setp.ge.{} {}, {}, {}", ty(u.dtype), empty, c, lane(u.srcs[1], 0)));
      inst(fmt::format("@{} bra {}_exit", empty, top));
    }
    code_.label(top);
  }

  void end_range(int i) {
    const UOp& u = u_[i];
    const std::string& c = r_[i][0];
    const std::string more = code_.reg(PtxReg::Pred);
    inst(fmt::format("add.{0} {1}, {1}, 1", ty(u.dtype), c));
    inst(fmt::format("setp.lt.{} {}, {}, {}", ty(u.dtype), more, c, lane(u.srcs[1], 0)));
    inst(fmt::format("@{} bra {}", more, loops_.at(i)));
    code_.label(loops_.at(i) + "_exit");
  }

  // The address of element idx of a buffer (global) or of workgroup memory (shared), and which.
  std::pair<std::string, std::string> address(int buf, int idx) {
    const UOp& b = u_[buf];
    const DType it = u_[idx].dtype;
    const std::string offset = code_.reg(PtxReg::B64), a = code_.reg(PtxReg::B64);
    if (itemsize(it) == 8) inst(fmt::format("mul.lo.s64 {}, {}, {}", offset, lane(idx, 0), itemsize(b.dtype)));
    else inst(fmt::format("mul.wide.{} {}, {}, {}", is_unsigned(it) ? "u32" : "s32", offset, lane(idx, 0), itemsize(b.dtype)));
    inst(fmt::format("add.s64 {}, {}, {}", a, lane(buf, 0), offset));
    return {a, b.kind == UOpKind::DefineLocal ? "shared" : "global"};
  }

  // A gated load starts from the alternative value and loads only where the gate holds.
  void load(int i) {
    const UOp& u = u_[i];
    const auto [a, space] = address(u.srcs[0], u.srcs[1]);
    const bool gated = u.srcs.size() > 3;
    const std::string guard = gated ? "@" + lane(u.srcs[3], 0) + " " : "";
    for (int l = 0; l < u.vec; l++) {
      const std::string at = fmt::format("[{}+{}]", a, l * itemsize(u.dtype));
      if (u.dtype == DType::Bool) {
        const std::string byte = code_.reg(PtxReg::B16), p = reg(u.dtype);
        if (gated) inst(fmt::format("selp.b16 {}, 1, 0, {}", byte, lane(u.srcs[2], l)));
        inst(fmt::format("{}ld.{}.u8 {}, {}", guard, space, byte, at));
        inst(fmt::format("setp.ne.b16 {}, {}, 0", p, byte));
        r_[i].push_back(p);
        continue;
      }
      const std::string d = reg(u.dtype);
      if (gated) move(d, lane(u.srcs[2], l), u.dtype);
      inst(fmt::format("{}ld.{}.{} {}, {}", guard, space, mem_ty(u.dtype), d, at));
      r_[i].push_back(d);
    }
  }

  void store(const UOp& u) {
    const int v = u.srcs[2];
    const DType t = u_[v].dtype;
    const auto [a, space] = address(u.srcs[0], u.srcs[1]);
    const std::string guard = u.srcs.size() > 3 ? "@" + lane(u.srcs[3], 0) + " " : "";
    for (int l = 0; l < u_[v].vec; l++) {
      std::string x = lane(v, l);
      if (t == DType::Bool) {
        const std::string byte = code_.reg(PtxReg::B16);
        inst(fmt::format("selp.b16 {}, 1, 0, {}", byte, x));
        x = byte;
      }
      inst(fmt::format("{}st.{}.{} [{}+{}], {}", guard, space, mem_ty(t), a, l * itemsize(t), x));
    }
  }

  // The 8-bit integers, computed in 16 bits, wrap back into their range.
  void wrap(const std::string& r, DType t) {
    if (t == DType::Int8) inst(fmt::format("cvt.s16.s8 {0}, {0}", r));
    if (t == DType::UInt8) inst(fmt::format("and.b16 {0}, {0}, 0xFF", r));
  }

  std::string op(const std::string& name, DType t, const std::vector<std::string>& s) {
    const std::string d = reg(t);
    inst(fmt::format("{} {}, {}", name, d, fmt::join(s, ", ")));
    return d;
  }

  std::string to_f32(const std::string& h) { return op("cvt.f32.f16", DType::Float32, {h}); }

  // cond ? a : b for predicates
  std::string pred_select(const std::string& c, const std::string& a, const std::string& b) {
    const std::string x = op("and.pred", DType::Bool, {c, a}), nc = op("not.pred", DType::Bool, {c});
    return op("or.pred", DType::Bool, {x, op("and.pred", DType::Bool, {nc, b})});
  }

  std::string alu(const UOp& u, int l) {
    std::vector<std::string> s;
    for (int x : u.srcs) s.push_back(lane(x, l));
    const DType in = u_[u.srcs.back()].dtype;  // of the operands (of the last two for WHERE)
    // half: the op on float32 values, rounded back to half where the result is a half
    if (in == DType::Float16 && u.alu != Op::Where && u.alu != Op::Neg) {
      UOp f = u;
      f.dtype = u.dtype == DType::Float16 ? DType::Float32 : u.dtype;
      std::vector<std::string> fs;
      for (const std::string& x : s) fs.push_back(to_f32(x));
      const std::string r = scalar_alu(f, fs, DType::Float32);
      return u.dtype == DType::Float16 ? op("cvt.rn.f16.f32", DType::Float16, {r}) : r;
    }
    return scalar_alu(u, s, in);
  }

  std::string scalar_alu(const UOp& u, const std::vector<std::string>& s, DType in) {
    const DType t = u.dtype;
    const bool f = is_float(in), b = in == DType::Bool;
    const std::string T = ty(t), I = ty(in);
    switch (u.alu) {
      case Op::Add:
      case Op::Mul: {
        if (b) return op(u.alu == Op::Add ? "or.pred" : "and.pred", t, s);
        const std::string name = u.alu == Op::Add ? (f ? "add.rn." : "add.") : (f ? "mul.rn." : "mul.lo.");
        const std::string r = op(name + T, t, s);
        wrap(r, t);
        return r;
      }
      case Op::Neg: {
        if (b) return s[0];
        if (t == DType::Float16) return op("xor.b16", t, {s[0], "0x8000"});
        const std::string r = op("neg." + (f ? T : "s" + T.substr(1)), t, s);
        wrap(r, t);
        return r;
      }
      case Op::Recip: return op(fmt::format("rcp.rn.{}", T), t, s);
      case Op::IDiv:
      case Op::Mod: {
        // a zero divisor gives 0: divide by 1 there, then select 0
        const std::string zero = op(fmt::format("setp.eq.{}", bits(t)), DType::Bool, {s[1], "0"});
        const std::string safe = op(fmt::format("selp.{}", bits(t)), t, {"1", s[1], zero});
        const std::string q = op(fmt::format("{}.{}", u.alu == Op::IDiv ? "div" : "rem", T), t, {s[0], safe});
        const std::string r = op(fmt::format("selp.{}", bits(t)), t, {"0", q, zero});
        wrap(r, t);
        return r;
      }
      case Op::Max:
      case Op::MaxNan: {
        if (b) return op("or.pred", t, s);
        // b when it is larger or, for MAX_NAN on floats, a nan: a nan on either side then wins
        const std::string lt = op(fmt::format("setp.lt.{}", I), DType::Bool, s);
        const std::string takes_b = f && u.alu == Op::MaxNan ? op("or.pred", DType::Bool, {lt, op(fmt::format("setp.nan.{}", I), DType::Bool, {s[1], s[1]})}) : lt;
        return op(fmt::format("selp.{}", bits(t)), t, {s[1], s[0], takes_b});
      }
      case Op::CmpLt:
        if (b) return op("and.pred", t, {op("not.pred", t, {s[0]}), s[1]});
        return op(fmt::format("setp.lt.{}", I), t, s);
      case Op::CmpNe:
        if (b) return op("xor.pred", t, s);
        return op(f ? fmt::format("setp.neu.{}", I) : fmt::format("setp.ne.{}", bits(in)), t, s);
      case Op::And: return op(fmt::format("and.{}", bits(t)), t, s);
      case Op::Or: return op(fmt::format("or.{}", bits(t)), t, s);
      case Op::Xor: return op(fmt::format("xor.{}", bits(t)), t, s);
      case Op::Where:
        if (t == DType::Bool) return pred_select(s[0], s[1], s[2]);
        return op(fmt::format("selp.{}", bits(t)), t, {s[1], s[2], s[0]});
      case Op::Exp2:
        if (t == DType::Float64) return ptx_exp2_f64(code_, s[0]);
        return op("ex2.approx.f32", t, s);
      case Op::Log2: return through_f64(ptx_log2_f64, t, s[0]);
      case Op::Sin: return through_f64(ptx_sin_f64, t, s[0]);
      case Op::Sqrt: return op(fmt::format("sqrt.rn.{}", T), t, s);
      case Op::Trunc: return op(fmt::format("cvt.rzi.{0}.{0}", T), t, s);
      case Op::Bitcast: {
        // one register class for one item size: a move, then the 8-bit integers re-extended as t's
        const std::string r = op(fmt::format("mov.{}", bits(t)), t, s);
        wrap(r, t);
        return r;
      }
      case Op::MulAcc: return op(fmt::format("fma.rn.{}", T), t, s);  // made only for float accumulators
      case Op::Const:
      case Op::Arange:
      case Op::Copy:
      case Op::Cast:
      case Op::Sum:
      case Op::ReduceMax:
      case Op::Prod:
      case Op::View:
      case Op::Contiguous:
      case Op::Assign:
      case Op::Multi: break;
    }
    fail("type", "PTX cannot render the ALU op {}", op_name(u.alu));
  }

  std::string through_f64(std::string (*fn)(PtxCode&, const std::string&), DType t, const std::string& x) {
    if (t == DType::Float64) return fn(code_, x);
    return op("cvt.rn.f32.f64", t, {fn(code_, op("cvt.f64.f32", DType::Float64, {x}))});
  }

  std::string cast(const std::string& x, DType from, DType to) {
    if (from == to) return x;
    if (to == DType::Bool) {
      if (from == DType::Float16) return cast(to_f32(x), DType::Float32, to);
      return op(is_float(from) ? fmt::format("setp.neu.{}", ty(from)) : fmt::format("setp.ne.{}", bits(from)), to, {x, is_float(from) ? immediate(0.0, from) : "0"});
    }
    if (from == DType::Bool) return op(fmt::format("selp.{}", move_ty(to)), to, {immediate(int64_t{1}, to), immediate(int64_t{0}, to), x});
    if (is_float(from) && is_float(to)) {
      const bool narrows = itemsize(to) < itemsize(from);
      return op(fmt::format("cvt{}.{}.{}", narrows ? ".rn" : "", ty(to), ty(from)), to, {x});
    }
    if (is_float(to)) return op(fmt::format("cvt.rn.{}.{}", ty(to), ty(from)), to, {x});
    if (is_float(from)) {
      // through int64, saturated and nan to 0 (cvt's own rules): the reference's truncation, then wrapped
      const std::string src = from == DType::Float16 ? to_f32(x) : x;
      const std::string wide = op(fmt::format("cvt.rzi.s64.{}", from == DType::Float16 ? "f32" : ty(from)), DType::Int64, {src});
      return cast(wide, DType::Int64, to);
    }
    std::string r;
    if (reg_class(from) == reg_class(to)) {
      r = reg(to);
      move(r, x, to);
    } else {
      r = op(fmt::format("cvt.{}.{}", ty(to), ty(from)), to, {x});
    }
    wrap(r, to);
    return r;
  }
};

}  // namespace

RenderedSource render_ptx(const UOpProgram& p) { return PtxRenderer(p).run(); }

}  // namespace tr
