// BEAM: its choice is kept under a key of the kernel and the hardware and read back instead of
// searching again; a kept choice that no longer fits is searched again; candidates that do not
// compile or run are skipped, and one far behind the best runs once.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/opt/apply_opt.h"
#include "core/opt/beam_cache.h"
#include "core/opt/heuristic.h"
#include "core/opt/search.h"
#include "core/base/progress.h"
#include "devices/registry.h"
#include "tests/kernel_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

// A store in memory that counts what it is asked, installed for one test.
struct CountingStore {
  std::map<std::string, std::string> entries;
  int finds = 0, keeps = 0;
  CountingStore() {
    install_choice_store({.find = [this](const std::string& key) -> std::optional<std::string> {
                            finds++;
                            const auto it = entries.find(key);
                            return it == entries.end() ? std::nullopt : std::optional(it->second);
                          },
                          .keep = [this](const std::string& key, const std::string& text) {
                            keeps++;
                            entries[key] = text;
                          }});
  }
  ~CountingStore() { register_devices(); }  // the on-disk store again
  CountingStore(const CountingStore&) = delete;
  CountingStore& operator=(const CountingStore&) = delete;
};

const std::vector<std::pair<DType, int64_t>> kRowSumBuffers{{DType::Float32, 256}, {DType::Float32, 256 * 256}};

TEST(BeamSearch, OptsReadBackAsWritten) {
  const std::vector<Opt> opts{{OptOp::Upcast, 0, 4}, {OptOp::Unroll, 1, 16}, {OptOp::Thread, 0, 2}};
  EXPECT_EQ(opts_text(opts), "UPCAST 0 4\nUNROLL 1 16\nTHREAD 0 2\n");
  EXPECT_EQ(read_opts(opts_text(opts)), opts);
  EXPECT_EQ(read_opts(""), std::vector<Opt>{});
  for (const char* bad : {"UPCAST 0\n", "FOO 0 4\n", "UPCAST 0 4 4\n", "UPCAST zero 4\n"})
    EXPECT_EQ(read_opts(bad), std::nullopt) << bad;
}

TEST(BeamSearch, TheKeyNamesTheKernelTheHardwareAndTheWidth) {
  const Kernel rows = only_kernel(realized_random({256, 256}, 1).sum(std::vector<int>{1}));
  const Kernel columns = only_kernel(realized_random({256, 256}, 1).sum(std::vector<int>{0}));
  Device& cpu = device("CPU");
  const std::string key = beam_key(rows, cpu, kRowSumBuffers, {}, 2);
  EXPECT_NE(key.find(cpu.target().str()), std::string::npos) << key;
  EXPECT_NE(key, beam_key(rows, cpu, kRowSumBuffers, {}, 3));
  EXPECT_NE(key, beam_key(columns, cpu, kRowSumBuffers, {}, 2));
  EXPECT_NE(key, beam_key(rows, device("LLVM"), kRowSumBuffers, {}, 2));
  EXPECT_EQ(key, beam_key(rows, device("CPU:1"), kRowSumBuffers, {}, 2));  // the same hardware
}

TEST(BeamSearch, ASecondSearchReadsTheKeptChoice) {
  CountingStore store;
  const Kernel k = only_kernel(realized_random({256, 256}, 2).sum(std::vector<int>{1}));
  Device& cpu = device("CPU");
  const Kernel first = beam_search(k, cpu, kRowSumBuffers, {}, 1);
  ASSERT_EQ(store.keeps, 1);
  const std::string key = beam_key(k, cpu, kRowSumBuffers, {}, 1);
  EXPECT_EQ(store.entries.at(key), opts_text(first.opts));
  EXPECT_EQ(beam_search(k, cpu, kRowSumBuffers, {}, 1).opts, first.opts);
  // what the store holds is what a second search returns, searching nothing
  store.entries[key] = "UPCAST 0 4\n";
  EXPECT_EQ(beam_search(k, cpu, kRowSumBuffers, {}, 1).opts, (std::vector<Opt>{{OptOp::Upcast, 0, 4}}));
  EXPECT_EQ(store.keeps, 1);
}

TEST(BeamSearch, AKeptChoiceThatNoLongerFitsIsSearchedAgain) {
  CountingStore store;
  const Kernel k = only_kernel(realized_random({256, 256}, 3).sum(std::vector<int>{1}));
  const std::string key = beam_key(k, device("CPU"), kRowSumBuffers, {}, 1);
  for (const char* kept : {"UPCAST 7 4\n", "not opts\n"}) {
    store.entries[key] = kept;
    const int keeps = store.keeps;
    const Kernel out = beam_search(k, device("CPU"), kRowSumBuffers, {}, 1);
    EXPECT_EQ(store.keeps, keeps + 1) << kept;
    EXPECT_EQ(store.entries.at(key), opts_text(out.opts)) << kept;
  }
}

// A device as `dev` is, but for how it compiles (and so how its programs run).
class Like : public Device {
 public:
  explicit Like(const std::string& dev) : dev_(device(dev)) {}
  const std::string& name() const override { return dev_.name(); }
  const std::string& backend() const override { return dev_.backend(); }
  Target target() const override { return dev_.target(); }
  BufferRef alloc(DType dtype, int64_t size) override { return dev_.alloc(dtype, size); }
  void copyin(const Buffer& dst, const void* src) override { dev_.copyin(dst, src); }
  void copyout(void* dst, const Buffer& src) override { dev_.copyout(dst, src); }

 protected:
  Device& dev_;
};

// The CPU device, refusing to compile a kernel split over threads and to run one with vectors: the
// search still ends, with a kernel that has neither (and the default opts have both).
class Refusing : public Like {
 public:
  Refusing() : Like("CPU") {}
  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    if (source.find("core_id*") != std::string::npos) fail("compile", "refused: threads");
    return std::make_unique<Refused>(dev_.compile(program, source, cached), source.find("vector_size") != std::string::npos);
  }

 private:
  struct Refused : Program {
    Refused(std::unique_ptr<Program> p, bool refuse) : program(std::move(p)), refuse_run(refuse) {}
    double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
      if (refuse_run) fail("device", "refused: vectors");
      return program->run(bufs, dims, vars);
    }
    std::unique_ptr<Program> program;
    bool refuse_run;
  };
};

TEST(BeamSearch, CandidatesThatDoNotCompileOrRunAreSkipped) {
  CountingStore store;
  const Tensor x = realized_random({256, 256}, 4);
  const Kernel k = only_kernel(x.sum(std::vector<int>{0}));
  Refusing dev;
  const Target target = dev.target();
  const std::vector<Opt> defaults = default_opts(k, target).opts;
  ASSERT_TRUE(std::any_of(defaults.begin(), defaults.end(), [](const Opt& o) { return o.op == OptOp::Thread; }));
  const Kernel out = beam_search(k, dev, kRowSumBuffers, {}, 2);
  const std::string source = dev.render(codegen(out, target, "out"));
  EXPECT_EQ(source.find("core_id*"), std::string::npos) << source;
  EXPECT_EQ(source.find("vector_size"), std::string::npos) << source;
}

// A device with made-up times, whatever its programs really take: `seconds` of each program's source,
// given the sources of the kernel with its default opts and without opts.
class Timed : public Like {
 public:
  using Times = std::function<double(const std::string& source, const std::string& defaults, const std::string& plain)>;
  Timed(const std::string& dev, const Kernel& k, Times seconds) : Like(dev), seconds_(std::move(seconds)) {
    const Target t = dev_.target();
    default_source_ = dev_.render(codegen(default_opts(k, t), t, "beam_candidate"));
    plain_source_ = dev_.render(codegen(k, t, "beam_candidate"));
  }
  std::unique_ptr<Program> compile(const UOpProgram&, const std::string& source, bool&) override {
    return std::make_unique<Fixed>(seconds_(source, default_source_, plain_source_), runs_[source]);
  }
  const std::string& plain_source() const { return plain_source_; }
  // How many times the programs of each source ran.
  const std::map<std::string, int>& runs() const { return runs_; }

 private:
  struct Fixed : Program {
    Fixed(double s, int& counter) : seconds(s), runs(counter) {}
    double run(const std::vector<const Buffer*>&, const LaunchDims&, const std::vector<int32_t>&) override {
      runs++;
      return seconds;
    }
    double seconds;
    int& runs;
  };
  Times seconds_;
  std::string default_source_, plain_source_;
  std::map<std::string, int> runs_;
};

// The default opts take 1 s, no opts 2 s, every other candidate `others` s.
Timed::Times default_plain_others(double others) {
  return [others](const std::string& source, const std::string& defaults, const std::string& plain) {
    return source == defaults ? 1.0 : source == plain ? 2.0 : others;
  };
}

// A choice 1.5% faster than the default opts passes a step of the search (1%) but not the check
// against the default after it (2%); one 10% faster passes both.
TEST(BeamSearch, TheChoiceMustBeatTheDefaultOptsByMoreThanNoise) {
  CountingStore store;
  const Kernel k = only_kernel(realized_random({256, 256}, 5).sum(std::vector<int>{1}));
  const std::vector<Opt> defaults = default_opts(k, device("CPU").target()).opts;
  Timed close("CPU", k, default_plain_others(0.985)), faster("CPU", k, default_plain_others(0.9));
  EXPECT_EQ(beam_search(k, close, kRowSumBuffers, {}, 2).opts, defaults);
  EXPECT_NE(beam_search(k, faster, kRowSumBuffers, {}, 3).opts, defaults);
}

// A candidate whose run takes more than 3 times the best time known runs once; one within that runs
// the 3 times that judge it. Here the kernel without opts takes 4 times the default opts' time.
TEST(BeamSearch, ACandidateFarBehindTheBestRunsOnce) {
  CountingStore store;
  const Kernel k = only_kernel(realized_random({256, 256}, 7).sum(std::vector<int>{1}));
  Timed dev("CPU", k, [](const std::string& source, const std::string& defaults, const std::string& plain) {
    return source == defaults ? 1.0 : source == plain ? 4.0 : 2.9;
  });
  beam_search(k, dev, kRowSumBuffers, {}, 2);
  ASSERT_GT(dev.runs().size(), 2u);
  for (const auto& [source, runs] : dev.runs()) {
    if (source == dev.plain_source()) EXPECT_EQ(runs, 1);
    else EXPECT_GE(runs, 3) << source;
  }
}

// On the CPU and LLVM devices a run past its limit leaves the kernel halfway, on every core it runs on,
// and the program runs whole again afterwards: BEAM stops a candidate far behind the best so.
TEST(BeamSearch, ARunPastItsLimitStopsHalfwayOnTheCpu) {
  for (const char* name : {"CPU", "LLVM"}) {
    Device& dev = device(name);
    const Target target = dev.target();
    // a 512 matmul without opts but its cores: a tenth of a second or more on the 2-core VM
    const Kernel plain = only_kernel(realized_random({512, 512}, 8, name).matmul(realized_random({512, 512}, 9, name)));
    const Kernel k = target.cores > 1 ? apply_opt(plain, {OptOp::Thread, 0, target.cores}, target) : plain;
    const UOpProgram program = codegen(k, target, "slow");
    bool cached = false;
    const std::unique_ptr<Program> p = dev.compile(program, dev.render(program), cached);
    const std::vector<BufferRef> owned = zeroed_buffers(dev, std::vector(3, std::pair{DType::Float32, int64_t{512 * 512}}));
    const std::vector<const Buffer*> bufs = pointers(owned);
    const double whole = p->run(bufs, program.dims, {});
    ASSERT_GT(whole, 0.02) << name << ": too short to stop halfway";
    EXPECT_EQ(p->run_within(bufs, program.dims, {}, whole / 20), std::nullopt) << name;
    EXPECT_FALSE(interrupted());
    EXPECT_NE(p->run_within(bufs, program.dims, {}, whole * 100), std::nullopt) << name;
  }
}

// On a device with workgroups, BEAM's candidates include GROUP (a reduce split over a workgroup's
// threads): where kernels with a barrier run fastest, it ends with one.
TEST(BeamSearch, OnADeviceWithWorkgroupsTheCandidatesIncludeGroup) {
  if (const std::string why = device_status("OPENCL"); !why.empty()) GTEST_SKIP() << "OPENCL cannot open: " << why;
  CountingStore store;
  // rows of 8: the default opts unroll them whole and GROUP only longer reduces (core/opt/heuristic.cpp)
  const Kernel k = only_kernel(realized_random({8192, 8}, 6).sum(std::vector<int>{1}));
  const auto groups = [](const std::vector<Opt>& opts) {
    return std::any_of(opts.begin(), opts.end(), [](const Opt& o) { return o.op == OptOp::Group; });
  };
  ASSERT_FALSE(groups(default_opts(k, device("OPENCL").target()).opts));
  Timed barriers("OPENCL", k, [](const std::string& source, const std::string& defaults, const std::string&) {
    return source.find("barrier(") != std::string::npos && source != defaults ? 0.5 : 1.0;
  });
  const std::vector<Opt> opts = beam_search(k, barriers, {{DType::Float32, 8192}, {DType::Float32, 8192 * 8}}, {}, 2).opts;
  EXPECT_TRUE(groups(opts)) << opts_text(opts);
}

// Compiling its candidates takes most of a search, and the progress line names the search then too.
TEST(BeamSearch, TheProgressLineNamesTheSearchWhileItCompiles) {
  EXPECT_EQ(progress_text({Phase::BeamCompile, 2, 40, "r_64_64 (step 1)"}), "BEAM candidate 3/40 r_64_64 (step 1), compiling");
  EXPECT_EQ(progress_text({Phase::Beam, 2, 40, "r_64_64 (step 1)"}), "BEAM candidate 3/40 r_64_64 (step 1)");
  EXPECT_EQ(progress_text({Phase::Compile, 2, 13, "r_64_64"}), "compiling 3/13 r_64_64");
}

}  // namespace
}  // namespace tr

