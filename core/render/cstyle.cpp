#include "core/render/cstyle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/render.h"

namespace tr {

char xyzw(int i) {
  if (i < 0 || i > 3) fail("type", "lane or axis {} has no x/y/z/w name", i);
  return "xyzw"[i];
}

std::string cstyle_literal(const CStyleLanguage& lang, const ConstValue& v, DType t) {
  const ConstValue c = cast_const(v, t);
  if (t == DType::Bool) return std::get<bool>(c) ? lang.bool_true : lang.bool_false;
  if (!is_float(t)) {
    const int64_t i = std::get<int64_t>(c);
    if (t == DType::Int64)
      return i == INT64_MIN ? fmt::format("(-9223372036854775807{}-1)", lang.int64_suffix) : fmt::format("{}{}", i, lang.int64_suffix);
    if (t == DType::UInt64) return fmt::format("{}{}", static_cast<uint64_t>(i), lang.uint64_suffix);
    if (t == DType::Int32 && i == INT32_MIN) return "(-2147483647-1)";
    if (is_unsigned(t)) return fmt::format("{}u", i);
    return fmt::format("{}", i);
  }
  const double d = std::get<double>(c);
  std::string s;
  if (std::isnan(d)) s = lang.nan;
  else if (std::isinf(d)) s = d > 0 ? lang.infinity : "-" + lang.infinity;
  else {
    s = t == DType::Float64 ? fmt::format("{}", d) : fmt::format("{}", static_cast<float>(d));
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    if (t != DType::Float64) s += "f";
  }
  if (t != DType::Float16) return s;
  return lang.cast ? lang.cast(DType::Float32, t, s) : fmt::format("(({}){})", lang.type(t), s);
}

namespace {

// Per UOp, a number that divides its index value for every value of its variables (0 where it is
// always 0), each from its sources', which come before it: a staged tile's copy spells its element's
// place as (4g / 2) % 4 * 2 + (4g) % 2.
std::vector<int64_t> divisors(const std::vector<UOp>& uops) {
  std::vector<int64_t> d(uops.size(), 1);
  for (size_t i = 0; i < uops.size(); i++) {
    const UOp& u = uops[i];
    if (const auto* v = std::get_if<int64_t>(&u.value); u.kind == UOpKind::Const && v && *v != std::numeric_limits<int64_t>::min())
      d[i] = std::abs(*v);
    if (u.kind != UOpKind::Alu || u.srcs.size() != 2) continue;
    const int64_t a = d[static_cast<size_t>(u.srcs[0])], b = d[static_cast<size_t>(u.srcs[1])];
    // by a constant that divides the dividend: exactly the quotient, or no remainder
    const bool exact = uops[static_cast<size_t>(u.srcs[1])].kind == UOpKind::Const && b != 0 && a % b == 0;
    if (u.alu == Op::Add) d[i] = std::gcd(a, b);
    // past int64 (no index gets there), a's divisor still divides the product
    if (int64_t product = 0; u.alu == Op::Mul) d[i] = __builtin_mul_overflow(a, b, &product) ? a : product;
    if (u.alu == Op::Mod) d[i] = exact ? 0 : std::gcd(a, b);
    if (u.alu == Op::IDiv) d[i] = exact ? a / b : 1;
  }
  return d;
}

}  // namespace

std::vector<bool> image_buffers(const UOpProgram& p) {
  const std::vector<UOp>& u = p.uops;
  size_t n = 0;
  for (const UOp& x : u)
    if (x.kind == UOpKind::DefineGlobal) n = std::max(n, static_cast<size_t>(x.buffer) + 1);
  std::vector<bool> image(n, false), read(n, false), written(n, false), fits(n, true);
  const std::vector<int64_t> divides = divisors(u);
  for (const UOp& x : u)
    if (x.kind == UOpKind::DefineGlobal) image[static_cast<size_t>(x.buffer)] = x.dtype == DType::Float32;
  for (const UOp& x : u) {
    if ((x.kind != UOpKind::Load && x.kind != UOpKind::Store) || u[static_cast<size_t>(x.srcs[0])].kind != UOpKind::DefineGlobal)
      continue;
    const auto b = static_cast<size_t>(u[static_cast<size_t>(x.srcs[0])].buffer);
    const int vec = x.kind == UOpKind::Load ? x.vec : u[static_cast<size_t>(x.srcs[2])].vec;
    (x.kind == UOpKind::Load ? read : written)[b] = true;
    fits[b] = fits[b] && vec == 4 && x.srcs.size() == (x.kind == UOpKind::Load ? 2u : 3u) && divides[static_cast<size_t>(x.srcs[1])] % 4 == 0;
  }
  for (size_t b = 0; b < n; b++) image[b] = image[b] && fits[b] && read[b] != written[b];
  return image;
}

namespace {

// Half and the small integers promote in C's arithmetic; results that can leave their range are
// cast back, so that they round and wrap after every operation as the reference evaluator does.
bool promotes(DType t) { return t == DType::Float16 || (is_int(t) && itemsize(t) < 4); }

bool may_leave_range(Op op) {
  return op == Op::Add || op == Op::Mul || op == Op::Neg || op == Op::IDiv || op == Op::Recip;
}

class CStyleWriter {
 public:
  CStyleWriter(const CStyleLanguage& lang, const UOpProgram& p)
      : lang_(lang), p_(p), u_(p.uops), r_(u_.size()), divisors_(divisors(u_)), inlined_(u_) {}

  RenderedSource run() {
    if (!lang_.image_load.empty()) images_ = image_buffers(p_);
    count_uses();
    for (size_t i = 0; i < u_.size(); i++) {
      at_ = static_cast<int>(i);
      emit(at_);
    }
    at_ = -1;
    if (streamed_) line(lang_.streaming_fence);
    // the kernel's parameters: its buffers and Variables, and the launch ids that launch_params declares
    std::vector<int> params;
    for (size_t i = 0; i < u_.size(); i++) {
      const UOp& u = u_[i];
      const bool launch_param = lang_.launch_params && ((u.kind == UOpKind::Special && !lang_.special) ||
                                                        (u.kind == UOpKind::DefineLocal && u.launch == LaunchKind::Core));
      if (u.kind == UOpKind::DefineGlobal || u.kind == UOpKind::DefineVar || launch_param) params.push_back(static_cast<int>(i));
    }
    if (lang_.launch_params) {
      const std::vector<std::string> extra = lang_.launch_params(p_);
      params_.insert(params_.end(), extra.begin(), extra.end());
    }
    const std::string module = lang_.module_decls ? lang_.module_decls(p_) : "";
    const std::string attributes = lang_.kernel_attributes ? lang_.kernel_attributes(p_) : "";
    RenderedSource out;
    out.append(preamble() + module);
    out.append(module_locals_);
    out.append(fmt::format("{}{}{}({}) {{\n", attributes, lang_.kernel_prefix, p_.name, fmt::join(params_, ", ")), params);
    out.append(body_);
    out.append("}\n");
    return out;
  }

 private:
  const CStyleLanguage& lang_;
  const UOpProgram& p_;
  const std::vector<UOp>& u_;
  std::vector<std::string> r_;  // how each UOp's value is spelled: a name or an inlined expression
  const std::vector<int64_t> divisors_;  // per UOp, a number that divides its index value
  std::vector<int> uses_;
  std::vector<int> nesting_;  // per UOp, how deeply its inlined expression nests other inlined ones (0: a name)
  std::vector<std::string> params_;
  RenderedSource body_;
  InlinedUOps inlined_;  // which UOps each inlined expression spells
  int at_ = -1;          // the UOp being rendered: what the lines written now spell
  bool streamed_ = false;  // a Store streamed: the kernel ends with the language's fence
  RenderedSource module_locals_;  // workgroup memory declared at module scope
  std::vector<bool> images_;   // per buffer: taken as an image
  int depth_ = 1;
  std::map<std::string, int> counters_;

  // Vector ops that the language cannot apply to whole vectors are spelled lane by lane, which
  // reads each source once per lane: such a source needs a name, so it counts as many uses.
  bool per_lane(const UOp& u) const {
    if (u.vec == 1 || (u.kind != UOpKind::Alu && u.kind != UOpKind::Cast)) return false;
    const bool whole = lang_.vector_arith && u.kind == UOpKind::Alu && !promotes(u.dtype) &&
                       (u.alu == Op::Add || u.alu == Op::Mul || u.alu == Op::Neg || ((u.alu == Op::Max || u.alu == Op::MaxNan) && whole_max()) ||
                        (math_name(u.alu) && !lang_.vector_math.empty()));
    return !whole;
  }

  // How often an op's spelling repeats its source number `at`: MAX spells both twice, a guarded
  // division its divisor twice. A source read more than once gets a name, or chains of inlined
  // expressions would grow exponentially.
  int repeats(const UOp& u, size_t at) const {
    // a packed element's spelling reads its index for the word and again for the bits in it; a texel's
    // for its column and its row
    if ((u.kind == UOpKind::Load || u.kind == UOpKind::Store) && at == 1 && (packed(u.srcs[0]) || image(u.srcs[0]))) return 2;
    if (u.kind == UOpKind::Cast && is_float(u_[u.srcs[0]].dtype) && is_int(u.dtype)) return 4;  // see cast()
    if (u.kind != UOpKind::Alu) return 1;
    if (u.alu == Op::Max || u.alu == Op::MaxNan) return 2;
    if ((u.alu == Op::IDiv || u.alu == Op::Mod) && at == 1 && !nonzero_const(u.srcs[1])) return 2;
    return 1;
  }
  bool whole_max() const { return !lang_.vector_max.empty(); }
  // A MAX_NAN on floats: b is taken where it is a nan too, so that a nan on either side wins.
  static bool propagates_nan(const UOp& u) { return u.alu == Op::MaxNan && is_float(u.dtype); }
  // When MAX(a, b) is b.
  static std::string max_takes_b(bool nan, const std::string& a, const std::string& b) {
    return nan ? fmt::format("(({0}<{1})|({1}!={1}))", a, b) : fmt::format("({}<{})", a, b);
  }
  static const char* max_fn(bool nan) { return nan ? "max_nan" : "max"; }
  // The math function an op is, or null.
  static const char* math_name(Op op) {
    return op == Op::Exp2 ? "exp2" : op == Op::Log2 ? "log2" : op == Op::Sin ? "sin" : op == Op::Sqrt ? "sqrt" : nullptr;
  }
  std::string math(const UOp& u, const std::string& x) const {
    const char* fn = math_name(u.alu);
    if (u.vec > 1 && !per_lane(u))
      return fmt::format(fmt::runtime(lang_.vector_math), fmt::arg("fn", fn), fmt::arg("type", vtype(u)), fmt::arg("x", x));
    return lang_.math(fn, u.dtype, x);
  }
  bool nonzero_const(int i) const { return u_[i].kind == UOpKind::Const && as_int(u_[i].value) != 0; }

  void count_uses() {
    uses_.assign(u_.size(), 0);
    nesting_.assign(u_.size(), 0);
    for (const UOp& u : u_)
      for (size_t k = 0; k < u.srcs.size(); k++) uses_[u.srcs[k]] += repeats(u, k) * (per_lane(u) ? u.vec : 1);
  }

  std::string fresh(const std::string& prefix) { return fmt::format("{}{}", prefix, counters_[prefix]++); }
  void line(const std::string& text) {
    body_.append(std::string(depth_ * 2, ' ') + text + "\n", at_ < 0 ? std::vector<int>{} : inlined_.spelled_by(at_));
  }
  std::string declare(const std::string& type, const std::string& name, const std::string& value) const {
    return fmt::format(fmt::runtime(lang_.declare), fmt::arg("type", type), fmt::arg("name", name), fmt::arg("value", value));
  }
  std::string ternary(const std::string& c, const std::string& t, const std::string& f) const {
    return fmt::format(fmt::runtime(lang_.ternary), fmt::arg("c", c), fmt::arg("t", t), fmt::arg("f", f));
  }
  bool image(int buf) const {
    const UOp& b = u_[buf];
    return b.kind == UOpKind::DefineGlobal && static_cast<size_t>(b.buffer) < images_.size() && images_[static_cast<size_t>(b.buffer)];
  }
  std::string image_access(const std::string& form, int buf, const std::string& idx, const std::string& val = "") const {
    return fmt::format(fmt::runtime(form), fmt::arg("buf", r_[buf]), fmt::arg("idx", idx), fmt::arg("val", val));
  }
  bool packed(int buf) const {
    return lang_.packed && u_[buf].kind == UOpKind::DefineGlobal && lang_.packed(u_[buf].dtype);
  }

  std::string vtype(DType t, int vec) const {
    if (vec == 1) return lang_.type(t);
    std::string v = lang_.vector_type ? lang_.vector_type(t, vec) : "";
    if (v.empty()) fail("type", "{} has no {}-wide vector of {}", lang_.name, vec, name(t));
    return v;
  }
  std::string vtype(const UOp& u) const { return vtype(u.dtype, u.vec); }

  bool half_in_float(DType t) const { return t == DType::Float16 && !lang_.half_storage.empty(); }
  // The type of a buffer's elements, which differs from the value's for half kept in float.
  std::string storage(DType t) const { return half_in_float(t) ? lang_.half_storage : lang_.type(t); }
  std::string round_half(const std::string& x) const { return fmt::format(fmt::runtime(lang_.half_round), x); }

  std::string lane(int src, int l) const { return u_[src].vec > 1 ? lang_.gep(r_[src], l) : r_[src]; }

  std::string literal(const ConstValue& v, DType t, int vec) const {
    const std::string one = cstyle_literal(lang_, v, t);
    return vec == 1 ? one : lang_.vector_make(vtype(t, vec), std::vector<std::string>(vec, one));
  }

  // The function a WMMA of this unit calls: "wmma_16_8_16_float16_float32".
  static std::string wmma_fn(const MatrixUnit& m) {
    return fmt::format("wmma_{}_{}_{}_{}_{}", m.m, m.n, m.k, name(m.in), name(m.acc));
  }

  std::string preamble() const {
    bool half = false, dbl = false;
    std::vector<MatrixUnit> units;
    std::set<std::pair<DType, int>> vectors;
    std::set<std::tuple<DType, int, bool>> maxes;
    std::set<std::tuple<std::string, DType, int>> maths;
    for (const UOp& u : u_) {
      half = half || u.dtype == DType::Float16;
      dbl = dbl || u.dtype == DType::Float64;
      if (u.vec > 1 && !u.ptr) vectors.emplace(u.dtype, u.vec);
      if (u.vec > 1 && u.kind == UOpKind::Alu && (u.alu == Op::Max || u.alu == Op::MaxNan) && !per_lane(u))
        maxes.emplace(u.dtype, u.vec, propagates_nan(u));
      if (u.vec > 1 && u.kind == UOpKind::Alu && math_name(u.alu) && !per_lane(u)) maths.emplace(math_name(u.alu), u.dtype, u.vec);
      if (u.kind == UOpKind::Wmma && std::find(units.begin(), units.end(), u.unit) == units.end()) units.push_back(u.unit);
    }
    std::string out = lang_.prelude;
    if (std::find(images_.begin(), images_.end(), true) != images_.end()) out += lang_.image_prelude;
    if (half) out += lang_.half_prelude;
    if (dbl) out += lang_.double_prelude;
    if (streamed_) out += lang_.streaming_prelude;
    for (const auto& [t, n] : vectors) {
      vtype(t, n);  // fails here for a vector the language lacks
      if (lang_.vector_decl) out += lang_.vector_decl(t, n);
    }
    for (const auto& [t, n, nan] : maxes)
      if (lang_.vector_max_decl) out += lang_.vector_max_decl(t, n, max_fn(nan), max_takes_b(nan, "a[i]", "b[i]"));
    for (const auto& [fn, t, n] : maths)
      if (lang_.vector_math_decl) out += lang_.vector_math_decl(fn, t, n);
    for (const MatrixUnit& m : units) out += lang_.wmma_decl(m, wmma_fn(m));
    return out;
  }

  void emit(int i) {
    const UOp& u = u_[i];
    switch (u.kind) {
      case UOpKind::DefineGlobal:
        r_[i] = uop_name(u);
        if (lang_.module_decls) return;
        if (image(i)) {
          params_.push_back(fmt::format(fmt::runtime(lang_.image_param), fmt::arg("name", uop_name(u)),
                                        fmt::arg("access", u.writes ? "write_only" : "read_only")));
          return;
        }
        params_.push_back(fmt::format("{}{}{}* {}{}{}", lang_.global_space, u.writes ? "" : "const ", storage(u.dtype),
                                      lang_.restrict_kw.empty() ? "" : lang_.restrict_kw + " ", uop_name(u),
                                      fmt::format(fmt::runtime(lang_.buffer_attr), u.buffer)));
        return;
      case UOpKind::DefineVar: {
        r_[i] = uop_name(u);
        if (lang_.module_decls) return line(fmt::format(fmt::runtime(lang_.var_value), uop_name(u), u.number));
        const auto buffers = std::count_if(u_.begin(), u_.end(), [](const UOp& x) { return x.kind == UOpKind::DefineGlobal; });
        params_.push_back(fmt::format(fmt::runtime(lang_.var_param), uop_name(u), buffers + u.number));
        return;
      }
      case UOpKind::DefineLocal:
        r_[i] = uop_name(u);
        if (u.launch == LaunchKind::Core) return;  // a parameter that launch_params declares
        if (!lang_.module_local_decl.empty()) {
          module_locals_.append(fmt::format(fmt::runtime(lang_.module_local_decl), fmt::arg("name", uop_name(u)),
                                            fmt::arg("type", storage(u.dtype)), fmt::arg("size", u.size)) + "\n",
                                {i});
          return;
        }
        line(fmt::format("{}{}{} {}[{}];", lang_.local_decl, lang_.local_align, storage(u.dtype), uop_name(u), u.size));
        return;
      case UOpKind::Special:
        r_[i] = uop_name(u);
        if (lang_.special) line(fmt::format("{} /* {} */", declare(lang_.type(u.dtype), uop_name(u), lang_.special(u, p_)), u.size));
        return;
      case UOpKind::Const:
        r_[i] = literal(u.value, u.dtype, u.vec);
        inlined_.inline_value(i);
        return;
      case UOpKind::DefineAcc:
        r_[i] = uop_name(u);
        line(declare(vtype(u), uop_name(u), literal(u.value, u.dtype, u.vec)));
        return;
      case UOpKind::Range:
        r_[i] = uop_name(u);
        line(fmt::format("for ({1} {0} < {2}; {0}++) {{", uop_name(u), declare(lang_.type(u.dtype), uop_name(u), r_[u.srcs[0]]),
                         r_[u.srcs[1]]));
        depth_++;
        return;
      case UOpKind::If:
        line(fmt::format("if ({}) {{", r_[u.srcs[0]]));
        depth_++;
        return;
      case UOpKind::EndRange:
      case UOpKind::EndIf:
        depth_--;
        line("}");
        return;
      case UOpKind::Barrier: {
        const std::string& wait = u.launch == LaunchKind::Core ? lang_.core_barrier : lang_.barrier;
        if (!wait.empty()) line(wait);
        return;
      }
      case UOpKind::Load: return load(i);
      case UOpKind::Store: return store(u);
      case UOpKind::Assign: line(fmt::format("{} = {};", r_[u.srcs[0]], r_[u.srcs[1]])); return;
      case UOpKind::Alu:
      case UOpKind::Cast: return value(i, expression(u));
      case UOpKind::Vectorize: {
        std::vector<std::string> lanes;
        for (int s : u.srcs) lanes.push_back(r_[s]);
        return value(i, lang_.vector_make(vtype(u), lanes));
      }
      case UOpKind::Gep: return value(i, lang_.gep(r_[u.srcs[0]], u.lane));
      case UOpKind::Shuffle: {
        if (!lang_.shuffle.empty())
          return value(i, fmt::format(fmt::runtime(lang_.shuffle), fmt::arg("a", r_[u.srcs[0]]), fmt::arg("b", r_[u.srcs[1]]),
                                      fmt::arg("lanes", fmt::join(u.lanes, ","))));
        const int w = u_[u.srcs[0]].vec;
        std::vector<std::string> lanes;
        for (int l : u.lanes) lanes.push_back(lang_.gep(r_[u.srcs[l < w ? 0 : 1]], l % w));
        return value(i, lang_.vector_make(vtype(u), lanes));
      }
      case UOpKind::Wmma: {
        if (!lang_.wmma_decl) fail("type", "{} has no matrix units: a TC kernel renders only where it runs", lang_.name);
        std::vector<std::string> args;
        for (int s : u.srcs) args.push_back(r_[s]);
        return value(i, fmt::format("{}({})", wmma_fn(u.unit), fmt::join(args, ", ")));
      }
      case UOpKind::Sink: fail("type", "{} renders a linear UOp list; a SINK is the lowering graph's root", lang_.name);
    }
  }

  // A value: inlined into its one reader, or named when read more often, when it is a vector, or when
  // it would nest inlined expressions more than kMaxInlineDepth deep: a long chain of single-use ops
  // (x * 1.001 + 0.5, 130 times) otherwise became one expression of 260 nested brackets, which PoCL's
  // clang refuses past 256.
  void value(int i, const std::string& expr) {
    constexpr int kMaxInlineDepth = 16;
    const UOp& u = u_[i];
    int depth = 1;
    for (const int s : u.srcs) depth = std::max(depth, nesting_[s] + 1);
    if (uses_[i] <= 1 && u.vec == 1 && depth <= kMaxInlineDepth) {
      r_[i] = expr;
      nesting_[i] = depth;
      inlined_.inline_value(i);
      return;
    }
    r_[i] = fresh("alu");
    line(declare(vtype(u), r_[i], expr));
  }

  // An ALU or CAST: whole, or lane by lane where the language cannot apply it to whole vectors.
  std::string expression(const UOp& u) {
    if (!per_lane(u)) return scalar_op(u, [&](int s) { return r_[s]; });
    std::vector<std::string> lanes;
    for (int l = 0; l < u.vec; l++) lanes.push_back(scalar_op(u, [&](int s) { return lane(s, l); }));
    return lang_.vector_make(vtype(u), lanes);
  }

  // One lane of an ALU or CAST, its sources spelled by `src`.
  std::string scalar_op(const UOp& u, const std::function<std::string(int)>& src) {
    const DType from = u_[u.srcs[0]].dtype;
    if (u.kind == UOpKind::Cast) return cast(from, u.dtype, src(u.srcs[0]));
    std::vector<std::string> s;
    for (int x : u.srcs) s.push_back(src(x));
    const std::string e = alu(u, s);
    if (!promotes(u.dtype) || !may_leave_range(u.alu)) return e;
    return cast(u.dtype, u.dtype, e);
  }

  std::string cast(DType from, DType to, const std::string& x) const {
    if (lang_.cast) return lang_.cast(from, to, x);
    const std::string t = lang_.type(to);
    // floats become integers by the reference's rule (cast_const): through int64, saturating, nan to 0,
    // then wrapped; a plain C cast of inf or of a value past int64 is undefined, and each compiler did its own
    if (is_float(from) && is_int(to)) {
      const DType wide_float = from == DType::Float64 ? DType::Float64 : DType::Float32;
      const std::string i64 = lang_.type(DType::Int64), f = lang_.type(wide_float);
      const std::string v = from == wide_float ? x : fmt::format("(({}){})", f, x);  // half and bfloat16 compare as float
      const std::string lim = cstyle_literal(lang_, 9.2233720368547758e18, wide_float);  // 2^63, exact in both
      const std::string wide = fmt::format("(({0}!={0})?(({1})0):({0}>={2})?(({1})9223372036854775807{3}):({0}<(-{2}))?((({1})-9223372036854775807{3})-1):(({1}){0}))",
                                           v, i64, lim, lang_.int64_suffix);
      return to == DType::Int64 ? wide : fmt::format("(({}){})", t, wide);
    }
    if (half_in_float(to) && from == DType::Float64) return fmt::format(fmt::runtime(lang_.half_from_double), x);
    if (half_in_float(to)) return round_half(fmt::format("(({}){})", t, x));
    return fmt::format("(({}){})", t, x);
  }

  std::string alu(const UOp& u, const std::vector<std::string>& s) const {
    const DType t = u.dtype;
    if (half_in_float(t))  // the target's rules (core/codegen/rules_half.cpp) move such ops into float
      fail("type", "{} keeps half only in memory: an op on half must be lowered with its target's rules", lang_.name);
    switch (u.alu) {
      // an unsigned value is subtracted from 0 (WGSL has no negation of one)
      case Op::Neg:
        if (is_unsigned(t)) return fmt::format("({}-{})", literal(0, t, per_lane(u) ? 1 : u.vec), s[0]);
        return fmt::format("(-{})", s[0]);
      case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: return math(u, s[0]);
      case Op::Trunc: return lang_.math("trunc", t, s[0]);
      case Op::Recip: return fmt::format("({}/{})", cstyle_literal(lang_, 1.0, t), s[0]);
      case Op::Add: return fmt::format("({}+{})", s[0], s[1]);
      case Op::Mul: return fmt::format("({}*{})", s[0], s[1]);
      case Op::IDiv:
      case Op::Mod: {
        const char* sym = u.alu == Op::IDiv ? "/" : "%";
        if (nonzero_const(u.srcs[1])) return fmt::format("({}{}{})", s[0], sym, s[1]);
        return ternary(fmt::format("({}==0)", s[1]), "0", fmt::format("({}{}{})", s[0], sym, s[1]));
      }
      case Op::Max:
      case Op::MaxNan: {
        // on bools as or, which every language has for them (WGSL orders no bools)
        if (t == DType::Bool) return fmt::format("({}|{})", s[0], s[1]);
        const bool nan = propagates_nan(u);
        if (u.vec > 1 && whole_max())
          return fmt::format(fmt::runtime(lang_.vector_max), fmt::arg("a", s[0]), fmt::arg("b", s[1]),
                             fmt::arg("takes_b", max_takes_b(nan, s[0], s[1])), fmt::arg("type", vtype(u)),
                             fmt::arg("fn", max_fn(nan)));
        return ternary(max_takes_b(nan, s[0], s[1]), s[1], s[0]);
      }
      case Op::CmpLt:
        if (u_[u.srcs[0]].dtype == DType::Bool) return fmt::format("((!{})&{})", s[0], s[1]);
        return fmt::format("({}<{})", s[0], s[1]);
      case Op::CmpNe: return fmt::format("({}!={})", s[0], s[1]);
      case Op::And: return fmt::format("({}&{})", s[0], s[1]);
      case Op::Or: return fmt::format("({}|{})", s[0], s[1]);
      // on bools as inequality, which every language has for them
      case Op::Xor: return fmt::format(fmt::runtime(t == DType::Bool ? "({}!={})" : "({}^{})"), s[0], s[1]);
      case Op::Where: return ternary(s[0], s[1], s[2]);
      case Op::MulAcc: return lang_.math("fma", t, fmt::format("{},{},{}", s[0], s[1], s[2]));
      case Op::Bitcast: {
        const DType from = u_[u.srcs[0]].dtype;
        // between integers of one size a conversion keeps the bits (two's complement)
        if (is_int(from) && is_int(t)) return cast(from, t, s[0]);
        return lang_.bitcast(from, t, s[0]);
      }
      // no ALU op of a kernel: a cast is its own UOp kind, and the lowering leaves no source, reduce or structure op
      case Op::Const: case Op::Arange: case Op::Copy: case Op::Cast:
      case Op::Sum: case Op::ReduceMax: case Op::Prod: case Op::View: case Op::Contiguous: case Op::Assign: case Op::Multi: break;
    }
    fail("type", "{} cannot render the ALU op {}", lang_.name, op_name(u.alu));
  }

  bool multiple_of(int idx, int64_t n) const { return divisors_[static_cast<size_t>(idx)] % n == 0; }

  // How a whole vector moves at index idx of buffer buf: the language's aligned access where idx is a
  // provable multiple of the width, else its unaligned one; "" where it goes lane by lane (in workgroup
  // memory: unless the language spells it there and the index is a provable multiple).
  const std::string& vector_form(bool store, int buf, int idx, int vec) const {
    static const std::string none;
    if (vec < 2 || (vec & (vec - 1)) != 0 || half_in_float(u_[buf].dtype) || packed(buf)) return none;
    const bool workgroup = u_[buf].kind == UOpKind::DefineLocal && u_[buf].launch == LaunchKind::Local;
    if (workgroup) {
      const std::string& form = store ? lang_.local_vector_store : lang_.local_vector_load;
      return multiple_of(idx, vec) ? form : none;
    }
    // memory the cores share is a pointer parameter, like a buffer
    const std::string& aligned = store ? lang_.aligned_vector_store : lang_.aligned_vector_load;
    if (!aligned.empty() && multiple_of(idx, vec)) return aligned;
    return store ? lang_.vector_store : lang_.vector_load;
  }
  std::string vector_access(const std::string& form, int buf, const std::string& idx, DType t, int vec,
                            const std::string& val = "") const {
    return fmt::format(fmt::runtime(form), fmt::arg("type", vtype(t, vec)), fmt::arg("n", vec), fmt::arg("buf", r_[buf]),
                       fmt::arg("idx", idx), fmt::arg("val", val));
  }
  std::string index(const std::string& idx, int lane) const { return lane == 0 ? idx : fmt::format("{}+{}", idx, lane); }
  std::string element(int buf, const std::string& idx, int lane) const {
    if (half_in_float(u_[buf].dtype)) return fmt::format(fmt::runtime(lang_.half_load), r_[buf], index(idx, lane));
    if (packed(buf)) return lang_.packed_load(u_[buf], r_[buf], index(idx, lane));
    return fmt::format("{}[{}]", r_[buf], index(idx, lane));
  }
  std::string assignment(int buf, const std::string& idx, int lane, const std::string& v) const {
    if (half_in_float(u_[buf].dtype)) return fmt::format(fmt::runtime(lang_.half_store), r_[buf], index(idx, lane), v);
    if (packed(buf)) return lang_.packed_store(u_[buf], r_[buf], index(idx, lane), v);
    return fmt::format("{}[{}] = {};", r_[buf], index(idx, lane), v);
  }

  void load(int i) {
    const UOp& u = u_[i];
    const int buf = u.srcs[0];
    const bool gated = u.srcs.size() > 3;
    const std::string idx = gated && !lang_.gated_index.empty()
                                ? fmt::format(fmt::runtime(lang_.gated_index), fmt::arg("idx", r_[u.srcs[1]]), fmt::arg("gate", r_[u.srcs[3]]))
                                : r_[u.srcs[1]];
    std::string ref;
    if (image(buf)) ref = image_access(lang_.image_load, buf, idx);
    else if (u.vec == 1) ref = element(buf, idx, 0);
    else if (const std::string& form = vector_form(false, buf, u.srcs[1], u.vec); !form.empty())
      ref = vector_access(form, buf, idx, u.dtype, u.vec);
    else {
      std::vector<std::string> lanes;
      for (int l = 0; l < u.vec; l++) lanes.push_back(element(buf, idx, l));
      ref = lang_.vector_make(vtype(u), lanes);
    }
    r_[i] = fresh("val");
    if (gated) {  // the alternative (a scalar is broadcast) where the gate is false
      std::string alt = r_[u.srcs[2]];
      if (u.vec > 1 && u_[u.srcs[2]].vec == 1) alt = lang_.vector_make(vtype(u), std::vector<std::string>(u.vec, alt));
      line(declare(vtype(u), r_[i], ternary(r_[u.srcs[3]], ref, alt)));
    } else {
      line(declare(vtype(u), r_[i], ref));
    }
  }

  void store(const UOp& u) {
    const int buf = u.srcs[0], val = u.srcs[2];
    const std::string& idx = r_[u.srcs[1]];
    const int vec = u_[val].vec;
    std::vector<std::string> stmts;
    if (image(buf)) stmts.push_back(image_access(lang_.image_store, buf, idx, r_[val]));
    else if (vec == 1) stmts.push_back(assignment(buf, idx, 0, r_[val]));
    else if (u.streams && !lang_.streaming_store.empty() && multiple_of(u.srcs[1], vec)) {
      stmts.push_back(vector_access(lang_.streaming_store, buf, idx, u_[val].dtype, vec, r_[val]));
      streamed_ = true;
    } else if (const std::string& form = vector_form(true, buf, u.srcs[1], vec); !form.empty())
      stmts.push_back(vector_access(form, buf, idx, u_[val].dtype, vec, r_[val]));
    else
      for (int l = 0; l < vec; l++) stmts.push_back(assignment(buf, idx, l, lane(val, l)));
    if (u.srcs.size() > 3) {
      line(fmt::format("if ({}) {{", r_[u.srcs[3]]));
      depth_++;
    }
    for (const std::string& s : stmts) line(s);
    if (u.srcs.size() > 3) {
      depth_--;
      line("}");
    }
  }
};

}  // namespace

RenderedSource render_cstyle(const CStyleLanguage& lang, const UOpProgram& program) { return CStyleWriter(lang, program).run(); }

}  // namespace tr
