// hip/hip_runtime.h of the project's own: just enough of ROCm's header for the HIP renderer's kernels,
// in two modes.
// - clang's HIP mode (`clang++ -x hip --offload-arch=gfx90a -nogpuinc -nogpulib --cuda-device-only -I
//   devices/shims/hip`), where ROCm is not installed: the kernel compiles for an AMD GPU.
//     __global__, __device__, __shared__  clang's attributes for a kernel, a device function, LDS
//     threadIdx, blockIdx, blockDim       the AMDGPU builtins of the work-item, its group, the group's size
//     __syncthreads                       a workgroup barrier between release and acquire fences
//     half                                the hardware's _Float16
//     exp2f, sin, fma, ...                ROCm's device library (ocml), linked where the kernel is loaded
// - C++ (the HIPSHIM device, devices/shims/gpu_shim.cpp): the kernel runs on the CPU, one workgroup at a time.
//     __global__, __device__              nothing: a kernel is a plain function
//     __shared__                          static: a function-local static array is shared by exactly
//                                         the threads of the workgroup that runs
//     threadIdx, blockIdx, blockDim       what the shim's entry sets for the thread before the call
//     __syncthreads                       a switch to the workgroup's other threads, fibers of one
//                                         OS thread
//     half                                devices/shims/half.h: binary16 storage, + - * / in float
//     exp2f, sin, fma, ...                the compiler's builtins (<cmath> took 0.13 s of each
//                                         kernel's 0.18 s compile)
// Both: CUDA's vector types with x y z w (aligned to their size when 2 and 4 wide) and their make_
// functions, and __float_as_int and its kin (the same bits as the other type).
#pragma once

// the one-argument math the renderer calls, each as fn##f on float and fn on double
#define TINYREPL_HIP_MATH_FUNCTIONS \
  TINYREPL_HIP_MATH(exp2)           \
  TINYREPL_HIP_MATH(log2)           \
  TINYREPL_HIP_MATH(sin)            \
  TINYREPL_HIP_MATH(sqrt)           \
  TINYREPL_HIP_MATH(trunc)

struct tinyrepl_hip_dim3 {
  unsigned x, y, z;
};

#if defined(__HIP__)

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

#define threadIdx \
  (tinyrepl_hip_dim3{__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z()})
#define blockIdx \
  (tinyrepl_hip_dim3{__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z()})
#define blockDim                                                                                       \
  (tinyrepl_hip_dim3{__builtin_amdgcn_workgroup_size_x(), __builtin_amdgcn_workgroup_size_y(), \
                     __builtin_amdgcn_workgroup_size_z()})

__device__ inline void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

typedef _Float16 half;

#define TINYREPL_HIP_MATH(fn)                                               \
  extern "C" __device__ float __ocml_##fn##_f32(float);                     \
  extern "C" __device__ double __ocml_##fn##_f64(double);                   \
  __device__ inline float fn##f(float x) { return __ocml_##fn##_f32(x); } \
  __device__ inline double fn(double x) { return __ocml_##fn##_f64(x); }
TINYREPL_HIP_MATH_FUNCTIONS
#undef TINYREPL_HIP_MATH
extern "C" __device__ float __ocml_fma_f32(float, float, float);
extern "C" __device__ double __ocml_fma_f64(double, double, double);
__device__ inline float fmaf(float a, float b, float c) { return __ocml_fma_f32(a, b, c); }
__device__ inline double fma(double a, double b, double c) { return __ocml_fma_f64(a, b, c); }

#else

#include "../../half.h"

#define __global__
#define __device__
#define __shared__ static

// What the shim's entry sets before it calls the kernel.
namespace tinyrepl_hip {
inline thread_local tinyrepl_hip_dim3 thread_id{}, group_id{}, group_size{};
inline thread_local void (*barrier_wait)(void*) = nullptr;
inline thread_local void* barrier_context = nullptr;
// An argument: a buffer converts to whatever pointer its parameter is, a Variable's value to its int.
struct arg {
  void* p;
  template <class T>
  operator T*() const { return static_cast<T*>(p); }
  operator int() const { return *static_cast<const int*>(p); }
};
}  // namespace tinyrepl_hip
#define threadIdx (tinyrepl_hip::thread_id)
#define blockIdx (tinyrepl_hip::group_id)
#define blockDim (tinyrepl_hip::group_size)

// The other threads of the workgroup, fibers of this OS thread, set their own id while this one waits.
inline void __syncthreads() {
  const tinyrepl_hip_dim3 id = tinyrepl_hip::thread_id;
  tinyrepl_hip::barrier_wait(tinyrepl_hip::barrier_context);
  tinyrepl_hip::thread_id = id;
}

#define TINYREPL_HIP_MATH(fn)                                   \
  inline float fn##f(float x) { return __builtin_##fn##f(x); } \
  inline double fn(double x) { return __builtin_##fn(x); }
TINYREPL_HIP_MATH_FUNCTIONS
#undef TINYREPL_HIP_MATH
inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }

using half = tinyrepl_shim::half;

#endif

#define __align__(n) __attribute__((aligned(n)))

#define TINYREPL_HIP_VECTORS(T, N)                                                    \
  struct __align__(2 * sizeof(T)) N##2 { T x, y; };                                   \
  struct N##3 { T x, y, z; };                                                         \
  struct __align__(4 * sizeof(T)) N##4 { T x, y, z, w; };                             \
  __device__ inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                 \
  __device__ inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }         \
  __device__ inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
TINYREPL_HIP_VECTORS(signed char, char)
TINYREPL_HIP_VECTORS(unsigned char, uchar)
TINYREPL_HIP_VECTORS(short, short)
TINYREPL_HIP_VECTORS(unsigned short, ushort)
TINYREPL_HIP_VECTORS(int, int)
TINYREPL_HIP_VECTORS(unsigned int, uint)
TINYREPL_HIP_VECTORS(long long, longlong)
TINYREPL_HIP_VECTORS(unsigned long long, ulonglong)
TINYREPL_HIP_VECTORS(float, float)
TINYREPL_HIP_VECTORS(double, double)
#undef TINYREPL_HIP_VECTORS

__device__ inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__device__ inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__device__ inline long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__device__ inline double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
