/* tinyrepl's device plug-in interface: a shared library that exports tinyrepl_device_open() adds a
 * device without rebuilding tinyrepl (`:device load PATH.so`, or load_device_plugin() in C++).
 *
 * tinyrepl renders each kernel with one of its built-in renderers (`backend`) for a target of the
 * kind `gpu` says, hands the source to compile(), and runs it with run(). Buffers are opaque pointers
 * that alloc() returns; tinyrepl only passes them back (to free, copyin, copyout and run).
 *
 * Every function returns 0 on success; on failure it writes a message (NUL-terminated, at most
 * err_size bytes) into err and returns nonzero, and tinyrepl reports it as a device error (a compile
 * error for compile()). Calls come from one thread at a time. This is plain C, so a plug-in can be
 * written in any language with a C ABI. */
#ifndef TINYREPL_DEVICE_H
#define TINYREPL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: a plug-in built against another one is refused. */
#define TINYREPL_DEVICE_ABI 1

typedef struct tinyrepl_device {
  int abi;             /* TINYREPL_DEVICE_ABI */
  const char* name;    /* how :device lists it and x.to() names it: upper case, e.g. "PLUGCPU" */
  const char* backend; /* the built-in renderer whose source compile() receives: "c", "llvm", "opencl", "cuda", "ptx", "metal" */
  /* 0: a CPU kernel, which loops over its output dims: it takes the buffers, then `int core_id`, and
   *    run() calls it once for each core_id in [0, global[0]).
   * 1: a GPU kernel, launched over a grid of global[a] workgroups of local[a] threads per axis a. */
  int gpu;
  int cores; /* CPU: how many core_ids the opts may split a kernel over (at least 1) */
  void* state; /* the plug-in's own, passed to every call */

  int (*alloc)(void* state, size_t bytes, void** mem, char* err, size_t err_size);
  void (*free)(void* state, void* mem);
  int (*copyin)(void* state, void* dst, const void* src, size_t bytes, char* err, size_t err_size);
  int (*copyout)(void* state, void* dst, const void* src, size_t bytes, char* err, size_t err_size);
  /* Compiles the source of kernel `kernel`, which takes `nbuffers` buffers, into *program. */
  int (*compile)(void* state, const char* kernel, const char* source, int nbuffers, void** program, char* err,
                 size_t err_size);
  void (*release)(void* state, void* program);
  /* Runs a compiled program once over the buffers; *seconds receives the time it took. */
  int (*run)(void* state, void* program, void* const* buffers, int nbuffers, const int64_t global[3],
             const int64_t local[3], double* seconds, char* err, size_t err_size);
} tinyrepl_device;

/* The one symbol a plug-in exports: its device, or NULL with the reason in err. */
const tinyrepl_device* tinyrepl_device_open(char* err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
