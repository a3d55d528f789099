#pragma once
// The meta commands one by one; meta.cpp's table names them. Each checks its arguments and throws a
// SourceError at the one at fault.
#include "repl/app/host.h"
#include "repl/app/meta_call.h"

namespace tr::repl::meta {

// the session (meta_session.cpp)
Status help(Host& h, const MetaCall& c);
Status quit(Host& h, const MetaCall& c);
Status vars(Host& h, const MetaCall& c);
Status run(Host& h, const MetaCall& c);
Status save(Host& h, const MetaCall& c);
Status reset(Host& h, const MetaCall& c);
// the settings (meta_settings.cpp)
Status device(Host& h, const MetaCall& c);
Status render(Host& h, const MetaCall& c);
Status debug(Host& h, const MetaCall& c);
Status noopt(Host& h, const MetaCall& c);
Status online_softmax(Host& h, const MetaCall& c);
Status beam(Host& h, const MetaCall& c);
Status repeat(Host& h, const MetaCall& c);
// the views of a schedule (meta_views.cpp)
Status kernels(Host& h, const MetaCall& c);
Status ast(Host& h, const MetaCall& c);
Status uops(Host& h, const MetaCall& c);
Status src(Host& h, const MetaCall& c);
Status assembly(Host& h, const MetaCall& c);  // :asm
Status time(Host& h, const MetaCall& c);
Status explain(Host& h, const MetaCall& c);
Status graph(Host& h, const MetaCall& c);
Status trace(Host& h, const MetaCall& c);
// the kernels on their devices' rooflines (meta_roofline.cpp)
Status roofline(Host& h, const MetaCall& c);
// the statements' schedules, and two versions of a kernel (meta_history.cpp, meta_diff.cpp)
Status history(Host& h, const MetaCall& c);
Status diff(Host& h, const MetaCall& c);
// walking and tuning (meta_step.cpp, meta_opt.cpp)
Status step(Host& h, const MetaCall& c);
Status opt(Host& h, const MetaCall& c);
Status opts(Host& h, const MetaCall& c);
// the jitted functions (meta_jit.cpp)
Status jit(Host& h, const MetaCall& c);

}  // namespace tr::repl::meta
