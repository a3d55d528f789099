#pragma once
// Settings of a session, with tinygrad's environment variables (DEBUG, NOOPT, BEAM, DEV) as defaults.
#include <string>
#include <vector>

namespace tr {

struct Settings {
  int debug = 0;
  bool noopt = false;
  int beam = 0;
  int repeat = 0;  // every kernel runs this many more times after its first run, for min and median
  // tinygrad's JIT: 1 a @jit function captures and replays, its runs of kernels as a device graph
  // where the device has graphs; 2 replays launch by launch; 0 runs every call plainly
  int jit = 1;
  // Attention's max -> exp -> sum -> matmul chain scheduled as one kernel with a running maximum (the
  // online softmax, core/kernel/online_softmax.h). Off by default: the fused kernel takes no opts yet and
  // runs far slower than the unfused ones (README, "Attention: the online softmax").
  bool online_softmax = false;
  std::string device = "CPU";
  std::vector<std::string> render;  // backends whose source DEBUG>=4 shows; empty: the device's own
};

Settings& settings();  // process-wide, read from the environment on first use

}  // namespace tr
