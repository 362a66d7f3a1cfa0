// SPDX-License-Identifier: MIT
// ResizeArea's CPU kernel (examples/resize_area, called directly on float32 NHWC buffers) against
// OpenCV's cv::resize(INTER_AREA) on the same CV_32FC3 image (one thread), and against a memcpy of
// the same input + output bytes. 3x480x640 (HWC, 3 channels), downscaled 2x (240x320) and 7:3 (206x274).
// Two inputs: float32 pixel values 0..255, and float16 values (what the board hands a custom op: the
// same pixels / 255, rounded to float16), the "_f16" contenders (one call from cold caches).
#include "resize_area/resize_area.cpp"
#include "side_by_side.hpp"

#if RKNNOP_BENCH_HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

namespace {

constexpr std::uint32_t in_h = 480, in_w = 640, channels = 3;

struct images {
  std::vector<float> src, dst, src_copy, dst_copy;
  ResizeArea::inputs in;
  ResizeArea::outputs out;
  ResizeArea::params p;
  images(std::uint32_t out_h, std::uint32_t out_w, bool half_valued = false)
      : src(std::size_t(in_h) * in_w * channels),
        dst(std::size_t(out_h) * out_w * channels),
        src_copy(src.size()),
        dst_copy(dst.size()) {
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = float((i * 2654435761u) % 256);
    if (half_valued)
      for (float& v : src) v = float(rknnop::float16(v / 255.f));
    const std::uint32_t in_dims[4] = {channels, in_w, in_h, 1}, out_dims[4] = {channels, out_w, out_h, 1};
    in.images.bind(src.data(), in_dims, 4, VX_TYPE_FLOAT32);
    out.output.bind(dst.data(), out_dims, 4, VX_TYPE_FLOAT32);
    p.size = {std::int32_t(out_h), std::int32_t(out_w)};
    p.align_corners = false;
  }
  void kernel() {
    if (!ResizeArea::cpu(in, out, p).ok()) std::abort();
    bench::keep(dst.data());
  }
  void copy() {  // the bytes a resize must at least read and write
    std::memcpy(src_copy.data(), src.data(), src.size() * sizeof(float));
    std::memcpy(dst_copy.data(), dst.data(), dst.size() * sizeof(float));
    bench::keep(src_copy.data());
    bench::keep(dst_copy.data());
  }
#if RKNNOP_BENCH_HAVE_OPENCV
  void opencv() {
    const cv::Mat s(int(in_h), int(in_w), CV_32FC3, src.data());
    cv::Mat d(int(p.size[0]), int(p.size[1]), CV_32FC3, dst.data());
    cv::resize(s, d, d.size(), 0, 0, cv::INTER_AREA);
    bench::keep(dst.data());
  }
#endif
};

}  // namespace

int main(int argc, char** argv) {
  rknnop::detail::thread_pool::set_threads(1);  // one thread: bench_threads compares thread counts
#if RKNNOP_BENCH_HAVE_OPENCV
  cv::setNumThreads(1);  // rknnop's kernel is single-threaded
#endif
  images half(240, 320), seven_thirds(206, 274), half_f16(240, 320, true), seven_thirds_f16(206, 274, true);
  std::vector<bench::contender> contenders;
  std::vector<bench::ratio> ratios;
  for (auto [im, tag] : {std::pair{&half, std::string("2x")}, std::pair{&seven_thirds, std::string("7:3")}}) {
    // Cold: one call after the caches were evicted. Hot: 8 calls back to back (warm caches).
    for (auto [suffix, repeat, cold] : {std::tuple{"", 1, true}, std::tuple{"hot_", 8, false}}) {
      const std::string kernel = "kernel_" + std::string(suffix) + tag, copy = "memcpy_" + std::string(suffix) + tag;
      const std::string label = std::string(*suffix ? "hot " : "") + tag;
      contenders.push_back(
          {kernel, [im] { im->kernel(); }, repeat, cold,
           [im] { return std::pair<const void*, std::size_t>(im->dst.data(), im->dst.size() * sizeof(float)); }});
      contenders.push_back({copy, [im] { im->copy(); }, repeat, cold});
      ratios.push_back({"kernel/memcpy " + label, kernel, copy});
#if RKNNOP_BENCH_HAVE_OPENCV
      const std::string opencv = "opencv_" + std::string(suffix) + tag;
      contenders.push_back({opencv, [im] { im->opencv(); }, repeat, cold});
      ratios.push_back({"kernel/opencv " + label, kernel, opencv});
#endif
    }
  }
  for (auto [im, tag] :
       {std::pair{&half_f16, std::string("f16_2x")}, std::pair{&seven_thirds_f16, std::string("f16_7:3")}}) {
    const std::string kernel = "kernel_" + tag;
    contenders.push_back(
        {kernel, [im] { im->kernel(); }, 1, true,
         [im] { return std::pair<const void*, std::size_t>(im->dst.data(), im->dst.size() * sizeof(float)); }});
#if RKNNOP_BENCH_HAVE_OPENCV
    const std::string opencv = "opencv_" + tag;
    contenders.push_back({opencv, [im] { im->opencv(); }, 1, true});
    ratios.push_back({"kernel/opencv " + tag, kernel, opencv});
#endif
  }
  return bench::run(argc, argv, "bench_resize_area (float32 3x480x640)", contenders, ratios);
}
