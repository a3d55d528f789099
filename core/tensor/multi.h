#pragma once
// Tensors over several devices, as tinygrad's sharded tensors: a MULTI node holds one tensor per device,
// each a piece of the whole along one axis or (replicated) a whole copy. Every operation on one runs on
// each device: element-wise ops shard by shard, a reduce over the sharded axis as a reduce per device and
// then an all-reduce (each device adds every device's partial, copied to it), movement ops as long as no
// element moves to another device. The lazy graph under a MULTI holds one ordinary graph per device; the
// scheduler sees only those, with the copies between devices among their kernels.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace tr {

// A MULTI of these tensors, one per device in order, split along axis (equal pieces) or replicated.
Tensor make_multi(const std::vector<Tensor>& shards, std::optional<int> axis);
// A replicated tensor on every device that `name` lists, made by `make` on each; nothing when `name`
// names one device.
std::optional<Tensor> replicated_on(const std::string& name, const std::function<Tensor(const std::string&)>& make);

// op applied on each device to the operands' pieces there, when some operand is a MULTI: sharded
// operands give their shards, replicated ones the part of the sharded axis that each device holds.
// Nothing when no operand is a MULTI.
std::optional<Tensor> on_each_device(const std::vector<Tensor>& operands,
                                     const std::function<Tensor(const std::vector<Tensor>&)>& op);

// x's piece on each of its devices when split along axis: its shards when it is split so, the parts
// of its copies when it is replicated.
std::vector<Tensor> pieces_along(const Tensor& x, std::optional<int> axis);

// The primitives on a MULTI, each with the checked arguments of its Tensor method.
// reduce_piece reduces one shard over axes, keeping them; op combines the partials where the sharded
// axis is among them.
Tensor multi_reduce(const Tensor& x, Op op, const std::vector<int>& axes,
                    const std::function<Tensor(const Tensor&)>& reduce_piece);
Tensor multi_reshape(const Tensor& x, const Shape& shape);
Tensor multi_permute(const Tensor& x, const std::vector<int>& order);
Tensor multi_expand(const Tensor& x, const Shape& shape);  // of x's rank
Tensor multi_pad(const Tensor& x, const std::vector<Range>& padding);
Tensor multi_shrink(const Tensor& x, const std::vector<Range>& bounds);
Tensor multi_flip(const Tensor& x, const std::vector<bool>& dims);
// To one device: the shards gathered along the axis; to several: x itself or a whole copy on each.
Tensor multi_to(const Tensor& x, const std::string& device);
// What x becomes when value is assigned to it: each piece of value assigned to x's piece on its
// device (so x's own buffers are written where they exist); both must be split alike.
Tensor multi_assigned(const Tensor& x, const Tensor& value);

}  // namespace tr
