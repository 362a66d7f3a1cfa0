// SPDX-License-Identifier: MIT
// examples/mirror_pad through the host runtime against TensorFlow's documented examples (tf.pad and
// tf.raw_ops.MirrorPad: t = [[1, 2, 3], [4, 5, 6]], paddings = [[1, 1], [2, 2]]) and hand-worked
// cases of rank 1 and 3, float16 and float32, and the errors TensorFlow also raises.
#include "mirror_pad/mirror_pad.cpp"

#include "example_test_util.hpp"

namespace {

using rknnop::float16;
using rknnop::test::harness;
using rknnop::test::ref;

using padded = rknnop::test::float_run;

// dims in OpenVX order (innermost first); paddings in TensorFlow's order, flattened.
padded run_mirror_pad(const std::vector<std::uint32_t>& dims, const std::vector<float>& x,
                      const std::vector<std::int32_t>& paddings, std::int32_t mode, vx_enum dtype = VX_TYPE_FLOAT32) {
  return rknnop::test::run_float_op(vx_kernel_MirrorPad_list.entries[0], dims, x, dtype, [&](harness& h) {
    return std::vector<vx_reference>{ref(h.array(paddings)), ref(h.scalar(VX_TYPE_INT32, &mode))};
  });
}

constexpr std::int32_t reflect = 0, symmetric = 1;

TEST(ExampleMirrorPad, TensorFlowDocsReflect) {
  // tf.pad(t, [[1, 1], [2, 2]], "REFLECT") in TensorFlow's documentation.
  const padded r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {1, 1, 2, 2}, reflect);
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{7, 4}));
  EXPECT_EQ(r.values, (std::vector<float>{6, 5, 4, 5, 6, 5, 4,  //
                                          3, 2, 1, 2, 3, 2, 1,  //
                                          6, 5, 4, 5, 6, 5, 4,  //
                                          3, 2, 1, 2, 3, 2, 1}));
}

TEST(ExampleMirrorPad, TensorFlowDocsSymmetric) {
  // tf.pad(t, [[1, 1], [2, 2]], "SYMMETRIC") and tf.raw_ops.MirrorPad's example.
  for (const vx_enum dtype : {VX_TYPE_FLOAT32, VX_TYPE_FLOAT16}) {
    const padded r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {1, 1, 2, 2}, symmetric, dtype);
    ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
    EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{7, 4}));
    EXPECT_EQ(r.values, (std::vector<float>{2, 1, 1, 2, 3, 3, 2,  //
                                            2, 1, 1, 2, 3, 3, 2,  //
                                            5, 4, 4, 5, 6, 6, 5,  //
                                            5, 4, 4, 5, 6, 6, 5}));
  }
}

TEST(ExampleMirrorPad, RankOneAndThree) {
  // [1, 2, 3] padded by [[2, 2]]: REFLECT mirrors around the edge, SYMMETRIC repeats it.
  EXPECT_EQ(run_mirror_pad({3}, {1, 2, 3}, {2, 2}, reflect).values, (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(run_mirror_pad({3}, {1, 2, 3}, {2, 2}, symmetric).values, (std::vector<float>{2, 1, 1, 2, 3, 3, 2}));
  // [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] padded by [[1, 0], [0, 1], [0, 0]] REFLECT: a copy of block 1
  // before block 0, and each block's row 0 after its last row.
  const padded r = run_mirror_pad({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 0, 0, 1, 0, 0}, reflect);
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{2, 3, 3}));
  EXPECT_EQ(r.values, (std::vector<float>{5, 6, 7, 8, 5, 6, 1, 2, 3, 4, 1, 2, 5, 6, 7, 8, 5, 6}));
}

TEST(ExampleMirrorPad, RefusesWhatTensorFlowRefuses) {
  padded r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {2, 0, 0, 0}, reflect);  // REFLECT: pad < dim
  EXPECT_NE(r.status, VX_SUCCESS);
  EXPECT_NE(r.log.find("paddings [2, 0] for axis 0 must be less than the dimension size 2 in REFLECT mode"),
            std::string::npos)
      << r.log;
  EXPECT_EQ(run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {2, 0, 0, 3}, symmetric).status, VX_SUCCESS);
  r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {0, 0, 0, 4}, symmetric);
  EXPECT_NE(r.log.find("must be no greater than the dimension size 3 in SYMMETRIC mode"), std::string::npos) << r.log;
  r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {1, 1}, reflect);
  EXPECT_NE(r.log.find("paddings must hold 2 values per input dimension ([2, 2] for rank 2), got 2 values"),
            std::string::npos)
      << r.log;
  r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {0, -1, 0, 0}, reflect);
  EXPECT_NE(r.log.find("paddings must be non-negative, got [0, -1] for axis 0"), std::string::npos) << r.log;
  // A value no name of the enum has is refused before `infer` runs, by the rule every backend shares
  // (detail/invoke/pipeline.hpp, decode_enum).
  r = run_mirror_pad({3, 2}, {1, 2, 3, 4, 5, 6}, {0, 0, 0, 0}, 7);
  EXPECT_NE(r.log.find("param 'mode': 7 is not the value of one of the enum's names (REFLECT = 0, SYMMETRIC = 1)"),
            std::string::npos)
      << r.log;
}

}  // namespace
