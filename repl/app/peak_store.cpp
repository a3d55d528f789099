#include "repl/app/peak_store.h"

#include "core/base/error.h"
#include "devices/disk_cache.h"

namespace tr::repl {

PeakStore disk_peak_store() {
  std::string where;
  try {
    where = cache_dir();
  } catch (const Error&) {
    // cached_text and cache_text say so once, and keep nothing
  }
  return {.find = cached_text, .keep = cache_text, .where = where};
}

}  // namespace tr::repl
