// LLVM IR for clang on the CPU. Values are SSA registers named after their UOp; a loop is a block
// whose counter is a phi; accumulators live in allocas, loaded where read and stored where
// assigned (clang's -O2 turns them into phis); bool is i1 in registers and i8 in memory; math goes
// through the llvm.* intrinsics. Like C, the function takes the buffers, core_id and any other
// launch id as parameters, and a workgroup is one thread.
#include <bit>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/llvm.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::string scalar_type(DType t) {
  switch (t) {
    case DType::Bool: return "i1";
    case DType::Int8: case DType::UInt8: return "i8";
    case DType::Int16: case DType::UInt16: case DType::BFloat16: return "i16";
    case DType::Int32: case DType::UInt32: return "i32";
    case DType::Int64: case DType::UInt64: return "i64";
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

std::string vector_of(const std::string& scalar, int vec) {
  return vec == 1 ? scalar : fmt::format("<{} x {}>", vec, scalar);
}

std::string reg_type(DType t, int vec = 1) { return vector_of(scalar_type(t), vec); }
std::string mem_type(DType t, int vec = 1) { return vector_of(llvm_memory_type(t), vec); }

// The suffix of an overloaded intrinsic: f32, v4f32, i64, v4i64.
std::string intrinsic_suffix(DType t, int vec) {
  const std::string s = is_float(t) ? fmt::format("f{}", itemsize(t) * 8) : fmt::format("i{}", itemsize(t) * 8);
  return vec == 1 ? s : fmt::format("v{}{}", vec, s);
}

std::string scalar_literal(const ConstValue& v, DType t) {
  const ConstValue c = cast_const(v, t);
  if (t == DType::Bool) return std::get<bool>(c) ? "true" : "false";
  if (t == DType::Float16) return fmt::format("0xH{:04X}", half_bits(std::get<double>(c)));
  if (is_float(t)) return fmt::format("0x{:016X}", std::bit_cast<uint64_t>(std::get<double>(c)));
  // the two's complement value at the type's width, which LLVM reads for signed and unsigned alike
  const int bits = itemsize(t) * 8;
  const int64_t i = std::get<int64_t>(c);
  return fmt::format("{}", bits == 64 ? i : (i << (64 - bits)) >> (64 - bits));
}

std::string literal(const ConstValue& v, DType t, int vec) {
  const std::string one = scalar_literal(v, t);
  if (vec == 1) return one;
  std::vector<std::string> lanes(vec, scalar_type(t) + " " + one);
  return fmt::format("<{}>", fmt::join(lanes, ", "));
}

bool unsigned_compare(DType t) { return is_unsigned(t) || t == DType::Bool; }

class LlvmRenderer {
 public:
  LlvmRenderer(const UOpProgram& p, bool typed) : p_(p), u_(p.uops), r_(u_.size()), inlined_(u_), typed_(typed) {}

  RenderedSource run() {
    std::vector<std::string> params;
    for (size_t i = 0; i < u_.size(); i++) {
      const UOp& u = u_[i];
      if (u.kind == UOpKind::DefineGlobal) params.push_back(fmt::format("{} noalias %{}", ptr(mem_type(u.dtype)), uop_name(u)));
    }
    for (const UOp& u : u_)
      if (u.kind == UOpKind::DefineVar) params.push_back("i32 %" + uop_name(u));
    params.push_back("i32 %core_id");
    for (const UOp& u : u_)
      if (u.kind == UOpKind::Special && u.launch != LaunchKind::Core) params.push_back("i32 %" + uop_name(u));
    // memory the cores share, then their barrier and its state (core_locals in core/ir/uops.h)
    const std::vector<UOp> shared = core_locals(p_);
    for (const UOp& u : shared) params.push_back(fmt::format("{} noalias %{}", ptr(mem_type(u.dtype)), uop_name(u)));
    if (!shared.empty()) params.insert(params.end(), {ptr("void (" + ptr("i8") + ")") + " %core_sync", ptr("i8") + " %core_ctx"});
    for (size_t i = 0; i < u_.size(); i++) {
      at_ = static_cast<int>(i);
      emit(at_);
    }
    std::vector<int> takes;  // the UOps that are parameters
    for (size_t i = 0; i < u_.size(); i++) {
      const UOp& u = u_[i];
      if (u.kind == UOpKind::DefineGlobal || u.kind == UOpKind::DefineVar || u.kind == UOpKind::Special ||
          (u.kind == UOpKind::DefineLocal && u.launch == LaunchKind::Core))
        takes.push_back(static_cast<int>(i));
    }
    RenderedSource out;
    out.append(fmt::format("define void @{}({}) nounwind {{\n", p_.name, fmt::join(params, ", ")), takes);
    out.append("entry:\n");
    for (size_t l = 0; l < entry_.size(); l++) out.append("  " + entry_[l] + "\n", entry_uops_[l]);
    for (size_t l = 0; l < body_.size(); l++) out.append(body_[l] + "\n", body_uops_[l]);
    out.append("  ret void\n}\n");
    for (const std::string& d : declares_) out.append(d + "\n");
    return out;
  }

 private:
  const UOpProgram& p_;
  const std::vector<UOp>& u_;
  std::vector<std::string> r_;  // each value's register (or literal); for an accumulator, its alloca
  std::vector<std::string> entry_, body_;
  std::vector<std::vector<int>> entry_uops_, body_uops_;  // per line of entry_ and body_: the UOps it spells
  InlinedUOps inlined_;  // constants are literals in the instructions that read them
  int at_ = -1;          // the UOp being rendered
  std::set<std::string> declares_;
  std::map<int, size_t> phis_;  // RANGE -> the body line of its phi, completed at ENDRANGE
  std::string block_ = "entry";
  int tmp_ = 0;
  bool typed_;

  // A pointer to `pointee`: `ptr`, or `float*` with typed pointers.
  std::string ptr(const std::string& pointee) const { return typed_ ? pointee + "*" : "ptr"; }
  // p, a pointer to `from`, as a pointer to `to`: a bitcast only with typed pointers.
  std::string repoint(const std::string& p, const std::string& from, const std::string& to) {
    if (!typed_ || from == to) return p;
    const std::string t = fresh();
    inst(fmt::format("{} = bitcast {}* {} to {}*", t, from, p, to));
    return t;
  }

  void inst(const std::string& text) { body_line("  " + text); }
  void body_line(std::string text) {
    body_.push_back(std::move(text));
    body_uops_.push_back(inlined_.spelled_by(at_));
  }
  void entry_line(std::string text) {
    entry_.push_back(std::move(text));
    entry_uops_.push_back(inlined_.spelled_by(at_));
  }
  void label(const std::string& name) {
    body_line(name + ":");
    block_ = name;
  }
  std::string fresh() { return fmt::format("%t{}", tmp_++); }

  std::string rtype(int i) const { return reg_type(u_[i].dtype, u_[i].vec); }

  // A source's value at this point: an accumulator is loaded where it is read.
  std::string val(int i) {
    if (u_[i].kind != UOpKind::DefineAcc) return r_[i];
    const std::string t = fresh();
    inst(fmt::format("{} = load {}, {} {}", t, rtype(i), ptr(rtype(i)), r_[i]));
    return t;
  }

  std::string splat(const std::string& scalar_value, DType t, int vec) {
    if (vec == 1) return scalar_value;
    std::string v = "poison";
    for (int l = 0; l < vec; l++) {
      const std::string next = fresh();
      inst(fmt::format("{} = insertelement {} {}, {} {}, i32 {}", next, reg_type(t, vec), v, scalar_type(t), scalar_value, l));
      v = next;
    }
    return v;
  }

  std::string call(const std::string& name, const std::string& ret, const std::vector<std::string>& args,
                   const std::vector<std::string>& arg_types) {
    std::vector<std::string> typed;
    for (size_t a = 0; a < args.size(); a++) typed.push_back(arg_types[a] + " " + args[a]);
    declares_.insert(fmt::format("declare {} @{}({})", ret, name, fmt::join(arg_types, ", ")));
    const std::string t = fresh();
    inst(fmt::format("{} = call {} @{}({})", t, ret, name, fmt::join(typed, ", ")));
    return t;
  }

  void emit(int i) {
    const UOp& u = u_[i];
    switch (u.kind) {
      case UOpKind::DefineGlobal: case UOpKind::DefineVar:
      case UOpKind::Special: r_[i] = "%" + uop_name(u); return;
      case UOpKind::DefineLocal:
        r_[i] = "%" + uop_name(u);
        if (u.launch == LaunchKind::Core) return;  // a parameter
        entry_line(fmt::format("{} = alloca [{} x {}], align 64", r_[i], u.size, mem_type(u.dtype)));
        return;
      case UOpKind::Const:
        r_[i] = literal(u.value, u.dtype, u.vec);
        inlined_.inline_value(i);
        return;
      case UOpKind::DefineAcc:
        r_[i] = "%" + uop_name(u);
        entry_line(fmt::format("{} = alloca {}", r_[i], rtype(i)));
        inst(fmt::format("store {} {}, {} {}", rtype(i), literal(u.value, u.dtype, u.vec), ptr(rtype(i)), r_[i]));
        return;
      case UOpKind::Range: return range(i);
      case UOpKind::EndRange: return end_range(u.srcs[0]);
      case UOpKind::If: {
        const std::string cond = val(u.srcs[0]);
        inst(fmt::format("br i1 {}, label %if{}, label %endif{}", cond, i, i));
        label(fmt::format("if{}", i));
        return;
      }
      case UOpKind::EndIf:
        inst(fmt::format("br label %endif{}", u.srcs[0]));
        label(fmt::format("endif{}", u.srcs[0]));
        return;
      case UOpKind::Barrier:
        if (u.launch == LaunchKind::Core) inst(fmt::format("call void %core_sync({} %core_ctx)", ptr("i8")));
        else inst("; barrier: a workgroup here is one thread");
        return;
      case UOpKind::Load: return load(i);
      case UOpKind::Store: return store(u);
      case UOpKind::Assign: {
        const std::string v = val(u.srcs[1]);
        inst(fmt::format("store {} {}, {} {}", rtype(u.srcs[0]), v, ptr(rtype(u.srcs[0])), r_[u.srcs[0]]));
        return;
      }
      case UOpKind::Alu: r_[i] = alu(u); return;
      case UOpKind::Cast: r_[i] = cast(u); return;
      case UOpKind::Vectorize: {
        std::string v = "poison";
        for (size_t l = 0; l < u.srcs.size(); l++) {
          const std::string next = fresh(), s = val(u.srcs[l]);
          inst(fmt::format("{} = insertelement {} {}, {} {}, i32 {}", next, rtype(i), v, scalar_type(u.dtype), s, l));
          v = next;
        }
        r_[i] = v;
        return;
      }
      case UOpKind::Gep: {
        const std::string v = val(u.srcs[0]);
        r_[i] = fresh();
        inst(fmt::format("{} = extractelement {} {}, i32 {}", r_[i], rtype(u.srcs[0]), v, u.lane));
        return;
      }
      case UOpKind::Shuffle: {
        const std::string a = val(u.srcs[0]), b = val(u.srcs[1]);
        std::vector<std::string> lanes;
        for (int l : u.lanes) lanes.push_back(fmt::format("i32 {}", l));
        r_[i] = fresh();
        inst(fmt::format("{} = shufflevector {} {}, {} {}, <{} x i32> <{}>", r_[i], rtype(u.srcs[0]), a, rtype(u.srcs[1]), b,
                         u.lanes.size(), fmt::join(lanes, ", ")));
        return;
      }
      case UOpKind::Wmma: fail("type", "LLVM IR on the CPU has no matrix units: a TC kernel renders only where it runs");
      case UOpKind::Sink: fail("type", "LLVM IR renders a linear UOp list; a SINK is the lowering graph's root");
    }
  }

  // A loop runs while counter < end: entered only when it runs at least once.
  void range(int i) {
    const UOp& u = u_[i];
    const std::string lo = val(u.srcs[0]), hi = val(u.srcs[1]);
    const std::string loop = uop_name(u) + "_loop", exit = uop_name(u) + "_exit";
    const UOp &a = u_[u.srcs[0]], &b = u_[u.srcs[1]];
    if (a.kind == UOpKind::Const && b.kind == UOpKind::Const && as_int(a.value) < as_int(b.value)) {
      inst(fmt::format("br label %{}", loop));
    } else {
      const std::string any = fresh();
      inst(fmt::format("{} = icmp slt i32 {}, {}", any, lo, hi));
      inst(fmt::format("br i1 {}, label %{}, label %{}", any, loop, exit));
    }
    const std::string from = block_;
    label(loop);
    r_[i] = "%" + uop_name(u);
    phis_[i] = body_.size();
    inst(fmt::format("{} = phi i32 [ {}, %{} ], [ %{}.next, %", r_[i], lo, from, uop_name(u)));
  }

  void end_range(int i) {
    const UOp& u = u_[i];
    const std::string hi = val(u.srcs[1]);
    body_[phis_.at(i)] += block_ + " ]";
    inst(fmt::format("%{0}.next = add i32 %{0}, 1", uop_name(u)));
    inst(fmt::format("%{0}.more = icmp slt i32 %{0}.next, {1}", uop_name(u), hi));
    inst(fmt::format("br i1 %{0}.more, label %{0}_loop, label %{0}_exit", uop_name(u)));
    label(uop_name(u) + "_exit");
  }

  // The address of element idx of a buffer (or of workgroup memory, an array), as a pointer to
  // `vec` elements.
  std::string address(int buf, const std::string& idx, int vec) {
    const UOp& b = u_[buf];
    const std::string elem = mem_type(b.dtype), p = fresh();
    if (b.kind == UOpKind::DefineLocal && b.launch != LaunchKind::Core) {
      const std::string array = fmt::format("[{} x {}]", b.size, elem);
      inst(fmt::format("{} = getelementptr inbounds {}, {} {}, i32 0, i32 {}", p, array, ptr(array), r_[buf], idx));
    } else {
      inst(fmt::format("{} = getelementptr inbounds {}, {} {}, i32 {}", p, elem, ptr(elem), r_[buf], idx));
    }
    return repoint(p, elem, mem_type(b.dtype, vec));
  }

  // A gated load reads element 0 (every buffer has one) where the gate is false, then selects.
  void load(int i) {
    const UOp& u = u_[i];
    std::string idx = val(u.srcs[1]), gate;
    if (u.srcs.size() > 3) {
      gate = val(u.srcs[3]);
      const std::string safe = fresh();
      inst(fmt::format("{} = select i1 {}, i32 {}, i32 0", safe, gate, idx));
      idx = safe;
    }
    const std::string p = address(u.srcs[0], idx, u.vec), m = fresh(), mt = mem_type(u.dtype, u.vec);
    inst(fmt::format("{} = load {}, {} {}, align {}", m, mt, ptr(mt), p, itemsize(u.dtype)));
    std::string v = m;
    if (u.dtype == DType::Bool) v = convert("trunc", m, mem_type(u.dtype, u.vec), rtype(i));
    if (!gate.empty()) {
      std::string alt = val(u.srcs[2]);
      if (u.vec > 1 && u_[u.srcs[2]].vec == 1)
        alt = u_[u.srcs[2]].kind == UOpKind::Const ? literal(u_[u.srcs[2]].value, u.dtype, u.vec) : splat(alt, u.dtype, u.vec);
      const std::string s = fresh();
      inst(fmt::format("{} = select i1 {}, {} {}, {} {}", s, gate, rtype(i), v, rtype(i), alt));
      v = s;
    }
    r_[i] = v;
  }

  void store(const UOp& u) {
    const int vi = u.srcs[2];
    const DType t = u_[vi].dtype;
    const int vec = u_[vi].vec;
    std::string skip;
    if (u.srcs.size() > 3) {
      const std::string gate = val(u.srcs[3]);
      const std::string n = std::to_string(tmp_++);
      inst(fmt::format("br i1 {}, label %store{}, label %stored{}", gate, n, n));
      label("store" + n);
      skip = "stored" + n;
    }
    std::string v = val(vi);
    if (t == DType::Bool) {
      const std::string z = fresh();
      inst(fmt::format("{} = zext {} {} to {}", z, reg_type(t, vec), v, mem_type(t, vec)));
      v = z;
    }
    const std::string p = address(u.srcs[0], val(u.srcs[1]), vec), mt = mem_type(t, vec);
    inst(fmt::format("store {} {}, {} {}, align {}", mt, v, ptr(mt), p, itemsize(t)));
    if (!skip.empty()) {
      inst(fmt::format("br label %{}", skip));
      label(skip);
    }
  }

  std::string binary(const std::string& op, const std::string& type, const std::string& a, const std::string& b) {
    const std::string t = fresh();
    inst(fmt::format("{} = {} {} {}, {}", t, op, type, a, b));
    return t;
  }

  std::string alu(const UOp& u) {
    std::vector<std::string> s;
    for (int x : u.srcs) s.push_back(val(x));
    const DType in = u_[u.srcs.back()].dtype;  // of the operands (of the last two for WHERE)
    const std::string T = reg_type(u.dtype, u.vec), IT = reg_type(in, u.vec);
    const bool f = is_float(in);
    switch (u.alu) {
      case Op::Add: return binary(f ? "fadd" : "add", T, s[0], s[1]);
      case Op::Mul: return binary(f ? "fmul" : "mul", T, s[0], s[1]);
      case Op::Neg: {
        if (!f) return binary("sub", T, literal(int64_t{0}, u.dtype, u.vec), s[0]);
        const std::string t = fresh();
        inst(fmt::format("{} = fneg {} {}", t, T, s[0]));
        return t;
      }
      case Op::Recip: return binary("fdiv", T, literal(1.0, u.dtype, u.vec), s[0]);
      case Op::Bitcast: {
        const std::string t = fresh();
        inst(fmt::format("{} = bitcast {} {} to {}", t, IT, s[0], T));
        return t;
      }
      case Op::IDiv:
      case Op::Mod: {
        const char* op = u.alu == Op::IDiv ? (is_unsigned(u.dtype) ? "udiv" : "sdiv") : (is_unsigned(u.dtype) ? "urem" : "srem");
        const UOp& d = u_[u.srcs[1]];
        if (d.kind == UOpKind::Const && as_int(d.value) != 0) return binary(op, T, s[0], s[1]);
        // a zero divisor gives 0: divide by 1 there, then select 0
        const std::string zero = literal(int64_t{0}, u.dtype, u.vec), one = literal(int64_t{1}, u.dtype, u.vec);
        const std::string is0 = binary("icmp eq", T, s[1], zero);
        const std::string safe = fresh();
        inst(fmt::format("{} = select {} {}, {} {}, {} {}", safe, reg_type(DType::Bool, u.vec), is0, T, one, T, s[1]));
        const std::string q = binary(op, T, s[0], safe);
        const std::string r = fresh();
        inst(fmt::format("{} = select {} {}, {} {}, {} {}", r, reg_type(DType::Bool, u.vec), is0, T, zero, T, q));
        return r;
      }
      case Op::Max:
      case Op::MaxNan: {
        // b when it is larger or, for MAX_NAN on floats, a nan: a nan on either side then wins
        const std::string lt = binary(f ? "fcmp olt" : unsigned_compare(in) ? "icmp ult" : "icmp slt", IT, s[0], s[1]);
        const std::string takes_b = f && u.alu == Op::MaxNan ? binary("or", reg_type(DType::Bool, u.vec), lt, binary("fcmp uno", IT, s[1], s[1])) : lt;
        const std::string t = fresh();
        inst(fmt::format("{} = select {} {}, {} {}, {} {}", t, reg_type(DType::Bool, u.vec), takes_b, T, s[1], T, s[0]));
        return t;
      }
      case Op::CmpLt: return binary(f ? "fcmp olt" : unsigned_compare(in) ? "icmp ult" : "icmp slt", IT, s[0], s[1]);
      case Op::CmpNe: return binary(f ? "fcmp une" : "icmp ne", IT, s[0], s[1]);
      case Op::And: return binary("and", T, s[0], s[1]);
      case Op::Or: return binary("or", T, s[0], s[1]);
      case Op::Xor: return binary("xor", T, s[0], s[1]);
      case Op::Where: {
        const std::string t = fresh();
        inst(fmt::format("{} = select {} {}, {} {}, {} {}", t, rtype(u.srcs[0]), s[0], T, s[1], T, s[2]));
        return t;
      }
      case Op::MulAcc: {
        const std::string F = reg_type(u.dtype, u.vec);
        return call(fmt::format("llvm.fma.{}", intrinsic_suffix(u.dtype, u.vec)), F, {s[0], s[1], s[2]}, {F, F, F});
      }
      case Op::Exp2: return math("exp2", u, s[0]);
      case Op::Log2: return math("log2", u, s[0]);
      case Op::Sin: return math("sin", u, s[0]);
      case Op::Sqrt: return math("sqrt", u, s[0]);
      case Op::Trunc: return math("trunc", u, s[0]);
      // no ALU op of a kernel: a cast is its own UOp kind, and the lowering leaves no source, reduce or structure op
      case Op::Const: case Op::Arange: case Op::Copy: case Op::Cast:
      case Op::Sum: case Op::ReduceMax: case Op::Prod: case Op::View: case Op::Contiguous: case Op::Assign: case Op::Multi: break;
    }
    fail("type", "LLVM IR cannot render the ALU op {}", op_name(u.alu));
  }

  // An llvm.* math intrinsic. Half goes through float and is rounded once at the end, as the
  // reference rounds its double result once; no target needs f16 math routines then.
  std::string math(const std::string& fn, const UOp& u, const std::string& x) {
    if (u.dtype != DType::Float16) {
      const std::string T = reg_type(u.dtype, u.vec);
      return call(fmt::format("llvm.{}.{}", fn, intrinsic_suffix(u.dtype, u.vec)), T, {x}, {T});
    }
    const std::string H = reg_type(DType::Float16, u.vec), F = reg_type(DType::Float32, u.vec);
    const std::string r = call(fmt::format("llvm.{}.{}", fn, intrinsic_suffix(DType::Float32, u.vec)), F,
                               {convert("fpext", x, H, F)}, {F});
    return convert("fptrunc", r, F, H);
  }

  std::string convert(const std::string& op, const std::string& x, const std::string& from, const std::string& to) {
    const std::string t = fresh();
    inst(fmt::format("{} = {} {} {} to {}", t, op, from, x, to));
    return t;
  }

  // double x as a float rounded to odd: where rounding to nearest was inexact and gave an even
  // last bit, the neighbour on the other side of x (whose last bit is odd).
  std::string to_odd_float(const std::string& x, int vec) {
    const std::string D = reg_type(DType::Float64, vec), F = reg_type(DType::Float32, vec), I = reg_type(DType::Int32, vec),
                      B = reg_type(DType::Bool, vec);
    const std::string f = convert("fptrunc", x, D, F), back = convert("fpext", f, F, D);
    const std::string inexact = binary("fcmp one", D, back, x);
    const std::string bits = convert("bitcast", f, F, I);
    const std::string even = binary("icmp eq", I, binary("and", I, bits, literal(int64_t{1}, DType::Int32, vec)),
                                    literal(int64_t{0}, DType::Int32, vec));
    const std::string fabs = "llvm.fabs." + intrinsic_suffix(DType::Float64, vec);
    const std::string away = binary("fcmp ogt", D, call(fabs, D, {back}, {D}), call(fabs, D, {x}, {D}));
    const std::string step = fresh(), other = fresh(), fix = binary("and", B, inexact, even), odd = fresh();
    inst(fmt::format("{} = select {} {}, {} {}, {} {}", step, B, away, I, literal(int64_t{-1}, DType::Int32, vec), I,
                     literal(int64_t{1}, DType::Int32, vec)));
    inst(fmt::format("{} = add {} {}, {}", other, I, bits, step));
    inst(fmt::format("{} = select {} {}, {} {}, {} {}", odd, B, fix, I, other, I, bits));
    return convert("bitcast", odd, I, F);
  }

  std::string cast(const UOp& u) { return cast_value(val(u.srcs[0]), u_[u.srcs[0]].dtype, u.dtype, u.vec); }

  std::string cast_value(const std::string& x, DType from, DType to, int vec) {
    const std::string F = reg_type(from, vec), T = reg_type(to, vec);
    if (from == to || (is_int(from) && is_int(to) && itemsize(from) == itemsize(to))) return x;
    if (to == DType::Bool) return binary(is_float(from) ? "fcmp une" : "icmp ne", F, x, literal(int64_t{0}, from, vec));
    // Half converts through float: x86 lowers the direct conversions to libgcc calls whose half ABI
    // clang 14 does not share. Integers that fit half are exact in float; double is rounded to odd
    // on the way, so that the two roundings give the one rounding of double to half.
    if (from == DType::Float64 && to == DType::Float16) return convert("fptrunc", to_odd_float(x, vec), reg_type(DType::Float32, vec), T);
    if ((from == DType::Float16) != (to == DType::Float16) && from != DType::Float32 && to != DType::Float32)
      return cast_value(cast_value(x, from, DType::Float32, vec), DType::Float32, to, vec);
    if (from == DType::Bool) return convert(is_float(to) ? "uitofp" : "zext", x, F, T);
    if (is_float(from) && is_float(to)) return convert(itemsize(to) > itemsize(from) ? "fpext" : "fptrunc", x, F, T);
    if (is_float(to)) return convert(is_unsigned(from) ? "uitofp" : "sitofp", x, F, T);
    if (is_float(from)) {
      // through int64 with saturation, nan to 0: the reference's truncation, then wrapped to the width
      const std::string I64 = reg_type(DType::Int64, vec);
      const std::string wide = call(fmt::format("llvm.fptosi.sat.{}.{}", intrinsic_suffix(DType::Int64, vec), intrinsic_suffix(from, vec)),
                                    I64, {x}, {F});
      return to == DType::Int64 || to == DType::UInt64 ? wide : convert("trunc", wide, I64, T);
    }
    if (itemsize(to) < itemsize(from)) return convert("trunc", x, F, T);
    return convert(is_unsigned(from) ? "zext" : "sext", x, F, T);
  }
};

}  // namespace

std::string llvm_memory_type(DType t) { return t == DType::Bool ? "i8" : scalar_type(t); }

RenderedSource render_llvm(const UOpProgram& p) { return LlvmRenderer(p, false).run(); }
std::string render_llvm_typed_pointers(const UOpProgram& p) { return LlvmRenderer(p, true).run().text; }

}  // namespace tr
