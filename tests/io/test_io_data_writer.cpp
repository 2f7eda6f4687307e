// DataWriter: any graph data object to files per frame (PNG, .npy, JSON lines, raw bytes), every write
// checked, names refused when they could leave the directory.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <cstring>
#include <fstream>
#include <sstream>

#include "io_test_util.hpp"
#include "visiongraph/io/data_writer.hpp"
#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

namespace fs = std::filesystem;

struct Record {
  std::uint32_t a;
  float b;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DataWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx.load_module(vg::examples::make_module());
    image = g.add_data("image", vg::DataMeta::image_of(8, 4, vg::ImageFormat::rgb24));
    tensor = g.add_data("tensor", vg::DataMeta::tensor_of({2, 3}, vg::ElementType::f32));
    scalar = g.add_data("scalar", vg::DataMeta::scalar_of(vg::ElementType::i32));
    record = g.add_data("record", vg::DataMeta::user_data_of<Record>("test.record"));
    auto n = g.add_node("n", "vg.example.nop");
    (void)n;
    g.verify();
  }
  vg::Context ctx;
  vg::Graph g{ctx, "writer"};
  vg::DataId image, tensor, scalar, record;
  vg::io::test::TempDir dir;
};

TEST_F(DataWriterTest, ImagesBecomePngsInTheSourcesColours) {
  const vg::ImageView v = g.image(image, 0);
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) {
      std::uint8_t* px = v.plane(0) + y * v.stride(0) + x * 3;
      px[0] = 200;  // R
      px[1] = static_cast<std::uint8_t>(x * 10);
      px[2] = 7;  // B
    }
  vg::io::DataWriter w(g, image, dir.path, "image");
  w.write(12, 0);
  const cv::Mat back = cv::imread((dir.path / "image" / "000012.png").string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(back.empty());
  ASSERT_EQ(back.cols, 8);
  ASSERT_EQ(back.rows, 4);
  EXPECT_EQ(back.at<cv::Vec3b>(2, 5), cv::Vec3b(7, 50, 200));  // BGR in the file: the same colour
  EXPECT_EQ(w.written(), 1u);
}

TEST_F(DataWriterTest, TensorsBecomeNpyFilesWithDtypeAndShape) {
  float* t = g.tensor(tensor, 0).data_as<float>();
  for (int i = 0; i < 6; ++i) t[i] = 0.5f * static_cast<float>(i);
  vg::io::DataWriter w(g, tensor, dir.path, "tensor");
  w.write(3, 0);
  const std::string npy = slurp(dir.path / "tensor" / "000003.npy");
  ASSERT_GE(npy.size(), 10u);
  EXPECT_EQ(npy.substr(0, 6), "\x93NUMPY");
  const std::size_t header = static_cast<unsigned char>(npy[8]) | (static_cast<unsigned char>(npy[9]) << 8);
  EXPECT_EQ((10 + header) % 64, 0u) << "data must start 64-byte aligned";
  const std::string dict = npy.substr(10, header);
  EXPECT_NE(dict.find("'descr': '<f4'"), std::string::npos) << dict;
  EXPECT_NE(dict.find("'shape': (2,3)"), std::string::npos) << dict;
  EXPECT_EQ(dict.back(), '\n');
  ASSERT_EQ(npy.size(), 10 + header + 6 * sizeof(float));
  float back[6];
  std::memcpy(back, npy.data() + 10 + header, sizeof back);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(back[i], 0.5f * static_cast<float>(i));
}

TEST_F(DataWriterTest, ScalarsBecomeJsonLinesReadAsTheirOwnType) {
  vg::io::DataWriter w(g, scalar, dir.path, "scalar");
  g.scalar(scalar, 0).set(std::int32_t{-42});
  w.write(0, 0);
  g.scalar(scalar, 0).set(std::int32_t{7});
  w.write(1, 0);
  w.close();
  EXPECT_EQ(slurp(dir.path / "scalar.jsonl"), "{\"frame\":0,\"value\":-42}\n{\"frame\":1,\"value\":7}\n");
}

TEST_F(DataWriterTest, UserDataIsWrittenByteForByte) {
  *g.user_data<Record>(record, 0) = Record{0xA1B2C3D4u, 1.5f};
  vg::io::DataWriter w(g, record, dir.path, "record");
  w.write(999999, 0);
  const std::string bin = slurp(dir.path / "record" / "999999.bin");
  ASSERT_EQ(bin.size(), sizeof(Record));
  Record back{};
  std::memcpy(&back, bin.data(), sizeof back);
  EXPECT_EQ(back.a, 0xA1B2C3D4u);
  EXPECT_EQ(back.b, 1.5f);
}

TEST_F(DataWriterTest, NamesThatCouldLeaveTheDirectoryAreRefused) {
  for (const char* bad : {"../x", "a/b", ".hidden", ""})
    EXPECT_THROW(vg::io::DataWriter(g, tensor, dir.path, bad), std::runtime_error) << bad;
}

TEST_F(DataWriterTest, AFullDiskIsAnErrorNamingTheFile) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  vg::io::DataWriter w(g, tensor, dir.path, "tensor");
  fs::create_symlink("/dev/full", dir.path / "tensor" / "000001.npy");
  try {
    w.write(1, 0);
    FAIL() << "a write to a full disk succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("000001.npy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
}

}  // namespace
