#pragma once
// The roofline's peaks kept in the on-disk cache (devices/disk_cache.h) as small texts: measured once
// per machine, read by :roofline and the TUI's Roofline pane.
#include "viz/peaks.h"

namespace tr::repl {

// where: the cache's folder, or "" when it cannot be made (then nothing is kept).
PeakStore disk_peak_store();

}  // namespace tr::repl
