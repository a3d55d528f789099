// The help table's meta commands: each one's usage, what it does and an example. repl/app/meta.cpp runs
// them by the same names.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> command_help() {
  return {
      {"meta commands",
       HelpKind::Command,
       {
           {"help", ":help [TOPIC]",
            "Commands, functions, methods, dtypes, keys, debug, json, notes; or one name. A name shows every entry "
            "it has (a command, a function, a method, a dtype, an opt, a word of the notes), each with its "
            "signature, what it does and an example; :help x.softmax looks up what the expression names. NAME?, "
            "?NAME and help(NAME) show the same.",
            ":help softmax\n:help notes"},
           {"quit", ":quit", "Leave the session (Ctrl-D too). The history is saved to ~/.tinyrepl_history.",
            "print('before')\n:quit\nprint('never')"},
           {"vars", ":vars", "The names bound in the session, with type, shape, dtype, device and whether realized.",
            "x = arange(3)\ny = 2\n:vars"},
           {"device", ":device [NAME[:N] | load PATH]",
            "List the devices, set the default one, or load a device plug-in. Without an argument it lists each "
            "device, whether it opens here (and why not) and what its target has (cores, vector width, caches); "
            "CPU:1 names a second CPU.",
            ":device\n:device CPU"},
           {"render", ":render [LIST|none]",
            "The backends whose source :src, :step and DEBUG 4 show; none: the device's own. LIST is "
            "comma-separated (c,opencl,metal,cuda); any backend renders any kernel, whatever the device.",
            ":render c,metal\n:render none"},
           {"debug", ":debug [N]",
            "The DEBUG level, 0..6, as DEBUG=N. Without N it shows the level; :help debug lists what each adds.",
            ":debug 2\nprint(arange(4).sum())\n:debug 0"},
           {"noopt", ":noopt [on|off]",
            "on: no kernel optimisations (NOOPT=1, the notes' setting); off: the default heuristic.",
            ":noopt on\nprint(arange(4).sum())\n:opts\n:noopt off"},
           {"online_softmax", ":online_softmax [on|off]",
            "on: attention's max -> exp -> sum -> matmul chain is one kernel with a running maximum (the online "
            "softmax, --online-softmax, ONLINE_SOFTMAX=1); off (the default): the unfused kernels tinygrad makes, "
            "faster for now.",
            ":online_softmax on\ns = rand(4, 8)\nv = rand(8, 2)\nprint(kernels(s.softmax() @ v))\n:online_softmax off"},
           {"beam", ":beam [N]",
            "Search kernel optimisations with a beam of N (BEAM=N); 0: the default heuristic. Each step keeps "
            "the N fastest candidates, and the choice is kept in the disk cache.",
            ":beam 2\nprint((arange(16) + 1).sum())\n:beam 0"},
           {"kernels", ":kernels [x]",
            "The last schedule, or x's: each kernel and copy, its buffers, and why it ends there. x's schedule is "
            "planned, not run.",
            "a = tensor([1., 2.])\nprint((a * 2).sum())\n:kernels\n:kernels a.softmax()"},
           {"ast", ":ast [K] [lazyop]",
            "The AST of kernel K (default: the last kernel), with its ShapeTracker views. It is DEBUG 3's tree: the "
            "notes' LazyOp form, a node a row. With lazyop, the tree as the notes print it: LazyOp(MetaOps.KERNEL, "
            "arg=None, src=(...)).",
            "print(tensor([1, 2]).dot(tensor([3, 4])))\n:ast\n:ast lazyop"},
           {"uops", ":uops [K] [all]",
            "The UOps of kernel K and its launch dims. With all, the UOps after each lowering pass, as DEBUG 6.",
            "print(arange(4).sum())\n:uops 0"},
           {"src", ":src [K] [BACKEND] [uops]",
            "Kernel K's source for BACKEND (default: the :render list or the device's). A GPU language shows the "
            "kernel lowered again for that backend's device with its default opts, and says so. With uops, each line "
            "behind a margin of the UOps it spells (their numbers in :uops K, or in the listing that follows for a "
            "kernel lowered again).",
            "print(arange(4).sum())\n:src 0 c\n:src 0 cuda\n:src 0 c uops"},
           {"asm", ":asm [K] [BACKEND]",
            "Kernel K's machine code as compiled (default: for the backend of the device it ran on), disassembled: "
            "objdump of the CPU's and LLVM's shared objects, SASS of CUDA's and PTX's cubins through nvdisasm or "
            "cuobjdump where the CUDA toolkit has them. Each run of instructions is under the source line that made "
            "it, where the compiler's line table says. A backend with no machine code to read says why.",
            "print(arange(4).sum())\n:asm\n:asm 0 llvm\n:asm 0 cuda"},
           {"repeat", ":repeat [N]",
            "Run every kernel N more times after its first run, for :time's min and median. 0 turns it off.",
            ":repeat 3\nprint(arange(64).sum())\n:time\n:repeat 0"},
           {"time", ":time [all | K [N]]",
            "Time, GFLOPS and GB/s of each kernel and copy of the last realize (all: the session). With K N, kernel "
            "K runs N more times (default 10) on zeroed buffers, for its min and median.",
            "print(arange(64).sum())\n:time\n:time 0 5"},
           {"explain", ":explain x",
            "The fusion story of x: its graph, what fuses into each kernel, and why each ends there. Where tinyrepl fuses what tinygrad and the notes split (var, softmax), it says what they do, "
            "why tinyrepl differs, and how to see their version.",
            "a = tensor([1., 2., 3., 4.])\n:explain a.var()"},
           {"step", ":step x",
            "Walk through x's stages: graph, schedule, each kernel's AST, opts, UOps and source, then the run. "
            "On a terminal Enter shows the next stage and q stops; a script gets them all.",
            ":step arange(4) + 1"},
           {"opt", ":opt K OP AXIS AMOUNT",
            "Apply an opt (:help opts) to kernel K's dim AXIS by hand. It comes after the opts the kernel has, and "
            "the new UOps, source and time show against the old; :opt K none clears every opt.",
            "print(arange(64).float().sum())\n:opt 0 none\n:opt 0 UNROLL 0 4"},
           {"opts", ":opts [K]", "The opts applied to kernel K, and its dims with their roles (what AXIS counts).",
            "print(arange(64).float().sum())\n:opts 0"},
           {"diff", ":diff [K] [A [B]]",
            "Two versions of kernel K's source as a unified diff, each headed by its opts, backend and time: with no "
            "version, the one the last :opt replaced against now; with one, now against A; with two, A against B. A "
            "version is now, ran, before, default, noopt, beam or beam=N (lowered again, compiled and timed on the "
            "kernel's device), or a backend's name (the same kernel rendered for it).",
            "print(arange(64).float().reshape(8, 8).sum(1))\n:opt 0 UPCAST 0 4\n:diff 0"},
           {"history", ":history [N]",
            "The statements whose schedules are kept (the last 100), each with its kernels, copies and time. N (or -1 "
            "for the newest, -2 the one before) selects the schedule that :kernels, :ast, :uops, :src, :time, :opt "
            "and :diff look at, until the next statement runs kernels.",
            "c = (rand(8, 8) @ rand(8, 8)).realize()\nprint(c[0, :4])\n:history\n:history -2\n:kernels"},
           {"jit", ":jit",
            "The @jit functions: their calls, what each captured, and how often it replayed.",
            "@jit\ndef f(a):\n  return (a + 1).sum()\nfor i in range(3):\n  print(f(arange(4)))\n:jit"},
           {"graph", ":graph x [FILE.dot]", "x's lazy graph as Graphviz DOT, shown or written to FILE.dot.",
            ":graph arange(4) * 2"},
           {"trace", ":trace FILE.json",
            "Write the session's kernels and copies as a Chrome/Perfetto trace. Open it in ui.perfetto.dev.",
            "print(arange(4).sum())\n:trace session_trace.json"},
           {"roofline", ":roofline [FILE.svg | measure]",
            "Each kernel of the selected schedule (the last statement's, or :history N's) on its device's roofline: "
            "its arithmetic intensity (FLOPs per byte), "
            "GFLOPS and GB/s, the roof at that intensity, the percentage of its bound and what bounds it (memory, "
            "compute, or launch). The device's peaks come first with where each comes from: memory bandwidth, "
            "compute per dtype and launch time are measured once per machine by short built-in kernels and kept "
            "in the cache; tensor cores are the data sheet's. FILE.svg writes the picture; measure measures the "
            "peaks again.",
            "x = (arange(1 << 16).float() * 2).realize()\n:roofline"},
           {"run", ":run FILE.tg", "Run a script in this session. Its names stay, and its errors name its own file.",
            "x = 1\n:save session.tg\n:run session.tg"},
           {"save", ":save FILE.tg",
            "Write the session's successful statements to a script. The settings commands go too, so that :run "
            "or tinyrepl FILE.tg replays it.",
            "x = arange(3)\n:save session.tg"},
           {"reset", ":reset", "Forget every name.", "x = 1\n:reset\n:vars"},
       }},
  };
}

}  // namespace tr::repl
