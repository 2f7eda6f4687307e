// End to end through `visiongraph run` with apps/face_detect/face_detect.yaml on real media (skipped when
// scripts/fetch_assets.sh has not been run): faces where they are, valid JSON Lines, a readable annotated
// video, and a live control command changing the detections.

#include <gtest/gtest.h>
#include <unistd.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <filesystem>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli_files.hpp"
#include "cli_runner.hpp"

namespace {

using vg::test::run_cli;
namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kFace = VG_SOURCE_DIR "/apps/face_detect/face_detect.yaml";

using vg::test::read_jsonl;

struct Box {
  double x0, y0, x1, y1;
  double cx() const { return (x0 + x1) / 2; }
  double cy() const { return (y0 + y1) / 2; }
};
Box box_of(const json& det) {
  const auto b = det["box"].get<std::vector<double>>();
  return {b[0], b[1], b[2], b[3]};
}

class FaceDetectCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!vg::test::have_assets({"face_detection_back_256x256_barracuda.onnx", "messi5.jpg", "Megamind.avi"}))
      GTEST_SKIP() << "BlazeFace models or sample media missing in " << vg::test::assets_dir()
                   << ": run scripts/fetch_assets.sh (or set VG_ASSETS_DIR)";
    out = fs::temp_directory_path() / ("vg_cli_face_" + std::to_string(::getpid()) + "_" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out);
  }
  std::string asset(const char* name) const { return (vg::test::assets_dir() / name).string(); }
  fs::path out;
};

/// Significant digits of the number written right after the first @p key in @p line (-1: no key).
int significant_digits_after(const std::string& line, const std::string& key) {
  const auto at = line.find(key);
  if (at == std::string::npos) return -1;
  int digits = 0;
  bool leading = true;
  for (std::size_t i = at + key.size(); i < line.size(); ++i) {
    const char c = line[i];
    if (c == '-' || c == '.') continue;
    if (c < '0' || c > '9') break;  // ',', ']', '}' or an exponent: the mantissa ends
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

TEST_F(FaceDetectCliTest, MessiImageFaceBoxAndKeypointsAreWhereTheFaceIs) {
  const auto r = run_cli("run " + kFace + " --no-progress --input " + asset("messi5.jpg") + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("letterbox"), std::string::npos) << "per-node table printed";
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["frame"], 0);
  ASSERT_EQ(lines[0]["detections"].size(), 1u) << lines[0].dump();
  const json& face = lines[0]["detections"][0];
  // Checked by eye on the annotated output (messi5.png): the face spans about x 222..258, y 96..133,
  // eyes near (236, 107) and (251, 107) (subject's right eye on the image left), mouth near (247, 123).
  const Box b = box_of(face);
  EXPECT_NEAR(b.cx(), 240, 8);
  EXPECT_NEAR(b.cy(), 114, 8);
  EXPECT_NEAR(b.x1 - b.x0, 36, 10);
  EXPECT_GT(face["score"].get<double>(), 0.7);
  const auto kps = face["keypoints"].get<std::vector<std::vector<double>>>();
  ASSERT_EQ(kps.size(), 6u);
  EXPECT_NEAR(kps[0][0], 236, 6);
  EXPECT_NEAR(kps[0][1], 106, 6);
  EXPECT_NEAR(kps[1][0], 251, 6);
  EXPECT_NEAR(kps[1][1], 106, 6);
  EXPECT_LT(kps[0][0], kps[1][0]);
  EXPECT_GT(kps[3][1], kps[2][1]) << "mouth below the nose";
  // The numbers as written: scores to 4 significant digits, pixels to 6 (0.8689, not 0.8689121007919312).
  std::string raw;
  std::getline(std::ifstream(out / "detections.jsonl"), raw);
  EXPECT_LE(significant_digits_after(raw, "\"score\":"), 4) << raw;
  EXPECT_LE(significant_digits_after(raw, "\"box\":["), 6) << raw;
  EXPECT_LE(significant_digits_after(raw, "\"keypoints\":[["), 6) << raw;
  const cv::Mat annotated = cv::imread((out / "messi5.png").string());
  ASSERT_FALSE(annotated.empty());
  EXPECT_EQ(annotated.size(), cv::Size(548, 342));
  EXPECT_TRUE(fs::exists(out / "trace.json"));
  fs::remove_all(out);
}

TEST_F(FaceDetectCliTest, MegamindVideoGivesOneLinePerFrameInOrderAndAReadableAnnotatedVideo) {
  const auto r = run_cli("run " + kFace + " --no-progress --input " + asset("Megamind.avi") + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 270u);
  std::size_t with_faces = 0;
  std::int64_t last_ts = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const json& l = lines[i];
    ASSERT_EQ(l["frame"].get<std::size_t>(), i);
    ASSERT_FALSE(l.contains("dropped")) << "a file input with back-pressure drops nothing";
    ASSERT_TRUE(l["detections"].is_array());
    EXPECT_GT(l["timestamp_ns"].get<std::int64_t>(), last_ts);
    last_ts = l["timestamp_ns"].get<std::int64_t>();
    with_faces += !l["detections"].empty();
    for (const json& d : l["detections"]) {
      const Box b = box_of(d);
      EXPECT_GE(b.x0, 0);
      EXPECT_LE(b.x1, 720);
      EXPECT_GE(b.y0, 0);
      EXPECT_LE(b.y1, 528);
      EXPECT_EQ(d["keypoints"].size(), 6u);
    }
  }
  EXPECT_GT(with_faces, 200u) << "faces are on screen in most of the clip";
  // The tracker (vg.detection.track, min_hits 3): the clip has four shots (cuts before frames 98, 154 and
  // 200; the last one a close-up of the man with glasses where the woman was, checked by eye on the annotated
  // video). Each face gets its id on its third frame and keeps it to the end of its shot: the woman and the
  // man of the first shot two ids for frames 3..97, then one id per shot; no id moves from one face to
  // another (a switch would show as a jump of its box).
  std::map<int, std::pair<std::size_t, std::size_t>> id_frames;  // id -> first, last frame
  std::map<int, Box> last_box;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::set<int> in_frame;
    for (const json& d : lines[i]["detections"]) {
      const int id = d.value("track_id", 0);
      if (id == 0) continue;
      EXPECT_TRUE(in_frame.insert(id).second) << "id " << id << " twice in frame " << i;
      const Box b = box_of(d);
      if (auto it = last_box.find(id); it != last_box.end()) {
        EXPECT_LT(std::abs(b.cx() - it->second.cx()) + std::abs(b.cy() - it->second.cy()), 40) << "id " << id << " jumped at frame " << i;
      }
      last_box[id] = b;
      id_frames.try_emplace(id, i, i).first->second.second = i;
    }
  }
  ASSERT_EQ(id_frames.size(), 5u) << "two faces in the first shot, one in each of the three others";
  EXPECT_EQ(id_frames.begin()->second.first, 3u);
  EXPECT_EQ(lines[50]["detections"].size(), 2u);
  EXPECT_EQ(lines[50]["detections"][0].value("track_id", 0) + lines[50]["detections"][1].value("track_id", 0), 3)
      << "ids 1 and 2 in the first shot";
  EXPECT_GE(std::prev(id_frames.end())->second.second, 260u) << "the last shot's face keeps its id to the end";
  // Checked by eye on frames 1 and 135 of the annotated video (the test writes them as
  // /tmp/vg_cli_megamind_{1,135,260}.png): frame 1 shows a woman's face on the left (about x 200..337,
  // y 183..321) and a man's face in the background on the right (about x 422..493, y 203..273);
  // frame 135 shows a man with glasses on the right (about x 420..583, y 181..344), eyes near y 230.
  const auto& f1 = lines[1]["detections"];
  ASSERT_EQ(f1.size(), 2u) << f1.dump();
  Box woman = box_of(f1[0]), man = box_of(f1[1]);
  if (woman.cx() > man.cx()) std::swap(woman, man);
  EXPECT_NEAR(woman.cx(), 268, 20);
  EXPECT_NEAR(woman.cy(), 252, 20);
  EXPECT_NEAR(woman.x1 - woman.x0, 138, 30);
  EXPECT_NEAR(man.cx(), 457, 20);
  EXPECT_NEAR(man.cy(), 238, 20);
  const auto& f135 = lines[135]["detections"];
  ASSERT_EQ(f135.size(), 1u) << f135.dump();
  const Box glasses = box_of(f135[0]);
  EXPECT_NEAR(glasses.cx(), 502, 20);
  EXPECT_NEAR(glasses.cy(), 263, 20);
  const auto eyes = f135[0]["keypoints"].get<std::vector<std::vector<double>>>();
  EXPECT_NEAR(eyes[0][0], 451, 12);
  EXPECT_NEAR(eyes[1][0], 519, 12);
  EXPECT_NEAR(eyes[0][1], 231, 12);
  cv::VideoCapture cap((out / "annotated.mp4").string());
  ASSERT_TRUE(cap.isOpened());
  int frames = 0;
  cv::Mat frame;
  while (cap.read(frame)) {
    EXPECT_EQ(frame.size(), cv::Size(720, 528));
    if (frames == 1 || frames == 135 || frames == 260)
      cv::imwrite((fs::temp_directory_path() / ("vg_cli_megamind_" + std::to_string(frames) + ".png")).string(), frame);
    ++frames;
  }
  EXPECT_EQ(frames, 270);
  fs::remove_all(out);
}

TEST_F(FaceDetectCliTest, RealtimeInputFasterThanTheGraphReportsDroppedFramesInOrder) {
  // 60 frames declared at 300 fps: paced at that rate the graph (~30 frames/s here) cannot keep up,
  // so latest-wins replaces waiting frames; each one is reported as dropped, in frame order.
  const fs::path video = out.string() + "_fast.avi";
  {
    const cv::Mat messi = cv::imread(asset("messi5.jpg"));
    cv::VideoWriter w(video.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 300, messi.size());
    ASSERT_TRUE(w.isOpened());
    for (int i = 0; i < 60; ++i) w.write(messi);
  }
  const auto r = run_cli("run " + kFace + " --no-progress --realtime --input " + video.string() + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 60u);
  std::size_t dropped = 0, processed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["frame"].get<std::size_t>(), i);
    if (lines[i].contains("dropped")) {
      EXPECT_TRUE(lines[i]["dropped"].get<bool>());
      EXPECT_FALSE(lines[i].contains("detections"));
      ++dropped;
    } else {
      EXPECT_EQ(lines[i]["detections"].size(), 1u) << "messi's face in every processed frame";
      ++processed;
    }
  }
  EXPECT_GT(dropped, 0u);
  EXPECT_GT(processed, 0u);
  EXPECT_NE(r.output.find(std::to_string(dropped) + " dropped"), std::string::npos) << r.output;
  fs::remove(video);
  fs::remove_all(out);
}

TEST_F(FaceDetectCliTest, DmabufMemoryForTheNpuTargetGivesTheSameFace) {
  const auto r = run_cli("run " + kFace + " --no-progress --dmabuf --input " + asset("messi5.jpg") + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("NPU memory (npu0): "), std::string::npos) << r.output;
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0]["detections"].size(), 1u);
  EXPECT_NEAR(box_of(lines[0]["detections"][0]).cx(), 240, 8);
  fs::remove_all(out);
}

TEST_F(FaceDetectCliTest, HostMemoryIsTheDefaultWithoutAnNpuAndNoDmabufKeepsIt) {
  // No rknpu device here: the default keeps host memory (nothing printed about NPU memory).
  for (const char* flag : {"", " --no-dmabuf"}) {
    const auto r = run_cli("run " + kFace + " --no-progress" + flag + " --input " + asset("messi5.jpg") + " -o " + out.string());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(r.output.find("NPU memory (npu0): "), std::string::npos) << r.output;
    EXPECT_EQ(read_jsonl(out / "detections.jsonl")[0]["detections"].size(), 1u);
    fs::remove_all(out);
  }
}

TEST_F(FaceDetectCliTest, FramesOptionStopsEarly) {
  const auto r = run_cli("run " + kFace + " --no-progress --frames 5 --input " + asset("Megamind.avi") + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_jsonl(out / "detections.jsonl").size(), 5u);
  fs::remove_all(out);
}

TEST_F(FaceDetectCliTest, ADirectoryOfImagesGivesOneAnnotatedImageEach) {
  const fs::path in = out.string() + "_in";
  fs::create_directories(in);
  const cv::Mat messi = cv::imread(asset("messi5.jpg"));
  cv::imwrite((in / "a.png").string(), messi);
  cv::Mat big;
  cv::resize(messi, big, cv::Size(), 2.0, 2.0);
  cv::imwrite((in / "b.png").string(), big);  // another size: resized in, boxes mapped back
  const auto r = run_cli("run " + kFace + " --no-progress --input " + in.string() + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 2u);
  ASSERT_EQ(lines[1]["detections"].size(), 1u);
  const Box b = box_of(lines[1]["detections"][0]);
  EXPECT_NEAR(b.cx(), 480, 16);
  EXPECT_NEAR(b.cy(), 228, 16);
  EXPECT_TRUE(fs::exists(out / "a.png"));
  EXPECT_TRUE(fs::exists(out / "b.png"));
  fs::remove_all(out);
  fs::remove_all(in);
}

// Each line names its file; two files of one stem (a.jpg, a.png) give two annotated images, neither
// replacing the other; an unreadable file ends the run, or is skipped with --allow-partial.
TEST_F(FaceDetectCliTest, ImageFoldersNameTheirFilesAndSkipUnreadableOnesWhenAllowed) {
  const fs::path in = out.string() + "_in";
  fs::create_directories(in);
  const cv::Mat messi = cv::imread(asset("messi5.jpg"));
  cv::imwrite((in / "a.jpg").string(), messi);
  cv::imwrite((in / "a.png").string(), messi);
  std::ofstream(in / "b.jpg") << "not a JPEG at all";
  cv::imwrite((in / "c.png").string(), messi);

  const auto strict = run_cli("run " + kFace + " --no-progress --input " + in.string() + " -o " + out.string());
  EXPECT_EQ(strict.code, 1) << strict.output;
  EXPECT_NE(strict.output.find("b.jpg: cannot decode the image"), std::string::npos) << strict.output;

  fs::remove_all(out);
  const auto r = run_cli("run " + kFace + " --no-progress --allow-partial --input " + in.string() + " -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("skipped " + in.string() + "/b.jpg: cannot decode the image (--allow-partial)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 unreadable input(s) skipped"), std::string::npos) << r.output;
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["file"], "a.jpg");
  EXPECT_EQ(lines[1]["file"], "a.png");
  EXPECT_EQ(lines[2]["file"], "c.png");
  for (const auto& line : lines) EXPECT_EQ(line["detections"].size(), 1u) << line.dump();
  EXPECT_TRUE(fs::exists(out / "a.png"));
  EXPECT_TRUE(fs::exists(out / "a.png.png")) << "the second 'a' did not replace the first";
  EXPECT_TRUE(fs::exists(out / "c.png"));
  fs::remove_all(out);
  fs::remove_all(in);
}

TEST_F(FaceDetectCliTest, LiveControlRaisesTheThresholdAndTheDetectionsStop) {
  const fs::path sock = fs::temp_directory_path() / ("vg_cli_ctl_" + std::to_string(::getpid()) + ".sock");
  int run_code = -1;
  std::string run_output;
  std::thread runner([&] {
    const auto r = run_cli("run " + kFace + " --no-progress --realtime --input " + asset("Megamind.avi") + " -o " +
                           out.string() + " --control " + sock.string());
    run_code = r.code;
    run_output = r.output;
  });
  for (int i = 0; i < 200 && !fs::exists(sock); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(fs::exists(sock)) << "the control socket did not appear";
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // some frames with faces first
  const std::string ctl = "ctl " + sock.string() + " ";
  const auto bad = run_cli(ctl + "decode set_score_threshold high");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.output.find("expects a number argument"), std::string::npos) << bad.output;
  const auto unknown = run_cli(ctl + "decode explode");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_NE(unknown.output.find("has no command 'explode'"), std::string::npos) << unknown.output;
  EXPECT_EQ(run_cli(ctl + "nobody get_settings").code, 1);
  const auto help = run_cli(ctl + "help");
  EXPECT_EQ(help.code, 0);
  // ctl prints the help reply as a table: node, kernel, commands with their payload kinds.
  EXPECT_NE(help.output.find("decode      vg.detection.postprocess   set_score_threshold (number)"), std::string::npos)
      << help.output;
  const auto set = run_cli(ctl + "decode set_score_threshold 0.999");
  EXPECT_EQ(set.code, 0) << set.output;
  EXPECT_NE(set.output.find("score_threshold=0.999"), std::string::npos) << set.output;
  runner.join();
  ASSERT_EQ(run_code, 0) << run_output;
  EXPECT_FALSE(fs::exists(sock)) << "the socket is removed at the end";
  const auto lines = read_jsonl(out / "detections.jsonl");
  ASSERT_EQ(lines.size(), 270u) << "every frame is reported, dropped ones too";
  // Faces are detected (score ~0.9) until the command lands; then none pass 0.999.
  std::size_t before = 0, after = 0;
  bool switched = false;
  for (const json& l : lines) {
    ASSERT_EQ(l["frame"].get<std::size_t>(), &l - &lines[0]);
    if (l.contains("dropped")) continue;
    const bool faces = !l["detections"].empty();
    if (!faces && before > 10) switched = true;
    if (switched) {
      EXPECT_FALSE(faces) << "frame " << l["frame"] << " after the threshold was raised";
      ++after;
    } else if (faces) {
      ++before;
    }
  }
  EXPECT_GT(before, 10u);
  EXPECT_GT(after, 10u);
  fs::remove_all(out);
}


#if defined(VG_FAKE_RKNNRT_PATH)
// The graphs that take an .rknn model with u8 input (as README and docs/npu.md say), run by the command
// against the stand-in runtime with a stand-in model of the real models' shapes: the letterbox writes u8
// NHWC bytes, librknnrt's calls are made, and the outputs reach the decoder as f32 (dequantize).
TEST_F(FaceDetectCliTest, RknnFormsOfTheFaceAndYoloGraphsTakeU8InputOnTheStandInRuntime) {
  const fs::path dir = fs::temp_directory_path() / ("vg_cli_rknn_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Case {
    std::string graph, variable, model;
  };
  const Case cases[] = {
      {VG_SOURCE_DIR "/apps/face_detect/face_detect_rknn.yaml", "FACE_MODEL",
       "input 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n"},
      {VG_SOURCE_DIR "/apps/yolo/yolov8_rknn.yaml", "YOLO_MODEL", "input 1 640 640 3\noutput 1 84 8400\n"}};
  for (const Case& c : cases) {
    const fs::path model = dir / (c.variable + ".rknn");
    std::ofstream(model) << "fake-rknn\n" << c.model;
    const fs::path run_out = dir / c.variable;
    const auto r = run_cli("run " + c.graph + " --no-progress --set " + c.variable + "=" + model.string() + " --input " +
                               asset("messi5.jpg") + " -o " + run_out.string(),
                           "VG_RKNNRT_PATH=" + std::string(VG_FAKE_RKNNRT_PATH));
    ASSERT_EQ(r.code, 0) << c.graph << "\n" << r.output;
    EXPECT_NE(r.output.find("1 frames completed, 0 failed"), std::string::npos) << r.output;
    ASSERT_EQ(read_jsonl(run_out / "detections.jsonl").size(), 1u) << r.output;
    // With DMA-BUF memory (the default on a board) the u8 tensor is bound as it is: no copy, no conversion.
    const auto dmabuf = run_cli("run " + c.graph + " --no-progress --dmabuf --set " + c.variable + "=" + model.string() +
                                    " --input " + asset("messi5.jpg") + " -o " + run_out.string(),
                                "VG_RKNNRT_PATH=" + std::string(VG_FAKE_RKNNRT_PATH));
    ASSERT_EQ(dmabuf.code, 0) << dmabuf.output;
    EXPECT_EQ(dmabuf.output.find("copied or converted"), std::string::npos) << dmabuf.output;
    // Without the model variable the graph says which one to set.
    const auto missing = run_cli("verify " + c.graph + " --size 640x480");
    EXPECT_NE(missing.code, 0);
    EXPECT_NE(missing.output.find(c.variable), std::string::npos) << missing.output;
  }
  fs::remove_all(dir);
}

#if defined(VG_FAKE_LIBRGA_PATH)
// The .rknn face graph letterboxes with vg.rga.letterbox: on the RGA where librga and its device exist
// (here the stand-in librga, and /dev/null standing for /dev/rga), on the CPU otherwise; the run's log
// says which, and why the CPU.
TEST_F(FaceDetectCliTest, TheRknnFaceGraphLetterboxesOnRgaWhereLibrgaAndTheDeviceExistAndSaysWhichEngineRan) {
  const fs::path dir = fs::temp_directory_path() / ("vg_cli_rga_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path model = dir / "face.rknn";
  std::ofstream(model) << "fake-rknn\ninput 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n";
  const std::string args = "run " VG_SOURCE_DIR "/apps/face_detect/face_detect_rknn.yaml --no-progress --dmabuf --frames 3"
                           " --set FACE_MODEL=" + model.string() + " --input " + asset("Megamind.avi") + " -o " + dir.string();
  const std::string runtime = "VG_RKNNRT_PATH=" + std::string(VG_FAKE_RKNNRT_PATH) +
                              " VG_LIBRGA_PATH=" + std::string(VG_FAKE_LIBRGA_PATH);
  const auto rga = run_cli(args, runtime + " VG_RGA_DEVICE=/dev/null");
  ASSERT_EQ(rga.code, 0) << rga.output;
  EXPECT_NE(rga.output.find("visiongraph run: letterbox: engine=rga"), std::string::npos) << rga.output;
  EXPECT_NE(rga.output.find("3 frames completed, 0 failed"), std::string::npos) << rga.output;
  EXPECT_EQ(read_jsonl(dir / "detections.jsonl").size(), 3u);
  const auto cpu = run_cli(args, runtime + " VG_RGA_DEVICE=/nonexistent/rga");
  ASSERT_EQ(cpu.code, 0) << cpu.output;
  EXPECT_NE(cpu.output.find("visiongraph run: letterbox: engine=cpu"), std::string::npos) << cpu.output;
  EXPECT_NE(cpu.output.find("why=no RGA device (/nonexistent/rga does not exist"), std::string::npos) << cpu.output;
  fs::remove_all(dir);
}
#endif

// --stage-times: each line says when each node ran the frame and how it ended. On the stand-in runtime
// the process's 3rd rknn_run (frame 1: one warm-up run first) fails with -1: its line names the failed
// stage, the runtime's code and the mask, and the other frames' stages are in order.
TEST_F(FaceDetectCliTest, StageTimesGiveEachNodesTimesAndTheRuntimeCodeOfAFailedRun) {
  const fs::path dir = fs::temp_directory_path() / ("vg_cli_stages_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path model = dir / "face.rknn";
  std::ofstream(model) << "fake-rknn\ninput 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n";
  const auto r = run_cli("run " VG_SOURCE_DIR "/apps/face_detect/face_detect_rknn.yaml --no-progress --stage-times --frames 3"
                         " --set FACE_MODEL=" + model.string() + " --input " + asset("Megamind.avi") + " -o " + dir.string(),
                         "FAKE_RKNN_FAIL_RUN_AT=3 VG_RKNNRT_PATH=" + std::string(VG_FAKE_RKNNRT_PATH));
  EXPECT_EQ(r.code, 1) << "a frame failed\n" << r.output;
  const auto lines = read_jsonl(dir / "detections.jsonl");
  ASSERT_EQ(lines.size(), 3u) << r.output;
  for (std::size_t f = 0; f < 3; ++f) {
    const json& line = lines[f];
    ASSERT_TRUE(line.contains("stages")) << line.dump();
    const json& st = line["stages"];
    ASSERT_GE(st["stages"].size(), 2u) << st.dump();
    EXPECT_EQ(st["stages"][0]["node"], "letterbox") << st.dump();
    EXPECT_EQ(st["stages"][1]["node"], "detector") << st.dump();
    EXPECT_GE(st["written_ms"].get<double>(), st["done_ms"].get<double>()) << st.dump();
    if (f == 1) {
      EXPECT_TRUE(line.contains("error")) << line.dump();
      EXPECT_EQ(st["stages"][1]["status"], "inference_error") << st.dump();
      EXPECT_EQ(st["stages"][1]["code"], -1) << st.dump();
      EXPECT_EQ(st["runtime_code"], -1);
      EXPECT_EQ(st["failed_mask"], 2);
    } else {
      EXPECT_TRUE(line.contains("detections")) << line.dump();
      // letterbox, detector, decode; the overlay too when it had run by the time the line was written
      ASSERT_GE(st["stages"].size(), 3u) << st.dump();
      EXPECT_EQ(st["stages"][2]["node"], "decode");
      for (const auto& stage : st["stages"]) EXPECT_EQ(stage["status"], "ok") << st.dump();
      EXPECT_GE(st["stages"][1]["start_ms"].get<double>(),
                st["stages"][0]["start_ms"].get<double>() + st["stages"][0]["ms"].get<double>() - 0.001)
          << "the detector starts after the letterbox it reads" << st.dump();
      EXPECT_EQ(st["runtime_code"], 0);
    }
  }
  fs::remove_all(dir);
}

// `doctor --board` with the face model's shape on the stand-in runtime, as on an RK3588 (VG_NPU_CORES=3):
// a frame on each core passes; this machine has no rknpu driver and no DMA heap, so the report says so
// and the command exits 1.
TEST_F(FaceDetectCliTest, DoctorBoardRunsTheFaceModelOnEachNpuCoreAndReportsWhatIsMissing) {
  const fs::path model = fs::temp_directory_path() / ("vg_cli_board_" + std::to_string(::getpid()) + ".rknn");
  std::ofstream(model) << "fake-rknn\ninput 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n";
  const std::string env = "VG_NPU_CORES=3 VG_RKNNRT_PATH=" + std::string(VG_FAKE_RKNNRT_PATH);
  const auto r = run_cli("doctor --board --model " + model.string(), env);
  EXPECT_EQ(r.code, 1) << "a check failed: no NPU here\n" << r.output;
  for (const char* line : {"board report (visiongraph doctor --board --model ", "\nkernel: Linux ",
                           "\nFAIL  rknpu driver: no NPU", "\nPASS  SoC and NPU cores: unnamed SoC, 3 cores (VG_NPU_CORES)",
                           "\nPASS  librknnrt: 1.6.0", "\nFAIL  DMA-BUF bound with rknn_create_mem_from_fd: 196608 bytes from memfd bound, but it is not a DMA-BUF",
                           "\nPASS  frame on NPU core 0: ", "\nPASS  frame on NPU core 1: ", "\nPASS  frame on NPU core 2: ",
                           "\nSKIP  RGA letterbox vs the CPU one: ", "checks failed"}) {
    EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
  }
  const auto no_model = run_cli("doctor --board", env);
  EXPECT_EQ(no_model.code, 1);
  EXPECT_NE(no_model.output.find("SKIP  frames on the NPU cores: needs --model M.rknn"), std::string::npos) << no_model.output;
  fs::remove(model);
}
#endif

}  // namespace
