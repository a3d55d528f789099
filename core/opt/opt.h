#pragma once
// An opt as a kernel records it: which one, on which dim, by how much. core/opt/opt_table.h
// describes each; apply_opt.h applies them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tr {

enum class OptOp : uint8_t { Upcast, Unroll, Local, Group, Thread, Padto, Tc, Stage, Double, Block };

std::string_view opt_name(OptOp op);                 // "UPCAST", from the table
std::optional<OptOp> parse_opt(std::string_view s);  // "UPCAST" -> OptOp::Upcast
std::string opt_names();                             // "UPCAST, UNROLL, LOCAL, GROUP, THREAD, PADTO, TC, STAGE, DOUBLE, BLOCK"

struct Opt {
  OptOp op;
  int dim;         // index into Kernel::dims at the time the opt is applied
  int64_t amount;  // the size of the new inner (or, for THREAD, outer) piece; PADTO: the multiple; TC: the unit's K; DOUBLE: 2 halves; BLOCK: a block's steps
  std::string str() const;  // "UPCAST(0, 4)"
  bool operator==(const Opt&) const = default;
};

}  // namespace tr
