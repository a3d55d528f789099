#pragma once
// The lazy graph: every tensor operation makes a node, nothing runs until a value is needed.
// A node is a base (it computes a contiguous result of its shape) or a VIEW (a ShapeTracker over
// a base). A VIEW's source is always a base: movement ops on a view compose their trackers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/runtime/buffer.h"
#include "core/ir/dtype.h"
#include "core/ir/ops.h"
#include "core/shape/shape_tracker.h"

namespace tr {

struct LazyNode;
using LazyRef = std::shared_ptr<LazyNode>;

// How a MULTI node splits its tensor: along `axis`, one equal piece per device in order, or (no axis)
// a whole copy on each device.
struct Sharding {
  std::optional<int> axis;
  bool operator==(const Sharding&) const = default;
};

using LazyArg = std::variant<std::monostate,
                             ConstValue,                        // Const
                             ShapeTracker,                      // View
                             std::vector<int>,                  // Sum, ReduceMax: reduced axes (kept as 1)
                             std::shared_ptr<const HostData>,   // Copy from the host
                             Sharding>;                         // Multi

struct LazyNode {
  Op op;
  DType dtype;
  Shape shape;
  std::string device;
  std::vector<LazyRef> srcs;
  LazyArg arg;
  uint64_t id;             // creation order, for stable printing
  BufferRef buffer;        // set once realized; a realized node is read with LOAD from then on
  bool forced = false;     // realize()/contiguous() asked for this node's own buffer
  // A base node's symbolic dims (core/lazy/symbolic_shape.h): per dim its Variable or null; empty when none.
  std::vector<ExprRef> sym;
  // Ops on the longest path down to a realized node or a leaf, as of this node's creation: every
  // walk over the graph (scheduling, printing) recurses this deep.
  int depth = 0;

  LazyNode(Op op, DType dtype, Shape shape, std::string device, std::vector<LazyRef> srcs, LazyArg arg, uint64_t id);
  // Releases a long chain of sources one by one instead of by recursion, which could overflow the stack.
  ~LazyNode();
  LazyNode(const LazyNode&) = delete;
  LazyNode& operator=(const LazyNode&) = delete;

  bool is_view() const { return op == Op::View; }
  const LazyNode& base() const { return is_view() ? *srcs[0] : *this; }
  // The tracker from the base's contiguous buffer to this node's shape.
  ShapeTracker st() const;
};

// Tensors realize a graph where it reaches this depth (core/tensor/tensor.cpp), which keeps every walk over
// it within the stack, sanitizer builds included.
constexpr int kMaxLazyDepth = 1000;

// The node of this op over these sources: an equal unrealized node that is alive is returned itself
// (interned by a structural hash), so a graph built twice is one DAG.
LazyRef make_node(Op op, DType dtype, Shape shape, std::string device, std::vector<LazyRef> srcs, LazyArg arg = {});
// A leaf that reads an existing buffer: its own node, never shared, since it stands for that buffer.
LazyRef make_leaf(const BufferRef& buffer, DType dtype, Shape shape, std::string device);
// A VIEW of x with tracker st (st applies on top of x's own view, if x is a view). Returns x's base
// itself when the result is the identity on it.
LazyRef make_view(const LazyRef& x, const ShapeTracker& st_on_x);
LazyRef base_of(const LazyRef& x);

// One line for a node: "ADD float32 (2, 3)", "VIEW (4,):(0,)", "CONST 2.0", with " [realized]" once it has a buffer.
std::string lazy_node_str(const LazyNode& n);
// The graph under x as a tree (SPEC section 4's drawing); a node reached twice is printed once and
// referred to as "↑ #id" after that.
std::string print_graph(const LazyRef& x);

}  // namespace tr
