#pragma once
// What the lowering passes share about one kernel: the kernel, the target, and how the kernel's dims
// became launch ids and loops, so that a later pass can index with the same variables.
#include <string>
#include <vector>

#include "core/codegen/graph.h"
#include "core/kernel/kernel.h"
#include "core/shape/symbolic.h"

namespace tr {

inline constexpr DType kIndex = DType::Int32;  // the type of index arithmetic in kernels

struct Lowering {
  const Kernel& k;
  const Target& target;
  std::vector<ExprRef> dim_vars{};      // per kernel dim: its value in terms of ids and loop variables
  std::vector<UOp> user_vars{};         // the DEFINE_VAR of each of the kernel's Variables, in k.vars' order
  std::vector<UOp> bound{};             // the SPECIAL or RANGE each index variable stands for (its Expr::node)
  LaunchDims dims{};
  bool store_walks_rows = false;        // the store is inside the last walk of the rows (a softmax's)

  // A new index variable standing for u (a SPECIAL or RANGE of `size` values), named as u prints.
  ExprRef bind(const UOp& u, int64_t size);
};

// Which of the kernel's Variables v is (a user's Variable is known by its name).
int user_var_index(const Kernel& k, const ExprRef& v);

// An index expression as nodes of g (its variables become their SPECIALs and RANGEs).
int index_node(UGraph& g, const Lowering& low, const ExprRef& e);

// The UPCAST dim whose copies the expand pass makes the lanes of vector values (the innermost upcast,
// where it is the stride-1 piece of the last output axis, a power of two the target's vectors hold, and
// every value of the kernel has a vector type); -1 where none.
int vector_upcast_dim(const Kernel& k, const Target& target);

// The passes, in the order codegen() runs them; each is a file of this folder.
UGraph lower_loops(Lowering& low);                   // loops.cpp: launch ids, loops, loads, reduces, stores
UGraph stage(const UGraph& g, const Lowering& low);         // stage.cpp: a STAGE opt's shared tiles through local memory
UGraph tensor_cores(const UGraph& g, const Lowering& low);  // tensor_cores.cpp: a TC opt's reduce as WMMA steps
UGraph expand(const UGraph& g, const Lowering& low);  // expand.cpp: upcasts and unrolls become copies and lanes
UGraph group(UGraph g, const Lowering& low);         // group.cpp: GROUP's partial results through local memory
UGraph bfloat16(const UGraph& g);                    // bfloat16.cpp: bfloat16 as bits in memory, float in ops
bool touches_bfloat16(const UGraph& g);
UGraph simplify(const UGraph& g, const Lowering& low);  // simplify.cpp: the rewrite rules of rules.cpp
struct Linearized {
  std::vector<UOp> uops;
  std::vector<int> ast_rows;  // per UOp: the AST row it came from (UGraph::origin), or -1
  int64_t flops = 0;
};
Linearized linearize(const UGraph& g);                // linearize.cpp: the graph as a list inside its loops

}  // namespace tr
