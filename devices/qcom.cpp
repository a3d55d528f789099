#include "devices/qcom.h"

#include <algorithm>

#include "core/render/qcom.h"

namespace tr {
namespace {

// A buffer of float32 taken as an image of float4 texels, kImageWidth a row: its rows, and the texels
// of its last row (all of a row where it is full).
struct ImageShape {
  size_t width, rows, last;
};
ImageShape image_shape(const Buffer& b) {
  const auto texels = static_cast<size_t>(std::max<int64_t>(b.size / 4, 1));
  const auto w = static_cast<size_t>(kImageWidth);
  return {std::min(texels, w), (texels + w - 1) / w, texels % w == 0 ? std::min(texels, w) : texels % w};
}

// Copies between a buffer and its image, one whole-row region and the last row's texels.
cl_event copy_image(cl_command_queue q, cl_mem buffer, cl_mem image, const ImageShape& s, bool to_image) {
  cl_event last = nullptr;
  const auto region_copy = [&](size_t row, size_t rows, size_t texels) {
    const size_t origin[3] = {0, row, 0}, region[3] = {texels, rows, 1};
    const size_t offset = row * s.width * 16;
    if (last) clReleaseEvent(last);
    cl_check(to_image ? clEnqueueCopyBufferToImage(q, buffer, image, offset, origin, region, 0, nullptr, &last)
                      : clEnqueueCopyImageToBuffer(q, image, buffer, origin, region, offset, 0, nullptr, &last),
             to_image ? "clEnqueueCopyBufferToImage" : "clEnqueueCopyImageToBuffer");
  };
  if (s.rows > 1) region_copy(0, s.rows - 1, s.width);
  region_copy(s.rows - 1, 1, s.last);
  return last;
}

}  // namespace

LaunchImages::LaunchImages(cl_context context, cl_command_queue queue, const std::vector<const Buffer*>& bufs,
                           const std::vector<bool>& images, const std::vector<bool>& writes)
    : queue_(queue), bufs_(bufs), images_(bufs.size(), nullptr), writes_(writes) {
  for (size_t i = 0; i < bufs.size() && i < images.size(); i++) {
    if (!images[i]) continue;
    const ImageShape shape = image_shape(*bufs[i]);
    const cl_image_format format{CL_RGBA, CL_FLOAT};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = shape.width;
    desc.image_height = shape.rows;
    cl_int err = CL_SUCCESS;
    images_[i] = clCreateImage(context, writes_[i] ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY, &format, &desc, nullptr, &err);
    cl_check(err, "clCreateImage");
    if (!writes_[i]) clReleaseEvent(copy_image(queue_, static_cast<cl_mem>(bufs[i]->mem.get()), images_[i], shape, true));
  }
}

// an image released here lives until the commands that use it end
LaunchImages::~LaunchImages() {
  for (cl_mem m : images_)
    if (m) clReleaseMemObject(m);
}

cl_mem LaunchImages::arg(size_t i) const { return images_[i] ? images_[i] : static_cast<cl_mem>(bufs_[i]->mem.get()); }

cl_event LaunchImages::copy_back(cl_event kernel) const {
  cl_event done = kernel;
  clRetainEvent(done);
  for (size_t i = 0; i < images_.size(); i++) {
    if (!images_[i] || !writes_[i]) continue;
    clReleaseEvent(done);
    done = copy_image(queue_, static_cast<cl_mem>(bufs_[i]->mem.get()), images_[i], image_shape(*bufs_[i]), false);
  }
  return done;
}

std::unique_ptr<Device> open_qcom(int index) { return open_opencl_device(index, true); }

}  // namespace tr
