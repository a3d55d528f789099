#pragma once
// The kernel AST: what one kernel computes, from its STORE down to its LOADs. It is a DAG: the
// constructors intern every node by a structural hash, so identical subtrees are one object, and every
// walk below visits each node once.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/ops.h"
#include "core/shape/shape_tracker.h"

namespace tr {

enum class AstOp : uint8_t { Store, Load, Const, Arange, Alu, Reduce };

struct AstNode;
using AstRef = std::shared_ptr<const AstNode>;

struct AstNode {
  AstOp op;
  DType dtype;
  std::vector<AstRef> srcs;
  Op alu = Op::Add;                  // Alu: the operation (Cast included); Reduce: Sum or ReduceMax
  int idx = -1;                      // Load, Store: the buffer's position in the kernel's argument list
  std::optional<ShapeTracker> st;    // Load, Store, Const, Arange
  ConstValue value = int64_t{0};     // Const
  std::vector<int> axes;             // Reduce: reduced axes of the full shape
  size_t hash = 0;                   // structural: set when interned, equal for equal DAGs
};

AstRef ast_store(int idx, ShapeTracker st, AstRef value);
AstRef ast_load(int idx, DType dtype, ShapeTracker st);
AstRef ast_const(ConstValue v, DType dtype, ShapeTracker st);
AstRef ast_arange(DType dtype, ShapeTracker st);
AstRef ast_alu(Op op, DType dtype, std::vector<AstRef> srcs);
AstRef ast_reduce(Op op, DType dtype, AstRef src, std::vector<int> axes);

// Rebuilds the DAG bottom up, each node once: a node's copy gets its rebuilt sources, then `f` may
// change the copy, knowing the original. Nodes for which `keep` holds stay as they are, with
// everything under them.
AstRef rebuild(const AstRef& ast, const std::function<void(const AstNode& original, AstNode& copy)>& f,
               const std::function<bool(const AstNode&)>& keep = {});
// rebuild() with every tracker passed through f (loads, consts, aranges and the store).
AstRef map_trackers(const AstRef& ast, const std::function<ShapeTracker(const ShapeTracker&)>& f);
// Calls f on every node once, parents before children.
void walk(const AstRef& ast, const std::function<void(const AstNode&)>& f);
// The first node (parents before children) for which `pred` holds, or null.
const AstNode* find_node(const AstRef& ast, const std::function<bool(const AstNode&)>& pred);

// The tree as SPEC section 4 prints it; a node reached again is one row "↑ N" naming its first row:
//   0 ━┳ STORE MemBuffer(idx=0, dtype=int, st=(1,):(0,))
//   1  ┗━┳ SUM (0,)
std::string print_ast(const AstRef& ast);
// The tree in the notes' LazyOp(...) form (tinygrad 0.9's repr), rooted at a MetaOps.KERNEL over the store:
//   LazyOp(MetaOps.KERNEL, arg=None, src=(
//     LazyOp(BufferOps.STORE, arg=MemBuffer(idx=0, dtype=dtypes.int, st=ShapeTracker(views=(View(...),))), src=(
// A node reached again is `↑ N`, N its row in print_ast's tree (the repr would repeat its subtree).
std::string print_lazyop(const AstRef& ast);
// The row at which print_ast draws each node (a node reached again: its first row).
std::unordered_map<const AstNode*, int> ast_rows(const AstRef& ast);
// One line per node: what the node is, without the tree drawing ("LOAD MemBuffer(...)").
std::string ast_node_str(const AstNode& n);

}  // namespace tr
