#include "core/render/cstyle.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

namespace tr {

std::string cstyle_literal(const ConstValue& v, DType t, const std::function<std::string(DType)>& type) {
  const ConstValue c = cast_const(v, t);
  if (t == DType::Bool) return std::get<bool>(c) ? "1" : "0";
  if (!is_float(t)) {
    const int64_t i = std::get<int64_t>(c);
    if (t == DType::Int64) return i == INT64_MIN ? "(-9223372036854775807ll-1)" : fmt::format("{}ll", i);
    if (t == DType::UInt64) return fmt::format("{}ull", static_cast<uint64_t>(i));
    if (t == DType::Int32 && i == INT32_MIN) return "(-2147483647-1)";
    if (is_unsigned(t)) return fmt::format("{}u", i);
    return fmt::format("{}", i);
  }
  const double d = std::get<double>(c);
  std::string s;
  if (std::isnan(d)) s = "NAN";
  else if (std::isinf(d)) s = d > 0 ? "INFINITY" : "-INFINITY";
  else {
    s = t == DType::Float64 ? fmt::format("{}", d) : fmt::format("{}", static_cast<float>(d));
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    if (t != DType::Float64) s += "f";
  }
  return t == DType::Float16 ? fmt::format("(({}){})", type(t), s) : s;
}

namespace {

std::string alu_expr(const CStyleLanguage& lang, Op op, DType t, DType in, const std::vector<std::string>& s,
                     bool nonzero_divisor) {
  switch (op) {
    case Op::Neg: return fmt::format("(-{})", s[0]);
    case Op::Exp2: return lang.math("exp2", t, s[0]);
    case Op::Log2: return lang.math("log2", t, s[0]);
    case Op::Sin: return lang.math("sin", t, s[0]);
    case Op::Sqrt: return lang.math("sqrt", t, s[0]);
    case Op::Trunc: return lang.math("trunc", t, s[0]);
    case Op::Recip: return fmt::format("({}/{})", cstyle_literal(1.0, t, lang.type), s[0]);
    case Op::Add: return fmt::format("({}+{})", s[0], s[1]);
    case Op::Mul: return fmt::format("({}*{})", s[0], s[1]);
    case Op::IDiv:
    case Op::Mod: {
      const char* sym = op == Op::IDiv ? "/" : "%";
      if (nonzero_divisor) return fmt::format("({}{}{})", s[0], sym, s[1]);
      return fmt::format("(({}==0)?0:({}{}{}))", s[1], s[0], sym, s[1]);
    }
    case Op::Max: return fmt::format("(({}<{})?{}:{})", s[0], s[1], s[1], s[0]);
    case Op::CmpLt: return fmt::format("({}<{})", s[0], s[1]);
    case Op::CmpNe: return fmt::format("({}!={})", s[0], s[1]);
    case Op::And: return fmt::format("({}&{})", s[0], s[1]);
    case Op::Or: return fmt::format("({}|{})", s[0], s[1]);
    case Op::Xor: return fmt::format("({}^{})", s[0], s[1]);
    case Op::Where: return fmt::format("({}?{}:{})", s[0], s[1], s[2]);
    default: break;
  }
  (void)in;
  return fmt::format("/* {} */", op_name(op));
}

}  // namespace

std::string render_cstyle(const CStyleLanguage& lang, const UOpProgram& p) {
  const std::vector<UOp>& uops = p.uops;
  std::vector<int> uses(uops.size(), 0);
  for (const UOp& u : uops)
    for (int s : u.srcs) uses[s]++;

  std::vector<std::string> r(uops.size());
  std::vector<std::string> params;
  std::string body;
  int depth = 1;
  std::map<std::string, int> counters;
  auto fresh = [&](const std::string& prefix) { return fmt::format("{}{}", prefix, counters[prefix]++); };
  auto line = [&](const std::string& text) { body += std::string(depth * 2, ' ') + text + "\n"; };

  for (size_t i = 0; i < uops.size(); i++) {
    const UOp& u = uops[i];
    const std::string t = lang.type(u.dtype);
    switch (u.kind) {
      case UOpKind::DefineGlobal:
        r[i] = u.name;
        params.push_back(fmt::format("{}{}{}* {}{}", lang.buffer_prefix, u.writes ? "" : "const ", t,
                                     lang.restrict_kw.empty() ? "" : lang.restrict_kw + " ", u.name));
        break;
      case UOpKind::Special:
        r[i] = u.name;
        if (!lang.special) break;  // a parameter of the function, as extra_params names it
        line(fmt::format("int {} = {}; /* {} */", u.name, lang.special(u), u.num));
        break;
      case UOpKind::Const: r[i] = cstyle_literal(u.value, u.dtype, lang.type); break;
      case UOpKind::DefineAcc:
        r[i] = u.name;
        line(fmt::format("{} {} = {};", t, u.name, cstyle_literal(u.value, u.dtype, lang.type)));
        break;
      case UOpKind::Range:
        r[i] = u.name;
        line(fmt::format("for (int {} = {}; {} < {}; {}++) {{", u.name, r[u.srcs[0]], u.name, r[u.srcs[1]], u.name));
        depth++;
        break;
      case UOpKind::EndRange:
        depth--;
        line("}");
        break;
      case UOpKind::Load: {
        r[i] = fresh("val");
        const std::string ref = fmt::format("{}[{}]", r[u.srcs[0]], r[u.srcs[1]]);
        line(u.srcs.size() > 2 ? fmt::format("{} {} = ({}?{}:{});", t, r[i], r[u.srcs[3]], ref, r[u.srcs[2]])
                               : fmt::format("{} {} = {};", t, r[i], ref));
        break;
      }
      case UOpKind::Alu:
      case UOpKind::Cast: {
        std::vector<std::string> s;
        for (int x : u.srcs) s.push_back(r[x]);
        std::string expr;
        if (u.kind == UOpKind::Cast) {
          expr = fmt::format("(({}){})", t, s[0]);
        } else {
          const bool nonzero = u.srcs.size() > 1 && uops[u.srcs[1]].kind == UOpKind::Const &&
                               as_int(uops[u.srcs[1]].value) != 0;
          expr = alu_expr(lang, u.alu, u.dtype, uops[u.srcs[0]].dtype, s, nonzero);
        }
        if (uses[i] <= 1) {
          r[i] = expr;
        } else {
          r[i] = fresh("alu");
          line(fmt::format("{} {} = {};", t, r[i], expr));
        }
        break;
      }
      case UOpKind::Assign: line(fmt::format("{} = {};", r[u.srcs[0]], r[u.srcs[1]])); break;
      case UOpKind::Store: line(fmt::format("{}[{}] = {};", r[u.srcs[0]], r[u.srcs[1]], r[u.srcs[2]])); break;
      default: line(fmt::format("/* {} */", uop_kind_name(u.kind))); break;
    }
  }
  params.insert(params.end(), lang.extra_params.begin(), lang.extra_params.end());
  return fmt::format("{}{}{}({}) {{\n{}}}\n", lang.prelude, lang.kernel_prefix, p.name, fmt::join(params, ", "), body);
}

}  // namespace tr
