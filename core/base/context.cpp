#include "core/base/context.h"

#include <cstdlib>
#include <string_view>

namespace tr {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

Settings from_environment() {
  Settings s;
  s.debug = env_int("DEBUG", 0);
  s.noopt = env_int("NOOPT", 0) != 0;
  s.beam = env_int("BEAM", 0);
  s.jit = env_int("JIT", 1);
  s.online_softmax = env_int("ONLINE_SOFTMAX", 0) != 0;
  if (const char* dev = std::getenv("DEV"); dev && *dev) s.device = dev;
  return s;
}

}  // namespace

Settings& settings() {
  static Settings s = from_environment();
  return s;
}

}  // namespace tr
