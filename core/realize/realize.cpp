#include "core/realize/realize.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "core/runtime/compile_parallel.h"
#include "core/base/context.h"
#include "core/runtime/device_queues.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/realize/footprint.h"
#include "core/codegen/codegen.h"
#include "core/base/interrupt.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/opt/search.h"
#include "core/base/progress.h"
#include "core/render/render.h"

namespace tr {
namespace {

RunHistory& records() {
  static RunHistory r;
  return r;
}

Realization& last() {
  static Realization r;
  return r;
}

// A new realization: its runs are recorded into last() from here on.
void begin_realization(std::vector<ScheduleItem> schedule, double schedule_ms) {
  static uint64_t count = 0;
  last() = Realization{std::move(schedule), {}, schedule_ms, ++count};
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
using ProgramKey = std::pair<std::string, size_t>;
ProgramKey program_key(const KernelRecord& r) { return {r.device, std::hash<std::string>{}(*r.source)}; }

class Programs {
 public:
  std::shared_ptr<Program> find(const ProgramKey& key) const {
    const auto it = programs_.find(key);
    return it == programs_.end() ? nullptr : it->second;
  }
  void add(const ProgramKey& key, std::shared_ptr<Program> p) {
    if (!programs_.emplace(key, std::move(p)).second) return;
    order_.push_back(key);
    if (order_.size() <= kMaxPrograms) return;
    programs_.erase(order_.front());
    order_.pop_front();
  }

 private:
  static constexpr size_t kMaxPrograms = 1024;
  std::map<ProgramKey, std::shared_ptr<Program>> programs_;
  std::deque<ProgramKey> order_;
};

Programs& programs() {
  static Programs p;
  return p;
}

std::atomic<int64_t>& built() {
  static std::atomic<int64_t> n{0};
  return n;
}

// The program of each kernel record (null for a copy): those this process has not compiled yet are
// compiled in parallel, each source once.
std::vector<std::shared_ptr<Program>> compiled(std::vector<KernelRecord>& recs) {
  std::vector<std::shared_ptr<Program>> out(recs.size());
  std::vector<CompileJob> jobs;
  std::map<ProgramKey, size_t> job_of;
  std::vector<std::pair<size_t, size_t>> waiting;  // record, job
  for (size_t i = 0; i < recs.size(); i++) {
    if (recs[i].device.empty()) continue;
    const ProgramKey key = program_key(recs[i]);
    if (std::shared_ptr<Program> p = programs().find(key)) {
      out[i] = std::move(p);
      recs[i].cached = true;
      continue;
    }
    if (job_of.emplace(key, jobs.size()).second)
      jobs.push_back(CompileJob{.device = &device(recs[i].device), .program = recs[i].program.get(), .source = recs[i].source.get()});
    waiting.emplace_back(i, job_of[key]);
  }
  compile_parallel(jobs);
  built() += static_cast<int64_t>(jobs.size());
  for (const auto& [i, j] : waiting) {
    out[i] = jobs[j].result;
    recs[i].cached = jobs[j].cached;
    programs().add(program_key(recs[i]), jobs[j].result);
  }
  return out;
}

std::vector<Launch>*& capture() {
  static std::vector<Launch>* into = nullptr;
  return into;
}

void record(RunRecord r) {
  records().add(r);
  last().runs.push_back(std::move(r));
  if (listener()) listener()(last().runs.back());
}

// What running one item of a schedule leaves to record: the run, and its launch while a @jit captures.
// Recorded by the thread that realizes, in the order the items end, whichever queue ran them.
struct Ran {
  RunRecord run;
  std::optional<Launch> launch;
};

void finish(Ran ran) {
  if (capture() && ran.launch) capture()->push_back(std::move(*ran.launch));
  record(std::move(ran.run));
}

// The value of each of k's Variables (its scalar arguments, in order) as the item binds them.
std::vector<int32_t> var_values(const Kernel& k, const ScheduleItem& item) {
  std::vector<int32_t> out;
  for (const ExprRef& v : k.vars) {
    const std::optional<int64_t> value = value_of(item.vars, v->name);
    if (!value) fail("value", "kernel {} has no value for its Variable {}", k.base_name(), v->name);
    out.push_back(static_cast<int32_t>(*value));
  }
  return out;
}

KernelRecord lowered(const Kernel& k, Device& dev, const ScheduleItem* item, std::vector<std::pair<DType, int64_t>> bufs) {
  KernelRecord rec;
  rec.device = dev.name();
  rec.kernel = std::make_shared<const Kernel>(k);
  rec.name = unique_name(k.base_name(), k.ast);
  LoweredKernel l = lower_kernel(k, dev.target(), [&](const UOpProgram& p) { return dev.render(p); }, rec.name);
  l.program.bytes = bytes_touched(k.ast, bufs);
  rec.source = std::make_shared<const std::string>(std::move(l.source));
  rec.program = std::make_shared<const UOpProgram>(std::move(l.program));
  rec.buffers = std::make_shared<const std::vector<std::pair<DType, int64_t>>>(std::move(bufs));
  rec.reason = std::make_shared<const std::string>(item ? item->reason : "");
  if (item) {
    rec.ast = item->ast;
    rec.vars = var_values(k, *item);
  }
  return rec;
}

std::vector<std::pair<DType, int64_t>> buffer_sizes(const ScheduleItem& item) {
  std::vector<std::pair<DType, int64_t>> out;
  for (const LazyRef& n : item.outputs) {
    const BufferRef written = buffer_of(*n);  // an assign's: its target's whole buffer
    out.emplace_back(n->dtype, written ? written->size : prod(n->shape));
  }
  for (const LazyRef& n : item.inputs) out.emplace_back(n->dtype, n->buffer ? n->buffer->size : prod(n->shape));
  return out;
}

Ran run_copy(const ScheduleItem& item) {
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
  if (!capture()) return {std::move(r), std::nullopt};
  std::vector<BufferRef> bufs{buf};
  if (!item.inputs.empty()) bufs.push_back(item.inputs[0]->buffer);
  const auto* host = std::get_if<std::shared_ptr<const HostData>>(&n->arg);
  Launch launch{r, nullptr, std::move(bufs), item.inputs.empty() ? *host : nullptr, n->shape, node_sym(*n)};
  return {std::move(r), std::move(launch)};
}

// kernel `at` of the schedule's `total`, for the progress line
Ran run_kernel(const ScheduleItem& item, KernelRecord lowered, const std::shared_ptr<Program>& program, int at, int total) {
  const LazyRef& out = item.outputs[0];
  Device& dev = device(out->device);
  RunRecord r{.is_copy = false, .kernel = std::move(lowered), .start_us = now_us()};
  const bool in_place = out->op == Op::Assign;
  const BufferRef buf = in_place ? buffer_of(*out) : dev.alloc(out->dtype, prod(out->shape));
  std::vector<const Buffer*> bufs{buf.get()};
  for (const LazyRef& in : item.inputs) {
    // every tensor op checks this; a kernel handed another device's memory would crash in its driver
    if (in->buffer->device != dev.name())
      fail("device", "kernel {} on {} reads a buffer on {}; move it with .to()", r.kernel.name, dev.name(), in->buffer->device);
    bufs.push_back(in->buffer.get());
  }
  report_progress(Phase::Run, at, total, r.kernel.name);
  r.kernel.seconds = program->run(bufs, r.kernel.program->dims, r.kernel.vars);
  // again on the same buffers: a kernel's output is never one of its inputs, so each run computes the same;
  // an assign's may be (p - lr * g reads p), so it runs once
  for (int i = 0; i < (in_place ? 0 : settings().repeat); i++) {
    check_interrupt();
    r.kernel.repeats.push_back(program->run(bufs, r.kernel.program->dims, r.kernel.vars));
  }
  out->buffer = buf;
  std::optional<Launch> launch;
  if (capture()) {
    std::vector<BufferRef> held{buf};
    for (const LazyRef& in : item.inputs) held.push_back(in->buffer);
    launch = Launch{r, program, std::move(held), nullptr, out->shape, node_sym(*out)};
  }
  if (in_place) {
    // the tensor now reads its buffer, as a leaf: what made its value (a whole training step) is let go
    out->srcs.clear();
    out->depth = 0;
  }
  return {std::move(r), std::move(launch)};
}

// Each item's queue (its output's device: a copy's is where it copies to) and the earlier items it
// waits for: those that make its inputs; an assign, which writes a buffer in place that earlier items
// may still read, waits for every earlier item: for the last one of each queue, which runs in order.
std::vector<QueuedItem> queued(const std::vector<ScheduleItem>& schedule) {
  std::map<const LazyNode*, size_t> made_by;
  std::map<std::string, size_t> last_of;
  std::vector<QueuedItem> out;
  for (size_t i = 0; i < schedule.size(); i++) {
    const ScheduleItem& item = schedule[i];
    QueuedItem q{.device = item.outputs[0]->device, .after = {}};
    if (item.outputs[0]->op == Op::Assign) {
      for (const auto& [device, last] : last_of) q.after.push_back(last);
    } else {
      for (const LazyRef& in : item.inputs)
        if (const auto it = made_by.find(in.get()); it != made_by.end()) q.after.push_back(it->second);
    }
    for (const LazyRef& o : item.outputs) made_by.emplace(o.get(), i);
    last_of[q.device] = i;
    out.push_back(std::move(q));
  }
  return out;
}

// Nodes without elements get no schedule item; each that an output or a kernel needs gets an empty
// buffer here, so that nothing runs for it.
void give_empty_buffers(const std::vector<LazyRef>& outs, const std::vector<ScheduleItem>& schedule) {
  const auto give = [](const LazyRef& n) {
    if (!n->buffer && prod(n->shape) == 0) n->buffer = device(n->device).alloc(n->dtype, 0);
  };
  for (const LazyRef& o : outs) give(o);
  for (const ScheduleItem& item : schedule)
    for (const LazyRef& in : item.inputs) give(in);
}

// Kernels index with 32-bit ints: a buffer of 2^31 elements or more, a loop or launch dim that long, or
// a view index that far would overflow them, so such a schedule is refused before anything is allocated
// or run. The product of the dims is no index (a 4096^3 matmul walks 2^36 points with 2^24-element
// buffers), so it is not checked.
void check_index_width(const std::vector<ScheduleItem>& schedule) {
  constexpr int64_t kMaxIndexed = (int64_t{1} << 31) - 1;
  const auto refuse = [](int64_t n, const Shape& shape) {
    fail("memory", "a kernel over {} elements (shape {}) needs 64-bit indices, which kernels do not have: tensors "
         "and kernels of 2^31 elements or more are refused", n, shape_str(shape));
  };
  for (const ScheduleItem& item : schedule) {
    for (const LazyRef& n : item.outputs)
      if (checked_numel(n->shape) > kMaxIndexed) refuse(checked_numel(n->shape), n->shape);
    if (item.kind == ScheduleItem::Kind::Copy) continue;
    for (const LazyRef& n : item.inputs)
      if (checked_numel(n->shape) > kMaxIndexed) refuse(checked_numel(n->shape), n->shape);
    const Shape full = Kernel::from_ast(item.ast).full_shape;
    for (const int64_t d : full)
      if (d > kMaxIndexed) refuse(checked_numel(full), full);
    walk(item.ast, [&](const AstNode& n) {
      if (n.st && largest_index(*n.st) > kMaxIndexed)
        fail("memory", "a kernel reads index {} of a view ({}), past what 32-bit indices reach: tensors of 2^31 "
             "elements or more are refused", largest_index(*n.st), n.st->str());
    });
  }
}

}  // namespace

int64_t programs_built() { return built(); }

double now_us() {
  static const auto start = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

std::vector<Launch>* capture_launches(std::vector<Launch>* into) { return std::exchange(capture(), into); }

void record_runs(std::vector<RunRecord> runs) {
  begin_realization({}, 0);
  last().runs.reserve(runs.size());
  for (RunRecord& r : runs) record(std::move(r));
}

namespace {

std::function<std::vector<RunRecord>()>& deferred() {
  static std::function<std::vector<RunRecord>()> runs;
  return runs;
}

}  // namespace

void defer_runs(std::function<std::vector<RunRecord>()> finish) {
  settle_runs();
  deferred() = std::move(finish);
}

void settle_runs() {
  // taken first: recording calls the listener, which may read the history
  const std::function<std::vector<RunRecord>()> finish = std::exchange(deferred(), nullptr);
  if (finish) record_runs(finish());
}

void set_run_listener(std::function<void(const RunRecord&)> l) { listener() = std::move(l); }
const RunHistory& history() {
  settle_runs();
  return records();
}
const Realization& last_realization() {
  settle_runs();
  return last();
}
void clear_history() {
  settle_runs();
  records().clear();
  last() = {};
}

void read_back(void* dst, const Buffer& buf) {
  settle_runs();
  RunRecord r{.is_copy = true, .start_us = now_us()};
  const auto t0 = std::chrono::steady_clock::now();
  device(buf.device).copyout(dst, buf);
  r.copy = CopyRecord{.bytes = buf.nbytes(),
                      .from = buf.device,
                      .to = "HOST",
                      .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  records().add(r);
  if (listener()) listener()(r);
}

KernelRecord lower(const ScheduleItem& item, const std::string& device_name) {
  Device& dev = device(device_name);
  const Kernel k = Kernel::from_ast(item.ast);
  const auto bufs = buffer_sizes(item);
  Kernel opted = k;
  if (settings().beam > 0) opted = beam_search(k, dev, bufs, var_values(k, item), settings().beam);
  else if (!settings().noopt) opted = default_opts(k, dev.target());
  return lowered(opted, dev, &item, bufs);
}

std::vector<PassSnapshot> lowering_passes(const KernelRecord& rec) {
  // The TUI's UOps pane asks again at every redraw: the last few kernels' passes are kept, keyed by
  // what decides them (the interned AST, the opts, the device).
  struct Lowered {
    AstRef ast;
    std::vector<Opt> opts;
    std::string device;
    std::vector<PassSnapshot> passes;
  };
  constexpr size_t kKept = 8;
  static std::mutex mutex;
  static std::deque<Lowered> kept;
  const std::lock_guard lock(mutex);
  for (const Lowered& l : kept)
    if (l.ast == rec.kernel->ast && l.opts == rec.kernel->opts && l.device == rec.device) return l.passes;
  if (kept.size() == kKept) kept.pop_front();
  kept.push_back({rec.kernel->ast, rec.kernel->opts, rec.device,
                  codegen(*rec.kernel, device(rec.device).target(), rec.name, true).passes});
  return kept.back().passes;
}

std::vector<double> time_again(const KernelRecord& k, int n, const std::function<void()>& before_each) {
  settle_runs();
  Device& dev = device(k.device);
  std::vector<KernelRecord> one{k};
  const std::shared_ptr<Program> program = compiled(one)[0];
  const std::vector<BufferRef> owned = zeroed_buffers(dev, *k.buffers);
  const std::vector<const Buffer*> bufs = pointers(owned);
  const ProgressScope progress;
  std::vector<double> out;
  for (int i = 0; i < n; i++) {
    check_interrupt();
    report_progress(Phase::Run, i, n, k.name);
    if (before_each) before_each();
    out.push_back(program->run(bufs, k.program->dims, k.vars));
  }
  return out;
}

KernelRecord run_with_opts(const KernelRecord& base, const std::vector<Opt>& opts) {
  settle_runs();
  Device& dev = device(base.device);
  Kernel k = Kernel::from_ast(base.ast);
  for (const Opt& o : opts) k = apply_opt(k, o, dev.target());
  KernelRecord rec = lowered(k, dev, nullptr, *base.buffers);
  rec.ast = base.ast;
  rec.reason = base.reason;
  rec.vars = base.vars;
  rec.seconds = time_program(dev, *rec.program, *rec.source, *rec.buffers, rec.vars, rec.cached);
  return rec;
}

Realization realize(const std::vector<LazyRef>& outs) {
  settle_runs();
  const double t0 = now_us();
  std::vector<ScheduleItem> schedule = create_schedule(outs);
  // every buffer is checked before the first is allocated: a huge tensor fails with nothing done
  for (const ScheduleItem& item : schedule)
    for (const LazyRef& n : item.outputs) check_alloc(checked_numel(n->shape), n->dtype);
  check_index_width(schedule);
  give_empty_buffers(outs, schedule);
  begin_realization(schedule, (now_us() - t0) / 1000.0);
  const ProgressScope progress;
  const int kernels = static_cast<int>(std::count_if(schedule.begin(), schedule.end(), [](const ScheduleItem& i) {
    return i.kind != ScheduleItem::Kind::Copy;
  }));
  // every kernel is lowered and compiled before the first runs, so that the compiles go in parallel
  std::vector<KernelRecord> lowered(schedule.size());
  for (size_t i = 0; i < schedule.size(); i++)
    if (schedule[i].kind != ScheduleItem::Kind::Copy) lowered[i] = lower(schedule[i], schedule[i].outputs[0]->device);
  const std::vector<std::shared_ptr<Program>> ready = compiled(lowered);
  std::atomic<int> started{0};
  std::vector<Ran> ran(schedule.size());
  const auto run = [&](size_t i) {
    check_interrupt();
    ran[i] = schedule[i].kind == ScheduleItem::Kind::Copy ? run_copy(schedule[i])
                                                           : run_kernel(schedule[i], std::move(lowered[i]), ready[i], started++, kernels);
  };
  const auto ended = [&](size_t i) {
    ran[i].run.item = static_cast<int>(i);
    finish(std::move(ran[i]));
  };
  // the queues' bookkeeping only where a schedule spans devices: one device's runs here, in order
  const bool one_device = std::all_of(schedule.begin(), schedule.end(), [&](const ScheduleItem& item) {
    return item.outputs[0]->device == schedule[0].outputs[0]->device;
  });
  if (one_device) {
    for (size_t i = 0; i < schedule.size(); i++) {
      run(i);
      ended(i);
    }
  } else {
    const std::vector<QueuedItem> items = queued(schedule);
    for (const QueuedItem& q : items) device(q.device);  // opened here, before the queues' threads ask
    run_queued(items, run, ended);
  }
  return last();
}

}  // namespace tr
