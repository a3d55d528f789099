#include "repl/help_notes.h"

#include <fmt/format.h>

#include "core/base/paragraph.h"

#include "repl/help_table.h"

namespace tr::repl {
namespace {

constexpr std::string_view kLog = "the DEBUG=5 NOOPT=1 log (seed 001)";
constexpr std::string_view kAst = "the kernel's AST, the LazyOp form (seeds 001, 003)";
constexpr std::string_view kUops = "the UOps listing (seeds 001, 003)";
constexpr std::string_view kSource = "the rendered source (seeds 001, 003)";
constexpr std::string_view kSchedule = "fusion and the schedule (seed 003)";
constexpr std::string_view kRuntime = "the JIT, queues, devices and hardware (seed 003)";

// Each term as the notes write it; the order is the notes' order within each section.
const std::vector<NoteTerm> kTerms{
    {kLog, "DEBUG=5 NOOPT=1 python3 script.py", "DEBUG NOOPT", "DEBUG=5 NOOPT=1 tinyrepl script.tg",
     "The same environment variables work, as do --debug 5 --noopt on the command line and :debug 5, :noopt on in "
     "a session. NOOPT turns every opt off, so the kernel is the plain loop nest the notes show."},
    {kLog, "opened device METAL from pid:N", "opened", "opened device CPU from pid:N",
     "Printed the first time a device runs something (DEBUG 1 and up). The session's device is CPU unless "
     "--device, DEV= or :device names another; :device lists them with whether each opens here."},
    {kLog, "NPY (METAL <- NPY)", "NPY", "HOST (CPU <- HOST)",
     "Where the data of tensor([1, 2]) comes from: the process's memory. tinyrepl calls it HOST, tinygrad 0.14 "
     "calls it PYTHON; a copy from it is `*** CPU 1 copy 8, CPU <- HOST` at DEBUG 2."},
    {kLog, "EXT (METAL <- EXT)", "EXT", "HOST",
     "The notes' other name for memory outside every device (seed 003's copy line); here too it is HOST."},
    {kLog, "CLANG (CLANG <- METAL)", "CLANG", "CPU, and HOST for reading back",
     "The notes' C-compiled-by-clang device. Here the device that compiles C with the system compiler is CPU "
     "(its source is the `c` backend: :src K c), as in tinygrad 0.14, which renamed CLANG to CPU. Reading a result "
     "back for print is a copy to HOST: `*** HOST 4 copy 4, HOST <- CPU`."},
    {kLog, "METAL", "METAL", "METAL (a backend here; it runs on macOS only)",
     "The notes ran on a Mac. Every renderer works on every machine: :src K metal (or --render metal) shows the "
     "kernel in Metal, lowered with a GPU's default opts, while the kernel itself runs on the session's device."},
    {kLog, "*** METAL 3 r_2 ... mem 0.00 GB tm 5.62us/0.06ms (0.00 GFLOPS 0.0|0.0 GB/s)", "***",
     "the same line, at DEBUG 2",
     "Device, the number of the kernel or copy in the run, its name, `arg N` (its buffers, as tinygrad 0.14 "
     "prints), memory in use, this item's time / the total so far, GFLOPS and GB/s. :time shows the same figures "
     "as a table."},
    {kLog, "['dot'] (after a kernel's time)", "metadata", "not printed",
     "tinygrad names the Python functions that made a kernel at the end of its line; tinyrepl does not. :explain x "
     "lists the lazy ops each kernel fuses instead."},
    {kLog, "avg: ... GFLOPS ... GB/s   total: 4 kernels ...", "avg total", "the same line, at the end of a script",
     "At DEBUG 2, counting copies with the kernels as tinygrad counts them."},
    {kAst, "LazyOp(MetaOps.KERNEL, arg=None, src=(...))", "LazyOp LazyOperation MetaOps.KERNEL KERNEL",
     "the kernel's AST tree (:ast K, DEBUG 3); this form: :ast K lazyop",
     ":ast K draws the same tree one node a row, `0 ━┳ STORE MemBuffer(...)`, each row's children under it, rooted "
     "at the STORE; :ast K lazyop prints it in this LazyOp(...) form, under a MetaOps.KERNEL (tinygrad 0.14 roots "
     "its AST at a SINK over the STOREs)."},
    {kAst, "BufferOps.STORE, BufferOps.LOAD, BufferOps.CONST", "BufferOps STORE LOAD CONST",
     "STORE, LOAD, CONST ConstBuffer(...)",
     "The op's name alone: the AST rows drop the BufferOps., ReduceOps., BinaryOps. and UnaryOps. prefixes."},
    {kAst, "ReduceOps.SUM, ReduceOps.MAX", "ReduceOps SUM", "SUM (0,), MAX (1,)",
     "A reduce row with the axes it reduces, as the notes' arg=(0,)."},
    {kAst, "BinaryOps.MUL, BinaryOps.ADD, UnaryOps.EXP2", "BinaryOps UnaryOps MUL ADD", "MUL, ADD, EXP2",
     "Element-wise ops by their names, in the AST and as the argument of an ALU UOp."},
    {kAst, "MemBuffer(idx=0, dtype=dtypes.int, st=ShapeTracker(views=(View(...),)))", "MemBuffer",
     "MemBuffer(idx=0, dtype=int, st=(1,):(0,))",
     "The buffer's index among the kernel's arguments (0 is the output), its dtype, and its ShapeTracker written "
     "shape:strides, with +offset and mask(...) where a view has them, and [view, view] for several views."},
    {kAst, "ShapeTracker(views=(View(shape, strides, offset, mask, contiguous),))", "ShapeTracker View views",
     "(shape):(strides)+offset mask(...)",
     "DEBUG 3 and :ast K list each buffer's views under `ShapeTracker views:`. contiguous is not printed: a view "
     "is contiguous when its strides are the row-major ones and it has no offset or mask. scripts/examples/"
     "05_shapetracker_views.tg walks through them."},
    {kAst, "dtypes.int", "dtypes.int", "int (AST, UOps, source); int32 in the language",
     "The AST and UOps use the C names (int, float, half, uchar); a program writes int32, dtypes.int32 or tinygrad's "
     "dtypes.int. :help dtypes lists them."},
    {kAst, "KernelInfo(local_dims=0, upcasted=0, dont_use_locals=False)", "KernelInfo",
     "the dims with their roles, and `opts: ...` (:opts K, DEBUG 3)",
     "What the notes' KernelInfo counts is shown as a list of the kernel's dims, each with its role (global, "
     "local, reduce, upcast, unroll, group, thread) and size, and the opts applied."},
    {kAst, "[] (the opts after the KernelInfo AST)", "applied_opts", "opts: none",
     "The opts applied to the kernel: none under NOOPT. :opt K OP AXIS AMOUNT applies one by hand."},
    {kAst, "r_2, r_4, r_4n1", "r_2 r_4n1 kernel_name", "the same names",
     "r_ for a kernel with a reduce, E_ for an element-wise one, then the sizes of its dims after the opts, and n1, "
     "n2 when another kernel already has the name."},
    {kUops, "step  Op_name  type  input  arg", "Op_name vin input",
     "number, op, : dtype, sources, argument (:uops K, DEBUG 5)",
     "The same five columns. The notes' vin (and input) are the sources: the numbers of the UOps a row reads."},
    {kUops, "UOps.DEFINE_GLOBAL, UOps.CONST, UOps.LOAD, UOps.STORE, UOps.ALU", "UOps UOps.X DEFINE_GLOBAL ALU",
     "DEFINE_GLOBAL, CONST, LOAD, STORE, ALU",
     "Every UOps.X is X: the listing drops the UOps. prefix. DEFINE_GLOBAL's argument is (index, 'data0', "
     "whether the kernel writes it); LOAD's sources are [buffer, index], STORE's [buffer, index, value]."},
    {kUops, "PtrDType(dtypes.int), ptr.dtypes.int", "PtrDType ptr.dtypes.int", "ptr.int",
     "A pointer to the dtype: the type of a DEFINE_GLOBAL (and a DEFINE_LOCAL)."},
    {kUops, "UOps.DEFINE_ACC", "UOps.DEFINE_ACC DEFINE_ACC", "DEFINE_ACC",
     "The accumulator of a reduce, with the value it starts from as its argument (0 for a sum); it is defined "
     "before the loop, so it has no sources here."},
    {kUops, "UOps.RANGE, UOps.LOOP", "UOps.RANGE UOps.LOOP RANGE LOOP", "RANGE",
     "A loop: its sources are the first value and the end, its argument the loop variable's name (ridx0 for a "
     "reduce dim, gidx0 for an output dim the CPU loops over). The notes' older LOOP is the same UOp."},
    {kUops, "UOps.ENDRANGE, UOps.ENDLOOP", "UOps.ENDRANGE UOps.ENDLOOP ENDRANGE ENDLOOP", "ENDRANGE",
     "The end of the loop that its one source opened."},
    {kUops, "UOps.PHI", "UOps.PHI PHI", "ASSIGN",
     "The accumulator's new value at the end of each turn of the loop: ASSIGN [acc, value] writes acc0 = acc0 + "
     "... in the source. Where the notes' STORE reads the PHI, tinyrepl's STORE after ENDRANGE reads the "
     "DEFINE_ACC itself, which holds the sum once the loop is done."},
    {kUops, "UOps.SPECIAL", "UOps.SPECIAL SPECIAL", "SPECIAL",
     "A launch index: gidx0 (a workgroup's or a thread's id), lidx0 (a thread's id in its workgroup) in a GPU "
     "backend's kernel, core_id for the CPU core that runs a THREAD dim."},
    {kSource, "gid, lid (uint3 gid [[threadgroup_position_in_grid]])", "gid lid", "gid, lid in :src K metal",
     "Metal's launch ids, read as gidx0 = gid.x and lidx0 = lid.x. OpenCL spells them get_group_id and "
     "get_local_id, CUDA blockIdx and threadIdx; the CPU's C source has none, since it loops over its output dims. "
     "The notes' r_2 declares gid and lid without reading them; tinyrepl's Metal kernel declares them only when "
     "it uses them."},
    {kSource, "data0, data1, acc0, ridx0, val0, alu0", "data0 acc0 ridx0 val0 alu0", "the same names",
     "data for the buffers (data0 is the output), acc for accumulators, ridx for reduce loops, val for loaded "
     "values, alu for computed ones, in every backend's source."},
    {kSchedule, "ScheduleItem", "ScheduleItem", "a row of :kernels",
     "A kernel or a copy of the schedule with its buffers and the reason it ends where it does; :kernels x lists "
     "them before anything runs, and :explain x tells which lazy ops each kernel fuses."},
    {kSchedule, "LazyBuffer, MultiLazyBuffer", "LazyBuffer MultiLazyBuffer", "a node of the lazy graph (#id OP)",
     ":graph x and :explain x draw the lazy graph, a node a row: #id, the op, dtype and shape. A tensor split "
     "over devices (x.shard(devices, axis)) is a MULTI node."},
    {kSchedule, "two kernels for var (r_4 the mean, r_4n1 the variance)", "var r_4n1 kernel_fusion",
     "one kernel, r_4, that walks the row twice",
     "The notes explain why var must be two kernels: the mean is expanded back over the row. tinyrepl keeps both "
     "reduces in one kernel, because both walk the same row; :explain x.var() says what tinygrad does there and "
     "how to get the notes' two kernels: m = x.mean().contiguous() runs the notes' first kernel exactly. "
     "scripts/examples/19_var_the_notes_way.tg shows both."},
    {kSchedule, "Linearizer", "Linearizer", "the lowering passes (:uops K all)",
     "The kernel becomes UOps through a list of named passes, one file each in core/codegen; :uops K all (DEBUG 6) "
     "prints the UOps after each."},
    {kSchedule, "expr_idxs(), _merge_dims", "expr_idxs _merge_dims",
     "the index ALUs before each LOAD; merged dims in the views",
     "A view's index expression is the ALU rows that compute a LOAD's or STORE's index in :uops K. Dims merge "
     "where their strides allow ((2,4):(4,1) is (8,):(1,)); scripts/examples/06_merging_dims.tg shows it."},
    {kRuntime, "TinyJit, @TinyJit", "TinyJit", "@jit (@TinyJit too)",
     "The first call runs, the second captures its kernels, later calls replay them. :jit lists each function's "
     "captured kernels and copies and its replays; a replayed line at DEBUG 2 ends with (jit)."},
    {kRuntime, "CacheCollector, jit_cache, JITRunner, CompiledASTRunner, BufferCopy",
     "CacheCollector jit_cache JITRunner CompiledASTRunner BufferCopy", "the kernels and copies :jit lists",
     "What a capture keeps: each kernel with its compiled program and buffers, and each copy."},
    {kRuntime, "Tensor.corealize", "corealize", "realize(a, b)",
     "Realizes several tensors in one schedule, so that what they share runs once."},
    {kRuntime, "GRAPH, JITGRAPH", "GRAPH JITGRAPH", ":graph x [FILE.dot], :trace FILE.json",
     "The lazy graph as Graphviz DOT, and the run as a Chrome/Perfetto trace."},
    {kRuntime, "CommandQueue, SyncItem, WaitItem, CopyItem, synchronize", "CommandQueue SyncItem WaitItem CopyItem synchronize",
     "a queue per device (:trace FILE.json shows them)",
     "The items of a schedule run in order on a queue of their device's, each starting once the items that made "
     "its inputs are done (the notes' WAIT and SYNC); DEBUG 2 prints no synchronize rows."},
    {kRuntime, "shard_, METAL:0, METAL:1", "shard_ shard", "x.shard(devices, axis), CPU and CPU:1",
     "shard returns the split tensor (tinyrepl has no in-place shard_); scripts/examples/18_sharding.tg splits "
     "over CPU and CPU:1."},
    {kRuntime, "Compiled, Allocator, Compiler, Program, Renderer, MyMetalDevice", "Compiled Allocator Compiler Program Renderer",
     "a device: devices/*.cpp, or a plug-in loaded with :device load PATH",
     "A device allocates and copies, compiles source to a binary and runs it; a renderer turns UOps into source "
     "(core/render). A plug-in is a shared library with the C interface of devices/tinyrepl_device.h."},
    {kRuntime, "WMMA, mma.sync, tensor core", "WMMA mma.sync tensor_core", "the TC opt; WMMA in the UOps",
     "A half matmul uses the matrix units through the TC opt (:help TC): a WMMA UOp, rendered as mma.sync in "
     "inline PTX for CUDA and simdgroup_matrix for Metal."},
    {kRuntime, "upcasting, loop unrolling, tiling, shared memory", "upcasting unrolling tiling shared_memory",
     "UPCAST, UNROLL, LOCAL, GROUP, STAGE",
     "UPCAST unrolls an output dim into registers and UNROLL a reduce dim; LOCAL and GROUP use a workgroup and its "
     "local memory (DEFINE_LOCAL, temp0), STAGE copies tiles there. :help opts lists every opt."},
    {kRuntime, "Variable", "Variable", "Variable(\"n\", lo, hi).bind(v)",
     "A symbolic size: one kernel serves every bound value, which is a kernel argument."},
    {kRuntime, "GradientTape", "GradientTape", "loss.backward()",
     "Neither tinygrad nor tinyrepl keeps a tape: backward walks the lazy graph and adds lazy nodes, which fuse "
     "like any others (scripts/examples/13_backward_fusion.tg)."},
};

// The words of keys, split at spaces.
std::vector<std::string_view> spellings(std::string_view keys) {
  std::vector<std::string_view> out;
  while (!keys.empty()) {
    const size_t space = keys.find(' ');
    out.push_back(keys.substr(0, space));
    keys = space == std::string_view::npos ? std::string_view{} : keys.substr(space + 1);
  }
  return out;
}

std::string row_text(const NoteTerm& t) {
  return fmt::format("  {}\n    -> {}\n{}", t.notes, t.tinyrepl, paragraph(t.about, "       "));
}

}  // namespace

const std::vector<NoteTerm>& note_terms() { return kTerms; }

std::vector<std::string> note_keys() {
  std::vector<std::string> out;
  for (const NoteTerm& t : kTerms)
    for (std::string_view k : spellings(t.keys)) out.emplace_back(k);
  return out;
}

std::string notes_text() {
  std::string out =
      "The notes' words (seeds 001 and 003, written for the tinygrad of 2024) and tinyrepl's.\n"
      "Each: the notes' term, -> what tinyrepl shows, and where. :help TERM shows one (:help PHI).\n";
  std::string_view section;
  for (const NoteTerm& t : kTerms) {
    if (t.section != section) out += fmt::format("\n{}:\n", section = t.section);
    out += row_text(t);
  }
  return out;
}

std::string note_text(std::string_view key) {
  std::string out;
  for (const NoteTerm& t : kTerms)
    for (std::string_view k : spellings(t.keys))
      if (k == key) {
        out += fmt::format("the notes' word, in {}:\n{}", t.section, row_text(t));
        break;
      }
  return out;
}

}  // namespace tr::repl
