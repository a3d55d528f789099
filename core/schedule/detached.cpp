#include "core/schedule/detached.h"

#include <map>
#include <memory>

#include "core/shape/shape_tracker.h"

namespace tr {
namespace {

class StandIns {
 public:
  const LazyRef& of(const LazyRef& n) {
    auto it = made_.find(n.get());
    if (it != made_.end()) return it->second;
    auto s = std::make_shared<LazyNode>(Op::Copy, n->dtype, n->shape, n->device, std::vector<LazyRef>{}, LazyArg{},
                                        n->id);
    s->sym = n->sym;
    // the size a kernel over the original is lowered and timed with: an assign writes its target's
    // whole buffer, which may be larger than the node
    const BufferRef written = buffer_of(*n);
    s->buffer = std::make_shared<Buffer>(Buffer{n->device, n->dtype, written ? written->size : prod(n->shape), nullptr});
    return made_.emplace(n.get(), std::move(s)).first->second;
  }

 private:
  std::map<const LazyNode*, LazyRef> made_;
};

}  // namespace

std::vector<ScheduleItem> detached(const std::vector<ScheduleItem>& items) {
  StandIns stand_ins;
  std::vector<ScheduleItem> out;
  out.reserve(items.size());
  for (const ScheduleItem& item : items) {
    ScheduleItem d = item;
    for (LazyRef& n : d.outputs) n = stand_ins.of(n);
    for (LazyRef& n : d.inputs) n = stand_ins.of(n);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace tr
