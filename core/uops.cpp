#include "core/uops.h"

#include <fmt/format.h>

#include "core/value_str.h"

namespace tr {

std::string_view uop_kind_name(UOpKind k) {
  switch (k) {
    case UOpKind::DefineGlobal: return "DEFINE_GLOBAL";
    case UOpKind::DefineLocal: return "DEFINE_LOCAL";
    case UOpKind::DefineAcc: return "DEFINE_ACC";
    case UOpKind::Const: return "CONST";
    case UOpKind::Special: return "SPECIAL";
    case UOpKind::Range: return "RANGE";
    case UOpKind::EndRange: return "ENDRANGE";
    case UOpKind::Load: return "LOAD";
    case UOpKind::Store: return "STORE";
    case UOpKind::Alu: return "ALU";
    case UOpKind::Cast: return "CAST";
    case UOpKind::Assign: return "ASSIGN";
    case UOpKind::If: return "IF";
    case UOpKind::EndIf: return "ENDIF";
    case UOpKind::Barrier: return "BARRIER";
    case UOpKind::Vectorize: return "VECTORIZE";
    case UOpKind::Gep: return "GEP";
  }
  return "?";
}

std::string uop_dtype_str(const UOp& u) {
  switch (u.kind) {
    case UOpKind::Store: case UOpKind::EndRange: case UOpKind::If: case UOpKind::EndIf: case UOpKind::Barrier:
      return "";
    default: break;
  }
  const std::string base(short_name(u.dtype));
  if (u.ptr) return "ptr." + base;
  return u.vec > 1 ? fmt::format("{}{}", base, u.vec) : base;
}

namespace {

std::string arg_str(const UOp& u) {
  switch (u.kind) {
    case UOpKind::DefineGlobal: return fmt::format("({}, '{}', {})", u.num, u.name, u.writes ? "True" : "False");
    case UOpKind::DefineLocal: return fmt::format("('{}', {})", u.name, u.num);
    case UOpKind::DefineAcc: return const_str(u.value, u.dtype);
    case UOpKind::Const: return const_str(u.value, u.dtype);
    case UOpKind::Special: return fmt::format("('{}', {})", u.name, u.num);
    case UOpKind::Range: return fmt::format("'{}'", u.name);
    case UOpKind::Alu: return std::string(op_name(u.alu));
    case UOpKind::Gep: return fmt::format("{}", u.num);
    default: return "None";
  }
}

}  // namespace

std::string print_uops(const std::vector<UOp>& uops) {
  std::string out;
  for (size_t i = 0; i < uops.size(); i++) {
    const UOp& u = uops[i];
    out += fmt::format("{:>4} {:<14} : {:<14} {:<11} {}\n", i, uop_kind_name(u.kind), uop_dtype_str(u),
                       fmt::format("[{}]", fmt::join(u.srcs, ", ")), arg_str(u));
  }
  return out;
}

}  // namespace tr
