/* An example device plug-in (devices/tinyrepl_device.h): PLUGCPU runs the C renderer's kernels on
 * the host, compiled by the system C compiler ($CC, else cc) into a shared object in a temporary
 * folder and called once per core_id on the calling thread. Build it as a shared library and load
 * it with `:device load PATH.so`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devices/tinyrepl_device.h"

typedef void (*entry_fn)(void** buffers, int core_id);

typedef struct {
  void* lib;
  entry_fn entry;
} program;

static int say(char* err, size_t err_size, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, err_size, fmt, ap);
  va_end(ap);
  return 1;
}

static int plug_alloc(void* state, size_t bytes, void** mem, char* err, size_t err_size) {
  (void)state;
  *mem = calloc(1, bytes);
  return *mem ? 0 : say(err, err_size, "out of host memory for %zu bytes", bytes);
}

static void plug_free(void* state, void* mem) {
  (void)state;
  free(mem);
}

static int plug_copy(void* state, void* dst, const void* src, size_t bytes, char* err, size_t err_size) {
  (void)state, (void)err, (void)err_size;
  memcpy(dst, src, bytes);
  return 0;
}

/* The kernel is called through an entry point that takes its buffers as an array. */
static int plug_compile(void* state, const char* kernel, const char* source, int nbuffers, void** out, char* err,
                        size_t err_size) {
  (void)state;
  char dir[] = "/tmp/tinyrepl-plugcpu-XXXXXX";
  if (!mkdtemp(dir)) return say(err, err_size, "cannot make a temporary folder");
  char c_path[64], so_path[64], cmd[1024];
  snprintf(c_path, sizeof c_path, "%s/kernel.c", dir);
  snprintf(so_path, sizeof so_path, "%s/kernel.so", dir);
  FILE* f = fopen(c_path, "w");
  if (!f) return say(err, err_size, "cannot write %s", c_path);
  fprintf(f, "%s\nvoid tinyrepl_entry(void** b, int core_id) { %s(", source, kernel);
  for (int i = 0; i < nbuffers; i++) fprintf(f, "b[%d], ", i);
  fprintf(f, "core_id); }\n");
  fclose(f);
  const char* cc = getenv("CC");
  /* as the CPU device: each + and * rounds on its own, integers wrap */
  const int n = snprintf(cmd, sizeof cmd,
                         "%s -O2 -fPIC -shared -fwrapv -fno-math-errno -fexcess-precision=standard -ffp-contract=off -o %s %s -lm 2>&1",
                         cc && *cc ? cc : "cc", so_path, c_path);
  if (n < 0 || (size_t)n >= sizeof cmd) return say(err, err_size, "the compiler command is longer than %zu bytes", sizeof cmd);
  FILE* p = popen(cmd, "r");
  if (!p) return say(err, err_size, "cannot run the C compiler");
  char log[768] = {0};
  const size_t got = fread(log, 1, sizeof log - 1, p);
  log[got] = 0;
  const int status = pclose(p);
  unlink(c_path);
  void* lib = status == 0 ? dlopen(so_path, RTLD_NOW | RTLD_LOCAL) : NULL;
  unlink(so_path);
  rmdir(dir);
  if (status != 0) return say(err, err_size, "the C compiler failed:\n%s", log);
  if (!lib) return say(err, err_size, "cannot load the kernel: %s", dlerror());
  program* prog = malloc(sizeof *prog);
  prog->lib = lib;
  prog->entry = (entry_fn)dlsym(lib, "tinyrepl_entry");
  *out = prog;
  return 0;
}

static void plug_release(void* state, void* p) {
  (void)state;
  program* prog = p;
  dlclose(prog->lib);
  free(prog);
}

static int plug_run(void* state, void* p, void* const* buffers, int nbuffers, const int64_t global[3],
                    const int64_t local[3], double* seconds, char* err, size_t err_size) {
  (void)state, (void)nbuffers, (void)local, (void)err, (void)err_size;
  const program* prog = p;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int64_t core = 0; core < global[0]; core++) prog->entry((void**)buffers, (int)core);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  *seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  return 0;
}

static const tinyrepl_device device = {
    .abi = TINYREPL_DEVICE_ABI,
    .name = "PLUGCPU",
    .backend = "c",
    .gpu = 0,
    .cores = 1,
    .state = NULL,
    .alloc = plug_alloc,
    .free = plug_free,
    .copyin = plug_copy,
    .copyout = plug_copy,
    .compile = plug_compile,
    .release = plug_release,
    .run = plug_run,
};

const tinyrepl_device* tinyrepl_device_open(char* err, size_t err_size) {
  (void)err, (void)err_size;
  return &device;
}
