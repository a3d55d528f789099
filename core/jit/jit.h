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

#include "core/realize/realize.h"
#include "core/tensor/tensor.h"

namespace tr {

// What a replay needs to see again in each input: tinygrad compares the same.
struct JitInputInfo {
  ShapeTracker st;  // the input's view of its buffer, its symbolic dims as their Variables (unbind)
  DType dtype;
  std::string device;
  bool operator==(const JitInputInfo&) const = default;
};
std::string jit_input_str(const JitInputInfo& info);  // "float32 (n,3):(3,1) on CPU"

// A call's inputs as a Jit sees them: each input's info, and the values of the Variables that the
// inputs' symbolic dims and the bound Variables passed as arguments give.
struct JitArgs {
  std::vector<JitInputInfo> infos;
  VarVals vals;
};

class CapturedJit;

class PlainCall;

// One @jit function: its calls so far and, from the second on, what it captured.
//
// Across values of a Variable, as tinygrad's: a capture replays for any value of a Variable its inputs
// bind once it is known that its kernels do not hold the value. That is known when the plain call
// before the capture bound the Variable to another value and ran kernels of the same source in the same
// order (a kernel that held the value, as a stride or a count, would differ there). Otherwise a replay
// with another value captures again: that call runs plainly and the next one captures.
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
  int captured_on() const { return captured_on_; }
  int recaptures() const { return recaptures_; }

  // Realizes the call's input tensors (in tinygrad's order) and checks them: no two share a buffer,
  // and at a replay each is as it was at the capture ("args mismatch in JIT"). `keys` name the
  // inputs (a position or a keyword) and must match the capture's too; `bound` are the values of the
  // bound Variables passed as arguments. A capture that cannot serve the Variables' values is
  // dropped here: the phase is Run again.
  JitArgs prepare(const std::vector<Tensor>& inputs, const std::vector<std::string>& keys, const VarVals& bound);
  // A plain call (phase Run): its kernels are noted from begin_run() to finish_run(), for the capture
  // to compare with.
  void begin_run();
  void finish_run(const VarVals& vals);
  void abandon_run();
  // Opens a capture: every kernel and copy from here to finish_capture() is recorded.
  void begin_capture();
  // Closes it; outputs are the tensors the call returned (realized here). Throws when it captured nothing.
  void finish_capture(const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs, JitArgs args,
                      std::vector<std::string> keys);
  // Closes a capture that failed: the next call captures again.
  void abandon_capture();
  // Runs the captured launches on these inputs, with these values of the Variables, and returns new
  // output tensors.
  std::vector<Tensor> replay(const std::vector<Tensor>& inputs, const VarVals& vals);

 private:
  void stop_recording();

  std::string name_;
  int calls_ = 0;
  int captured_on_ = 0;  // the call that captured
  int recaptures_ = 0;   // captures dropped for a Variable's value they could not serve
  // shared with the records of a replay still running on its device (they need its launches)
  std::shared_ptr<CapturedJit> captured_;
  std::unique_ptr<PlainCall> plain_;  // the last plain call, while no capture is kept
  std::unique_ptr<std::vector<Launch>> recording_;
  std::vector<Launch>* recording_before_ = nullptr;
  bool capturing_ = false;
  std::vector<std::pair<const Buffer*, std::weak_ptr<TensorState>>> held_before_;
};

// A jitted function's captured work, as :jit lists it.
struct JitSummary {
  std::string name;
  int calls = 0;
  int replays = 0;
  std::vector<RunRecord> launches;  // as captured
  int captured_on = 0;             // the call that captured
  int recaptures = 0;              // captures dropped for a Variable's value they could not serve
  std::vector<std::string> serves;  // the Variables for any value of which the capture replays
};
// Every @jit function alive, in the order they were made.
std::vector<JitSummary> jit_summaries();
// True while some jitted function is being captured: a jitted function called then is an error.
bool jit_capturing();

}  // namespace tr
