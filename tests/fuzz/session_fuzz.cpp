// libFuzzer: whole sessions, statements and meta commands, through the host a person's REPL runs,
// one input line after another as a pipe feeds them. Every error must be reported and the session go
// on; nothing may crash, hang or throw out of the host. The run stays small: a bounded input, tensors
// of at most 2^16 elements (TINYREPL_FUZZ_MAX_ELEMENTS, set below), no files written outside a
// scratch folder, and libFuzzer's -timeout for whatever still runs long.
#include <unistd.h>

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "core/base/context.h"
#include "devices/registry.h"
#include "repl/app/host.h"

namespace {

// A scratch working folder, so that :save and :run touch nothing of the user's.
void enter_scratch_folder() {
  char templ[] = "/tmp/tinyrepl-fuzz.XXXXXX";
  if (::mkdtemp(templ) && ::chdir(templ) == 0) return;
  std::abort();
}

bool has_long_number(const uint8_t* data, size_t size) {
  size_t digits = 0;
  for (size_t i = 0; i < size; i++) {
    digits = std::isdigit(data[i]) ? digits + 1 : 0;
    if (digits > 3) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tr::register_devices();
  enter_scratch_folder();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 2048 || has_long_number(data, size)) return 0;
  const tr::Settings saved = tr::settings();
  std::ostringstream out, err;
  {
    tr::repl::Host host(tr::repl::HostConfig{.json = (size & 1) != 0, .echo = true}, out, err);
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    while (!rest.empty()) {
      const size_t nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
      if (host.run_source(line, "") == tr::repl::Status::Quit) break;
    }
    host.finish();
  }
  tr::settings() = saved;
  return 0;
}
