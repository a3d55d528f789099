#include "core/ir/uops.h"

#include "core/base/error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/hash.h"
#include "core/base/value_str.h"

namespace tr {

std::string_view uop_kind_name(UOpKind k) {
  switch (k) {
    case UOpKind::DefineGlobal: return "DEFINE_GLOBAL";
    case UOpKind::DefineVar: return "DEFINE_VAR";
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
    case UOpKind::Shuffle: return "SHUFFLE";
    case UOpKind::Wmma: return "WMMA";
    case UOpKind::Sink: return "SINK";
  }
  return "?";
}

std::string uop_name(const UOp& u) {
  switch (u.kind) {
    case UOpKind::DefineGlobal: return fmt::format("data{}", u.buffer);
    case UOpKind::DefineVar: return u.name;
    case UOpKind::DefineLocal: return fmt::format("temp{}", u.number);
    case UOpKind::DefineAcc: return fmt::format("acc{}", u.number);
    case UOpKind::Special:
      switch (u.launch) {
        case LaunchKind::Global: return fmt::format("gidx{}", u.number);
        case LaunchKind::Local: return fmt::format("lidx{}", u.number);
        case LaunchKind::Core: return "core_id";
      }
      break;
    case UOpKind::Range:
      switch (u.range) {
        case RangeKind::Loop: return fmt::format("gidx{}", u.number);
        case RangeKind::Reduce: return fmt::format("ridx{}", u.number);
        case RangeKind::Upcast: return fmt::format("upidx{}", u.number);
        case RangeKind::Unroll: return fmt::format("unidx{}", u.number);
        case RangeKind::GroupReduce: return fmt::format("gridx{}", u.number);
        case RangeKind::Block: return fmt::format("bidx{}", u.number);
      }
      break;
    case UOpKind::Const: case UOpKind::EndRange: case UOpKind::Load: case UOpKind::Store: case UOpKind::Alu:
    case UOpKind::Cast: case UOpKind::Assign: case UOpKind::If: case UOpKind::EndIf: case UOpKind::Barrier:
    case UOpKind::Vectorize: case UOpKind::Gep: case UOpKind::Shuffle: case UOpKind::Wmma: case UOpKind::Sink: break;
  }
  return "";
}

LaunchDims launch_for(const LaunchDims& dims, const std::vector<int32_t>& vars) {
  LaunchDims out = dims;
  for (size_t a = 0; a < 3; a++) {
    const int v = dims.global_var[a];
    if (v < 0) continue;
    if (static_cast<size_t>(v) >= vars.size()) fail("value", "the launch needs Variable {} of the kernel, given {}", v, vars.size());
    out.global[a] = dims.global[a] * (dims.global_scale[a] * vars[v] + dims.global_offset[a]);
    out.global_var[a] = -1;
  }
  return out;
}

size_t uop_hash(const UOp& u) {
  size_t h = hash_mix(static_cast<size_t>(u.kind), static_cast<size_t>(u.dtype));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.vec)), static_cast<size_t>(u.ptr));
  h = hash_mix(h, u.srcs);
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.alu)), hash_of(u.value));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.buffer)), static_cast<size_t>(u.writes));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.size)), static_cast<size_t>(u.launch));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.axis)), static_cast<size_t>(u.range));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.dim)), static_cast<size_t>(u.lane));
  h = hash_mix(hash_mix(h, u.lanes), static_cast<size_t>(u.streams));
  h = hash_mix(h, std::hash<std::string>{}(u.name));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.unit.m)), static_cast<size_t>(u.unit.n));
  h = hash_mix(hash_mix(h, static_cast<size_t>(u.unit.k)), static_cast<size_t>(u.unit.in));
  return hash_mix(h, static_cast<size_t>(u.number));
}

bool same_uop(const UOp& a, const UOp& b) {
  return a.kind == b.kind && a.dtype == b.dtype && a.vec == b.vec && a.ptr == b.ptr && a.srcs == b.srcs && a.alu == b.alu &&
         same_bits(a.value, b.value) && a.buffer == b.buffer && a.writes == b.writes && a.size == b.size &&
         a.launch == b.launch && a.axis == b.axis && a.range == b.range && a.dim == b.dim && a.lane == b.lane &&
         a.lanes == b.lanes && a.streams == b.streams && a.number == b.number && a.name == b.name && a.unit == b.unit;
}

std::string uop_dtype_str(const UOp& u) {
  switch (u.kind) {
    case UOpKind::Store: case UOpKind::EndRange: case UOpKind::If: case UOpKind::EndIf: case UOpKind::Barrier:
    case UOpKind::Sink:
      return "";
    case UOpKind::DefineGlobal: case UOpKind::DefineVar: case UOpKind::DefineLocal: case UOpKind::DefineAcc:
    case UOpKind::Const: case UOpKind::Special: case UOpKind::Range: case UOpKind::Load: case UOpKind::Alu: case UOpKind::Cast:
    case UOpKind::Assign: case UOpKind::Vectorize: case UOpKind::Gep: case UOpKind::Shuffle: case UOpKind::Wmma: break;
  }
  const std::string base(short_name(u.dtype));
  if (u.ptr) return "ptr." + base;
  return u.vec > 1 ? fmt::format("{}{}", base, u.vec) : base;
}

namespace {

std::string arg_str(const UOp& u) {
  switch (u.kind) {
    case UOpKind::DefineGlobal: return fmt::format("({}, '{}', {})", u.buffer, uop_name(u), u.writes ? "True" : "False");
    case UOpKind::DefineVar: return fmt::format("('{}', 1, {})", u.name, u.size);
    case UOpKind::DefineLocal:
      return fmt::format("('{}', {}{})", uop_name(u), u.size, u.launch == LaunchKind::Core ? ", 'cores'" : "");
    case UOpKind::DefineAcc: return const_str(u.value, u.dtype);
    case UOpKind::Const: return const_str(u.value, u.dtype);
    case UOpKind::Special: return fmt::format("('{}', {})", uop_name(u), u.size);
    case UOpKind::Range: return fmt::format("'{}'", uop_name(u));
    case UOpKind::Alu: return std::string(op_name(u.alu));
    case UOpKind::Gep: return fmt::format("{}", u.lane);
    case UOpKind::Shuffle: return fmt::format("({})", fmt::join(u.lanes, ", "));
    case UOpKind::Wmma: return fmt::format("'{}'", matrix_unit_name(u.unit));
    case UOpKind::Barrier: return u.launch == LaunchKind::Core ? "'cores'" : "None";
    case UOpKind::Store: return u.streams ? "'streams'" : "None";
    case UOpKind::EndRange: case UOpKind::Load: case UOpKind::Cast: case UOpKind::Assign:
    case UOpKind::If: case UOpKind::EndIf: case UOpKind::Vectorize: case UOpKind::Sink:
      return "None";
  }
  return "None";
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

std::vector<UOp> core_locals(const UOpProgram& p) {
  std::vector<UOp> out;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::DefineLocal && u.launch == LaunchKind::Core) out.push_back(u);
  return out;
}

std::vector<bool> written_buffers(const UOpProgram& p) {
  std::vector<bool> writes(p.globals.size(), false);
  for (const UOp& u : p.uops) {
    if (u.kind != UOpKind::DefineGlobal || u.buffer < 0) continue;
    if (static_cast<size_t>(u.buffer) >= writes.size()) writes.resize(static_cast<size_t>(u.buffer) + 1, false);
    if (u.writes) writes[static_cast<size_t>(u.buffer)] = true;
  }
  return writes;
}

}  // namespace tr
