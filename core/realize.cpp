#include "core/realize.h"

#include <chrono>
#include <deque>
#include <map>

#include "core/context.h"
#include "core/device.h"
#include "core/error.h"
#include "core/codegen/codegen.h"
#include "core/render/render.h"
#include "core/search.h"

namespace tr {
namespace {

std::vector<RunRecord>& records() {
  static std::vector<RunRecord> r;
  return r;
}

Realization& last() {
  static Realization r;
  return r;
}

std::function<void(const RunRecord&)>& listener() {
  static std::function<void(const RunRecord&)> l;
  return l;
}

// Kernel names repeat for different ASTs of the same shape: those get n1, n2, ... as tinygrad does.
// Keyed by the AST's structural hash; past kMaxNamed ASTs the numbering starts again.
std::string unique_name(const std::string& base, const AstRef& ast) {
  constexpr size_t kMaxNamed = 4096;
  static std::map<std::string, std::vector<size_t>> seen;
  static size_t named = 0;
  if (named >= kMaxNamed) {
    seen.clear();
    named = 0;
  }
  auto& asts = seen[base];
  size_t i = 0;
  while (i < asts.size() && asts[i] != ast->hash) i++;
  if (i == asts.size()) {
    asts.push_back(ast->hash);
    named++;
  }
  return i == 0 ? base : fmt::format("{}n{}", base, i);
}

// Compiled programs of this process by device and a hash of the source: a re-run compiles nothing.
// Bounded: the oldest program is dropped past kMaxPrograms.
std::shared_ptr<Program> compiled(Device& dev, const UOpProgram& program, const std::string& source, bool& cached) {
  constexpr size_t kMaxPrograms = 1024;
  using Key = std::pair<std::string, size_t>;
  static std::map<Key, std::shared_ptr<Program>> programs;
  static std::deque<Key> order;
  const Key key{dev.name(), std::hash<std::string>{}(source)};
  if (const auto it = programs.find(key); it != programs.end()) {
    cached = true;
    return it->second;
  }
  std::shared_ptr<Program> p = dev.compile(program, source, cached);
  programs.emplace(key, p);
  order.push_back(key);
  if (order.size() > kMaxPrograms) {
    programs.erase(order.front());
    order.pop_front();
  }
  return p;
}

void record(RunRecord r) {
  records().push_back(r);
  last().runs.push_back(r);
  if (listener()) listener()(records().back());
}

KernelRecord lowered(const Kernel& k, Device& dev, const ScheduleItem* item, std::vector<std::pair<DType, int64_t>> bufs) {
  KernelRecord rec;
  rec.device = dev.name();
  rec.kernel = k;
  rec.name = unique_name(k.base_name(), k.ast);
  rec.program = codegen(k, dev.target(), rec.name);
  for (const auto& [t, n] : bufs) rec.program.bytes += n * itemsize(t);
  rec.source = render(dev.backend(), rec.program);
  rec.buffers = std::move(bufs);
  if (item) rec.reason = item->reason;
  return rec;
}

std::vector<std::pair<DType, int64_t>> buffer_sizes(const ScheduleItem& item) {
  std::vector<std::pair<DType, int64_t>> out;
  for (const LazyRef& n : item.outputs) out.emplace_back(n->dtype, prod(n->shape));
  for (const LazyRef& n : item.inputs) out.emplace_back(n->dtype, n->buffer ? n->buffer->size : prod(n->shape));
  return out;
}

void run_copy(const ScheduleItem& item) {
  const LazyRef& n = item.outputs[0];
  Device& dev = device(n->device);
  RunRecord r{.is_copy = true, .start_us = now_us()};
  const BufferRef buf = dev.alloc(n->dtype, prod(n->shape));
  const auto t0 = std::chrono::steady_clock::now();
  if (item.inputs.empty()) {
    dev.copyin(*buf, std::get<std::shared_ptr<const HostData>>(n->arg)->bytes.data());
    r.copy.from = "HOST";
  } else {
    const Buffer& src = *item.inputs[0]->buffer;
    std::vector<std::byte> staging(src.nbytes());
    device(src.device).copyout(staging.data(), src);
    dev.copyin(*buf, staging.data());
    r.copy.from = src.device;
  }
  r.copy.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.copy.to = dev.name();
  r.copy.bytes = buf->nbytes();
  n->buffer = buf;
  record(std::move(r));
}

void run_kernel(const ScheduleItem& item) {
  const LazyRef& out = item.outputs[0];
  Device& dev = device(out->device);
  RunRecord r{.is_copy = false, .start_us = now_us()};
  r.kernel = lower(item, dev.name());
  const BufferRef buf = dev.alloc(out->dtype, prod(out->shape));
  std::vector<const Buffer*> bufs{buf.get()};
  for (const LazyRef& in : item.inputs) {
    // every tensor op checks this; a kernel handed another device's memory would crash in its driver
    if (in->buffer->device != dev.name())
      fail("device", "kernel {} on {} reads a buffer on {}; move it with .to()", r.kernel.name, dev.name(), in->buffer->device);
    bufs.push_back(in->buffer.get());
  }
  const auto program = compiled(dev, r.kernel.program, r.kernel.source, r.kernel.cached);
  r.kernel.seconds = program->run(bufs, r.kernel.program.dims);
  out->buffer = buf;
  record(std::move(r));
}

}  // namespace

double now_us() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

void set_run_listener(std::function<void(const RunRecord&)> l) { listener() = std::move(l); }
const std::vector<RunRecord>& history() { return records(); }
const Realization& last_realization() { return last(); }
void clear_history() {
  records().clear();
  last() = {};
}

KernelRecord lower(const ScheduleItem& item, const std::string& device_name) {
  Device& dev = device(device_name);
  const Kernel k = Kernel::from_ast(item.ast);
  const auto bufs = buffer_sizes(item);
  Kernel opted = k;
  if (settings().beam > 0) opted = beam_search(k, dev, bufs, settings().beam);
  else if (!settings().noopt) opted = default_opts(k, dev.target());
  return lowered(opted, dev, &item, bufs);
}

std::vector<PassSnapshot> lowering_passes(const KernelRecord& rec) {
  return codegen(rec.kernel, device(rec.device).target(), rec.name, true).passes;
}

KernelRecord run_with_opts(const KernelRecord& base, const std::vector<Opt>& opts) {
  Device& dev = device(base.device);
  Kernel k = Kernel::from_ast(base.kernel.ast);
  for (const Opt& o : opts) k = apply_opt(k, o);
  KernelRecord rec = lowered(k, dev, nullptr, base.buffers);
  rec.reason = base.reason;
  rec.seconds = time_program(dev, rec.program, rec.source, rec.buffers, rec.cached);
  return rec;
}

Realization realize(const std::vector<LazyRef>& outs) {
  const double t0 = now_us();
  std::vector<ScheduleItem> schedule = create_schedule(outs);
  // every buffer is checked before the first is allocated: a huge tensor fails with nothing done
  for (const ScheduleItem& item : schedule)
    for (const LazyRef& n : item.outputs) check_alloc(checked_numel(n->shape), n->dtype);
  last() = Realization{schedule, {}, (now_us() - t0) / 1000.0};
  for (const ScheduleItem& item : schedule) {
    if (item.kind == ScheduleItem::Kind::Copy) run_copy(item);
    else run_kernel(item);
  }
  return last();
}

}  // namespace tr
