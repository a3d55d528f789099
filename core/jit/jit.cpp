#include "core/jit/jit.h"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/context.h"
#include "core/base/error.h"
#include "core/jit/jit_batch.h"

namespace tr {

enum class SlotKind : uint8_t {
  Input,    // the buffer of input `input`
  Held,     // the buffer that `state` holds when the replay starts
  Fixed,    // a buffer from before the capture that no tensor names: the captured one
  Scratch,  // made and dropped inside the call: the captured one, reused
  Fresh,    // made inside the call and seen after it: a new one at every replay
};

struct Slot {
  SlotKind kind;
  BufferRef captured;  // Scratch: the one in use, made again when another value needs another size
  size_t input = 0;
  std::weak_ptr<TensorState> state;
  // Scratch and Fresh: the shape the buffer holds and its symbolic dims, which size it per value
  Shape shape{};
  std::vector<ExprRef> sym{};
};

// A tensor that a replay hands out (a returned one) or points at its new buffer (one assign() replaced).
struct Placement {
  size_t slot;
  Shape base_shape;
  std::vector<ExprRef> base_sym;     // the base's symbolic dims: they follow the replay's values
  std::optional<ShapeTracker> view;  // the tensor's view of the buffer, when it is not the whole of it
};

struct Rebind {
  Placement at;
  std::optional<size_t> input;        // the tensor is this input of the call (the new call's input is rebound)
  std::weak_ptr<TensorState> state;  // otherwise this tensor
};

class CapturedJit {
 public:
  JitBatch batch;
  std::vector<Slot> slots;
  std::vector<Placement> outputs;
  std::vector<Rebind> rebinds;
  std::vector<JitInputInfo> infos;
  std::vector<std::string> keys;
  VarVals vals;                     // the values the capture ran with
  std::vector<std::string> serves;  // the Variables it replays for any value of (sorted)
  int replays = 0;
};

// What a plain call ran, for the capture after it to compare with.
class PlainCall {
 public:
  VarVals vals;
  std::vector<std::shared_ptr<const std::string>> sources;  // per launch, its kernel's source (null: a copy)
};

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<const Jit*> jits;
  int capturing = 0;
};

Registry& registry() {
  static Registry r;
  return r;
}

LazyRef placed(const Placement& p, const BufferRef& buf, const VarVals& vals) {
  const Shape shape = rebound_shape(p.base_shape, p.base_sym, vals);
  const LazyRef base = make_leaf(buf, buf->dtype, shape, buf->device);
  if (p.view) return make_view(base, rebound(*p.view, vals));
  return p.base_sym.empty() ? base : make_view(base, ShapeTracker::contiguous(shape, p.base_sym));
}

Placement placement(const LazyRef& node, size_t slot) {
  const LazyRef base = base_of(node);
  return Placement{slot, base->shape, node_sym(*base),
                   node->is_view() ? std::optional<ShapeTracker>(node->st()) : std::nullopt};
}

int64_t size_for(const Slot& s, const VarVals& vals) { return prod(rebound_shape(s.shape, s.sym, vals)); }

// The Variables whose value differs between the plain call and the capture after it, when both ran
// kernels of the same sources in the same order: no kernel holds their value, so any value replays.
std::vector<std::string> served(const PlainCall& plain, const std::vector<Launch>& captured, const VarVals& vals) {
  if (plain.sources.size() != captured.size()) return {};
  for (size_t i = 0; i < captured.size(); i++) {
    const std::shared_ptr<const std::string>& a = plain.sources[i];
    const std::shared_ptr<const std::string>& b = captured[i].record.kernel.source;
    if (captured[i].record.is_copy != !a || (a && *a != *b)) return {};
  }
  std::vector<std::string> out;
  for (const auto& [name, value] : vals) {
    const std::optional<int64_t> before = value_of(plain.vals, name);
    if (before && *before != value) out.push_back(name);
  }
  return out;
}

// Each launch's Variable values for a replay: vals' where it has them, the captured ones otherwise.
std::vector<std::vector<int32_t>> launch_vars(const JitBatch& batch, const VarVals& vals) {
  std::vector<std::vector<int32_t>> out;
  for (const Launch& l : batch.launches) {
    std::vector<int32_t> v = l.record.kernel.vars;
    if (l.record.kernel.program)
      for (size_t i = 0; i < v.size(); i++)
        if (const std::optional<int64_t> now = value_of(vals, l.record.kernel.program->vars[i]))
          v[i] = static_cast<int32_t>(*now);
    out.push_back(std::move(v));
  }
  return out;
}

const Buffer* buffer_of(const Tensor& t) { return base_of(t.node())->buffer.get(); }

// The buffer a held tensor has now, checked against what the capture read.
const BufferRef& checked_held(const Slot& s, const BufferRef& now, const std::string& jit) {
  if (now->dtype != s.captured->dtype || now->size != s.captured->size || now->device != s.captured->device)
    fail("jit", "{} read a {} buffer of {} on {} when it was captured; that tensor is now {} of {} on {}", jit,
         name(s.captured->dtype), s.captured->size, s.captured->device, name(now->dtype), now->size, now->device);
  return now;
}

// Equal graphs are one node, so two tensors realized from equal graphs (zeros(3).contiguous() made
// twice) share a buffer. A capture that read it could not tell a replay whose buffer to read once
// assign() has replaced one of them: every tensor but the first of each buffer gets its own copy.
void unshare(const std::vector<Tensor>& live, const std::function<std::shared_ptr<TensorState>(const Tensor&)>& state) {
  std::set<const Buffer*> owned;
  for (const Tensor& t : live) {
    const std::shared_ptr<TensorState> s = state(t);
    const LazyRef base = base_of(s->node);
    if (!base->buffer || owned.insert(base->buffer.get()).second) continue;
    const Buffer& src = *base->buffer;
    Device& dev = device(src.device);
    const BufferRef copy = dev.alloc(src.dtype, src.size);
    std::vector<std::byte> staging(src.nbytes());
    dev.copyout(staging.data(), src);
    dev.copyin(*copy, staging.data());
    const LazyRef leaf = make_leaf(copy, base->dtype, base->shape, base->device);
    s->node = s->node->is_view() ? make_view(leaf, s->node->st()) : leaf;
  }
}

// A capture binds each input and output to one buffer: a tensor sharded over several devices has one per
// device, which a capture does not follow.
void refuse_sharded(const std::string& jit, const std::vector<Tensor>& tensors, std::string_view what) {
  for (const Tensor& t : tensors)
    if (t.is_multi())
      fail("jit", "{}: {} a tensor on {}; @jit does not capture tensors sharded over several devices (call it "
                  "without @jit)", jit, what, t.device());
}

}  // namespace

std::string jit_input_str(const JitInputInfo& info) {
  return fmt::format("{} {} on {}", name(info.dtype), info.st.str(), info.device);
}

Jit::Jit(std::string name) : name_(std::move(name)) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.jits.push_back(this);
}

Jit::~Jit() {
  if (capturing_) abandon_capture();
  if (recording_) stop_recording();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::erase(r.jits, this);
}

Jit::Phase Jit::phase() const {
  if (captured_) return Phase::Replay;
  return plain_ ? Phase::Capture : Phase::Run;
}

JitArgs Jit::prepare(const std::vector<Tensor>& inputs, const std::vector<std::string>& keys, const VarVals& bound) {
  refuse_sharded(name_, inputs, "an input is");
  std::vector<Tensor> lazy;
  for (const Tensor& t : inputs)
    if (!t.realized()) lazy.push_back(t);
  if (!lazy.empty()) Tensor::realize_together(lazy);
  JitArgs args{{}, bound};
  std::vector<JitInputInfo>& infos = args.infos;
  for (size_t i = 0; i < inputs.size(); i++) {
    for (size_t j = 0; j < i; j++)
      if (inputs[i].is(inputs[j])) fail("jit", "duplicate inputs to JIT: {} got one tensor twice", name_);
    VarVals vals;
    infos.push_back(JitInputInfo{unbind(inputs[i].node()->st(), vals), inputs[i].dtype(), inputs[i].device()});
    merge_vals(args.vals, vals);
  }
  if (!captured_) return args;
  if (keys != captured_->keys)
    fail("jit", "args mismatch in JIT: {} was captured with tensors as arguments {}, now {}", name_,
         fmt::join(captured_->keys, ", "), fmt::join(keys, ", "));
  for (size_t i = 0; i < infos.size(); i++)
    if (infos[i] != captured_->infos[i])
      fail("jit", "args mismatch in JIT: input {} of {} was {} when captured, now {}", captured_->keys.size() > i ? captured_->keys[i] : std::to_string(i),
           name_, jit_input_str(captured_->infos[i]), jit_input_str(infos[i]));
  for (const auto& [name, value] : captured_->vals)
    if (!value_of(args.vals, name))
      fail("jit", "args mismatch in JIT: {} was captured with Variable {} bound to {}, now it is not given", name_, name, value);
  for (const auto& [name, value] : args.vals) {
    const std::optional<int64_t> was = value_of(captured_->vals, name);
    if (was && *was != value && !std::binary_search(captured_->serves.begin(), captured_->serves.end(), name)) {
      captured_.reset();
      recaptures_++;
      break;
    }
  }
  return args;
}

void Jit::begin_run() {
  recording_ = std::make_unique<std::vector<Launch>>();
  recording_before_ = capture_launches(recording_.get());
}

void Jit::stop_recording() {
  capture_launches(recording_before_);
  recording_before_ = nullptr;
  recording_.reset();
}

void Jit::finish_run(const VarVals& vals) {
  auto plain = std::make_unique<PlainCall>();
  plain->vals = vals;
  for (const Launch& l : *recording_) plain->sources.push_back(l.record.is_copy ? nullptr : l.record.kernel.source);
  stop_recording();
  plain_ = std::move(plain);
  calls_++;
}

void Jit::abandon_run() { stop_recording(); }

void Jit::begin_capture() {
  Registry& r = registry();
  {
    const std::lock_guard lock(r.mutex);
    if (r.capturing > 0) fail("jit", "having TinyJit inside another TinyJit is not supported ({} was called while one was captured)", name_);
    r.capturing++;
  }
  held_before_.clear();
  const std::vector<Tensor> live = Tensor::live();
  unshare(live, [](const Tensor& t) { return t.state_; });
  for (const Tensor& t : live) held_before_.emplace_back(buffer_of(t), t.state_);
  capturing_ = true;
  begin_run();
}

void Jit::abandon_capture() {
  stop_recording();
  capturing_ = false;
  held_before_.clear();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.capturing--;
}

void Jit::finish_capture(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, JitArgs args,
                         std::vector<std::string> keys) {
  try {
    refuse_sharded(name_, outputs, "it returns");
    if (!outputs.empty()) Tensor::realize_together(outputs);
  } catch (...) {
    abandon_capture();
    throw;
  }
  auto c = std::make_unique<CapturedJit>();
  c->batch.launches = std::move(*recording_);
  const auto before = std::move(held_before_);
  abandon_capture();
  if (c->batch.launches.empty()) fail("jit", "didn't JIT anything! {} ran no kernel when it was captured", name_);

  // buffers the call made; an assign() writes into its target's buffer, which existed before the call
  std::set<const Buffer*> existed, made;
  for (const auto& [buf, state] : before) existed.insert(buf);
  for (const Tensor& t : inputs) existed.insert(buffer_of(t));
  for (const Launch& l : c->batch.launches)
    if (!existed.contains(l.buffers[0].get())) made.insert(l.buffers[0].get());
  std::map<const Buffer*, std::weak_ptr<TensorState>> held_by;
  for (const auto& [buf, state] : before)
    if (buf) held_by.emplace(buf, state);
  std::map<const Buffer*, size_t> slot_of;
  // a made buffer is first seen as the output of the launch that made it
  const auto slot = [&](const BufferRef& b, const Launch* maker) {
    const auto [it, added] = slot_of.emplace(b.get(), c->slots.size());
    if (!added) return it->second;
    Slot s{SlotKind::Fixed, b, 0, {}};
    const auto input = std::find_if(inputs.begin(), inputs.end(), [&](const Tensor& t) { return buffer_of(t) == b.get(); });
    const auto held = held_by.find(b.get());
    if (made.contains(b.get())) s = Slot{SlotKind::Scratch, b, 0, {}, maker->shape, maker->sym};
    else if (input != inputs.end()) s = Slot{SlotKind::Input, b, static_cast<size_t>(input - inputs.begin()), {}};
    else if (held != held_by.end()) s = Slot{SlotKind::Held, b, 0, held->second};
    c->slots.push_back(std::move(s));
    return it->second;
  };
  for (const Launch& l : c->batch.launches) {
    std::vector<size_t> args;
    for (const BufferRef& b : l.buffers) args.push_back(slot(b, &l));
    c->batch.args.push_back(std::move(args));
  }
  const auto escape = [&](size_t s) {
    if (c->slots[s].kind == SlotKind::Scratch) c->slots[s].kind = SlotKind::Fresh;
  };
  for (const Tensor& t : outputs) {
    const size_t s = slot(base_of(t.node())->buffer, nullptr);
    escape(s);
    c->outputs.push_back(placement(t.node(), s));
  }
  // tensors from before the call that now hold a buffer made in it: assign() replaced them
  for (const auto& [buf, weak] : before) {
    const std::shared_ptr<TensorState> state = weak.lock();
    if (!state) continue;
    const BufferRef& now = base_of(state->node)->buffer;
    if (!now || !made.contains(now.get())) continue;
    const size_t s = slot(now, nullptr);
    escape(s);
    const auto input = std::find_if(inputs.begin(), inputs.end(), [&](const Tensor& t) { return t.state_ == state; });
    c->rebinds.push_back(Rebind{placement(state->node, s),
                                input == inputs.end() ? std::nullopt : std::optional<size_t>(input - inputs.begin()), weak});
  }
  c->batch.slots = c->slots.size();
  c->batch.graphs = plan_graphs(c->batch.launches);
  c->serves = plain_ ? served(*plain_, c->batch.launches, args.vals) : std::vector<std::string>{};
  c->infos = std::move(args.infos);
  c->vals = std::move(args.vals);
  c->keys = std::move(keys);
  captured_ = std::move(c);
  plain_.reset();
  calls_++;
  captured_on_ = calls_;
}

std::vector<Tensor> Jit::replay(const std::vector<Tensor>& inputs, const VarVals& vals) {
  const std::shared_ptr<CapturedJit> held = captured_;
  CapturedJit& c = *held;
  std::vector<BufferRef> bound(c.slots.size());
  for (size_t i = 0; i < c.slots.size(); i++) {
    Slot& s = c.slots[i];
    switch (s.kind) {
      case SlotKind::Input: bound[i] = base_of(inputs[s.input].node())->buffer; break;
      case SlotKind::Held: {
        const std::shared_ptr<TensorState> state = s.state.lock();
        if (!state) {
          bound[i] = s.captured;
          break;
        }
        Tensor t(state);
        if (!t.realized()) t.realize();
        bound[i] = checked_held(s, base_of(t.node())->buffer, name_);
        break;
      }
      case SlotKind::Fixed: bound[i] = s.captured; break;
      case SlotKind::Scratch:
        if (const int64_t size = size_for(s, vals); size != s.captured->size)
          s.captured = device(s.captured->device).alloc(s.captured->dtype, size);
        bound[i] = s.captured;
        break;
      case SlotKind::Fresh: bound[i] = device(s.captured->device).alloc(s.captured->dtype, size_for(s, vals)); break;
    }
  }
  std::vector<std::vector<int32_t>> vars = launch_vars(c.batch, vals);
  const double start = now_us();
  // The replay returns while its launches run: their records wait for the device's times until the
  // next statement reads the history, runs more work or reads a buffer, or the next replay has started
  // its own launches, so that this host work overlaps the device's. DEBUG 2 prints each kernel's time
  // as it finishes: there the replay waits. `buffers` keeps every buffer the launches use until then.
  std::function<std::vector<double>()> wait = start_batch(c.batch, pointers(bound), vars);
  auto finish = [held, vars = std::move(vars), start, buffers = bound, wait = std::move(wait)] {
    const std::vector<double> seconds = wait();
    std::vector<RunRecord> runs;
    runs.reserve(seconds.size());
    double at = start;
    for (size_t i = 0; i < seconds.size(); i++) {
      RunRecord r = held->batch.launches[i].record;
      r.replayed = true;
      r.kernel.vars = vars[i];
      r.start_us = at;
      at += seconds[i] * 1e6;
      (r.is_copy ? r.copy.seconds : r.kernel.seconds) = seconds[i];
      r.kernel.repeats.clear();
      runs.push_back(std::move(r));
    }
    return runs;
  };
  if (settings().debug >= 2) record_runs(finish());
  else defer_runs(std::move(finish));
  std::vector<Tensor> out;
  for (const Placement& p : c.outputs) out.emplace_back(placed(p, bound[p.slot], vals));
  for (const Rebind& r : c.rebinds) {
    const std::shared_ptr<TensorState> state = r.input ? inputs[*r.input].state_ : r.state.lock();
    if (state) state->node = placed(r.at, bound[r.at.slot], vals);
  }
  c.replays++;
  calls_++;
  return out;
}

std::vector<JitSummary> jit_summaries() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<JitSummary> out;
  for (const Jit* j : r.jits) {
    JitSummary s{j->name(), j->calls(), 0, {}, j->captured_on(), j->recaptures(), {}};
    if (const CapturedJit* c = j->captured()) {
      s.replays = c->replays;
      s.serves = c->serves;
      for (const Launch& l : c->batch.launches) s.launches.push_back(l.record);
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool jit_capturing() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return r.capturing > 0;
}

}  // namespace tr
