#pragma once
// QCOM: the OPENCL device (the same driver's) whose float32 buffers that a kernel only reads or only
// writes in whole aligned float4s are taken as images (image_buffers, core/render/cstyle.h), as
// Qualcomm's Adreno reads them fastest; its kernels are rendered by core/render/qcom.cpp.
#include <vector>

#include "core/runtime/buffer.h"
#include "devices/opencl.h"

namespace tr {

// The images of one launch: each buffer that `images` marks, as an image2d_t of float4 texels
// (kImageWidth a row), filled from its buffer before the kernel where the kernel reads it, and copied
// back after the kernel where it writes it. PoCL cannot view a buffer as an image (it has no
// cl_khr_image2d_from_buffer), so each launch copies.
class LaunchImages {
 public:
  LaunchImages(cl_context context, cl_command_queue queue, const std::vector<const Buffer*>& bufs, const std::vector<bool>& images,
               const std::vector<bool>& writes);
  ~LaunchImages();
  LaunchImages(const LaunchImages&) = delete;
  LaunchImages& operator=(const LaunchImages&) = delete;

  // The kernel's argument i: its image, or its buffer.
  cl_mem arg(size_t i) const;
  // Enqueues the copies back of the images the kernel writes, after the kernel (the queue runs in
  // order); returns the event of the last command, `kernel` where there is none (either retained).
  cl_event copy_back(cl_event kernel) const;

 private:
  cl_command_queue queue_;
  const std::vector<const Buffer*>& bufs_;
  std::vector<cl_mem> images_;  // per buffer: its image, or null
  const std::vector<bool>& writes_;
};

}  // namespace tr
