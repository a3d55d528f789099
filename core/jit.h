#pragma once
// TinyJit: a jitted function runs plainly on its first call, captures the kernels and copies that its
// second call runs, and from the third call on replays them on the new inputs: no scheduling,
// lowering or compiling, the launches back to back (jit_batch.h).
//
// The buffers a capture touched are told apart by what they were: an input's (the new input's at a
// replay), a live tensor's from before the call (that tensor's buffer at a replay, so that a weight
// that assign() replaced is read as it is now), one made in the call and still seen after it (the
// returned tensors, and tensors assign() replaced: a new buffer at every replay), or one made and
// dropped in the call (scratch, reused by every replay).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/realize.h"
#include "core/tensor.h"

namespace tr {

// What a replay needs to see again in each input: tinygrad compares the same.
struct JitInputInfo {
  ShapeTracker st;  // the input's view of its buffer
  DType dtype;
  std::string device;
  bool operator==(const JitInputInfo&) const = default;
};
std::string jit_input_str(const JitInputInfo& info);  // "float32 (2, 3):(3,1) on CPU"

class CapturedJit;

// One @jit function: its calls so far and, from the second on, what it captured.
class Jit {
 public:
  enum class Phase : uint8_t { Run, Capture, Replay };

  explicit Jit(std::string name);
  ~Jit();
  Jit(const Jit&) = delete;
  Jit& operator=(const Jit&) = delete;

  const std::string& name() const { return name_; }
  Phase phase() const;
  int calls() const { return calls_; }
  const CapturedJit* captured() const { return captured_.get(); }

  // Realizes the call's input tensors (in tinygrad's order) and checks them: no two share a buffer,
  // and at a replay each is as it was at the capture ("args mismatch in JIT"). `keys` name the
  // inputs (a position or a keyword) and must match the capture's too.
  std::vector<JitInputInfo> prepare(const std::vector<Tensor>& inputs, const std::vector<std::string>& keys) const;
  // Opens a capture: every kernel and copy from here to finish_capture() is recorded.
  void begin_capture();
  // Closes it; outputs are the tensors the call returned (realized here). Throws when it captured nothing.
  void finish_capture(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs,
                      std::vector<JitInputInfo> infos, std::vector<std::string> keys);
  // Closes a capture that failed: the next call captures again.
  void abandon_capture();
  // Runs the captured launches on these inputs and returns new output tensors.
  std::vector<Tensor> replay(const std::vector<Tensor>& inputs);
  // A call that ran plainly (phase Run) has ended.
  void count_call() { calls_++; }

 private:
  std::string name_;
  int calls_ = 0;
  std::unique_ptr<CapturedJit> captured_;
  std::unique_ptr<std::vector<Launch>> capturing_;
  std::vector<std::pair<const Buffer*, std::weak_ptr<TensorState>>> held_before_;
};

// A jitted function's captured work, as :jit lists it.
struct JitSummary {
  std::string name;
  int calls = 0;
  int replays = 0;
  std::vector<RunRecord> launches;  // as captured
};
// Every @jit function alive, in the order they were made.
std::vector<JitSummary> jit_summaries();
// True while some jitted function is being captured: a jitted function called then is an error.
bool jit_capturing();

}  // namespace tr
