// WGSL, the WebGPU Shading Language: buffers and Variables are bindings at module scope, workgroup
// memory too; the workgroup size is an attribute of the kernel; values are `var name: type`; the
// ternary is select(); casts are constructors. WGSL has no 64-bit types, and no storage type under
// 32 bits: bool and 8- and 16-bit integers live in registers as i32, u32 or bool and in buffers
// packed into u32 words, written with atomics so that neighbouring threads may write one word.
// Infinity and NaN come from helper functions, since a constant expression may not be either.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/render/wgsl.h"

#include "core/base/error.h"
#include "core/render/cstyle.h"
#include "core/render/render.h"

namespace tr {
namespace {

std::string wgsl_type(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: case DType::Int16: case DType::Int32: return "i32";
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::BFloat16: return "u32";
    case DType::Float16: return "f16";
    case DType::Float32: return "f32";
    case DType::Int64: case DType::UInt64: case DType::Float64: break;
  }
  fail("type", "WGSL has no {}", name(t));
}

bool packed(DType t) { return t == DType::Bool || (is_int(t) && itemsize(t) < 4); }

// A packed element's bits inside its u32 word.
struct Lane {
  int per_word;
  std::string mask;
};
Lane lane_of(DType t) { return itemsize(t) == 1 ? Lane{4, "0xffu"} : Lane{2, "0xffffu"}; }

std::string word(const UOp& buf, const std::string& name, const std::string& idx) {
  return fmt::format("{}[({})/{}]", name, idx, lane_of(buf.dtype).per_word);
}
std::string shift(DType t, const std::string& idx) {
  return fmt::format("(u32(({})%{})*{}u)", idx, lane_of(t).per_word, itemsize(t) * 8);
}

// A value of `from` (as its register type) as `to`: small integers keep their low bits, sign-extended
// for the signed ones, as the reference wraps them.
// A float becomes an unsigned integer through i32, so that a negative one wraps as the reference's
// (through int64) does instead of clamping to 0.
std::string wgsl_cast(DType from, DType to, const std::string& x) {
  const int bits = itemsize(to) * 8;
  const std::string v = is_float(from) && is_unsigned(to) ? fmt::format("i32({})", x) : x;
  if (is_int(to) && !is_unsigned(to) && bits < 32) return fmt::format("((i32({})<<{}u)>>{}u)", v, 32 - bits, 32 - bits);
  if (is_unsigned(to) && bits < 32) return fmt::format("(u32({})&{})", v, lane_of(to).mask);
  if (from == to) return x;
  return fmt::format("{}({})", wgsl_type(to), v);
}

std::string packed_load(const UOp& buf, const std::string& name, const std::string& idx) {
  const std::string w = buf.writes ? fmt::format("atomicLoad(&{})", word(buf, name, idx)) : word(buf, name, idx);
  const std::string bits = fmt::format("(({}>>{})&{})", w, shift(buf.dtype, idx), lane_of(buf.dtype).mask);
  if (buf.dtype == DType::Bool) return fmt::format("({}!=0u)", bits);
  return wgsl_cast(DType::UInt32, buf.dtype, bits);
}

// Clears the element's bits, then sets them: each is one atomic on the word, and other threads only
// touch the other elements' bits.
std::string packed_store(const UOp& buf, const std::string& name, const std::string& idx, const std::string& val) {
  const std::string w = word(buf, name, idx), s = shift(buf.dtype, idx), mask = lane_of(buf.dtype).mask;
  return fmt::format("atomicAnd(&{0}, ~({1}<<{2})); atomicOr(&{0}, ((u32({3})&{1})<<{2}));", w, mask, s, val);
}

std::string bindings(const UOpProgram& p) {
  std::string out;
  int buffers = 0;
  bool vars = false;
  for (const UOp& u : p.uops) {
    vars = vars || u.kind == UOpKind::DefineVar;
    if (u.kind != UOpKind::DefineGlobal) continue;
    buffers++;
    const std::string elem = packed(u.dtype) ? (u.writes ? "atomic<u32>" : "u32") : wgsl_type(u.dtype);
    out += fmt::format("@group(0) @binding({}) var<storage, {}> {}: array<{}>;\n", u.buffer, u.writes ? "read_write" : "read",
                       uop_name(u), elem);
  }
  // the Variables' values, in their order, after the buffers
  if (vars) out += fmt::format("@group(0) @binding({}) var<storage, read> var_values: array<i32>;\n", buffers);
  // a function's var is no constant expression, so its bits may be infinity or NaN
  out += "fn inf_f32() -> f32 { var bits = 0x7f800000u; return bitcast<f32>(bits); }\n"
         "fn nan_f32() -> f32 { var bits = 0x7fc00000u; return bitcast<f32>(bits); }\n";
  return out;
}

// The local ids' sizes; a kernel without them runs workgroups of one thread.
std::array<int64_t, 3> workgroup_size(const UOpProgram& p) {
  std::array<int64_t, 3> size{1, 1, 1};
  for (const UOp& u : p.uops)
    if (is_local_id(u)) size[static_cast<size_t>(u.axis)] = u.size;
  return size;
}

}  // namespace

bool wgsl_z_free(const UOpProgram& p) {
  return std::none_of(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Special && u.axis == 2; });
}

std::array<int64_t, 3> wgsl_dispatch(const std::array<int64_t, 3>& groups, bool z_free, int64_t limit) {
  std::array<int64_t, 3> d = groups;
  if (d[0] <= limit || !z_free) return d;
  int64_t x = limit;
  while (x > 1 && d[0] % x != 0) x--;
  d[2] = d[0] / x;
  d[0] = x;
  return d;
}

RenderedSource render_wgsl(const UOpProgram& p) {
  static const CStyleLanguage lang{
      .name = "WGSL",
      .half_prelude = "enable f16;\n",
      .kernel_prefix = "fn ",
      .kernel_attributes = [](const UOpProgram& prog) {
        const auto s = workgroup_size(prog);
        return fmt::format("@compute @workgroup_size({}, {}, {})\n", s[0], s[1], s[2]);
      },
      .module_decls = bindings,
      .var_value = "let {0}: i32 = var_values[{1}];",
      .module_local_decl = "var<workgroup> {name}: array<{type}, {size}>;",
      .declare = "var {name}: {type} = {value};",
      .ternary = "select({f},{t},{c})",
      .gated_index = "select(0,{idx},{gate})",
      .bool_false = "false",
      .bool_true = "true",
      .infinity = "inf_f32()",
      .nan = "nan_f32()",
      .barrier = "workgroupBarrier();",
      .vector_arith = true,
      .vector_max = "select({a},{b},{takes_b})",
      .vector_math = "{fn}({x})",
      .type = wgsl_type,
      // workgroup ids, and the thread in the workgroup; a kernel without local ids runs one thread per
      // workgroup, so the workgroup id is the thread's id in the grid
      .launch_params = [](const UOpProgram& prog) -> std::vector<std::string> {
        if (std::none_of(prog.uops.begin(), prog.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Special; }))
          return {};
        return {"@builtin(workgroup_id) gid: vec3<u32>", "@builtin(local_invocation_id) lid: vec3<u32>",
                "@builtin(num_workgroups) nwg: vec3<u32>"};
      },
      // x workgroups past the limit fold into a free z (wgsl_dispatch)
      .special = [](const UOp& u, const UOpProgram& prog) {
        if (is_local_id(u)) return fmt::format("i32(lid.{})", xyzw(u.axis));
        if (u.axis == 0 && wgsl_z_free(prog)) return std::string("i32(gid.x+gid.z*nwg.x)");
        return fmt::format("i32(gid.{})", xyzw(u.axis));
      },
      .math = [](const std::string& fn, DType, const std::string& x) { return fmt::format("{}({})", fn, x); },
      .vector_type = [](DType t, int n) -> std::string {
        if (n < 2 || n > 4) return "";
        return fmt::format("vec{}<{}>", n, wgsl_type(t));
      },
      .vector_make = [](const std::string& type, const std::vector<std::string>& lanes) {
        return fmt::format("{}({})", type, fmt::join(lanes, ","));
      },
      .gep = [](const std::string& x, int lane) { return fmt::format("{}.{}", x, xyzw(lane)); },
      .bitcast = [](DType from, DType to, const std::string& x) {
        if (itemsize(from) != 4) fail("type", "WGSL bitcasts 32-bit values only, not {}", name(from));
        return fmt::format("bitcast<{}>({})", wgsl_type(to), x);
      },
      .cast = wgsl_cast,
      .packed = packed,
      .packed_load = packed_load,
      .packed_store = packed_store,
  };
  return render_cstyle(lang, p);
}

}  // namespace tr
