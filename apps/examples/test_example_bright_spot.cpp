// The custom-kernel example through the `visiongraph` command: its module loaded from the shared
// library named in the graph file, run on an image and on a video with a live control command.

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

int run(const std::string& command) { return WEXITSTATUS(std::system((command + " >/dev/null 2>&1").c_str())); }

std::vector<nlohmann::json> read_jsonl(const fs::path& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

cv::Mat square_image(int value) {
  cv::Mat img(80, 100, CV_8UC3, cv::Scalar::all(0));
  img(cv::Rect(40, 30, 20, 20)).setTo(cv::Scalar::all(value));
  return img;
}

class BrightSpotExampleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("vg_example_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::string base() const {
    return std::string(VG_CLI_PATH) + " run " + VG_EXAMPLE_DIR + "/bright_spot_library.yaml --no-progress --set VG_MODULE_DIR=" +
           VG_MODULE_DIR;
  }
  fs::path dir;
};

TEST_F(BrightSpotExampleTest, TheLibraryModuleFindsTheSquareInAnImage) {
  ASSERT_TRUE(cv::imwrite((dir / "square.png").string(), square_image(230)));
  ASSERT_EQ(run(base() + " --input " + (dir / "square.png").string() + " -o " + (dir / "out").string()), 0);
  const auto lines = read_jsonl(dir / "out" / "detections.jsonl");
  ASSERT_EQ(lines.size(), 1u);
  ASSERT_EQ(lines[0]["detections"].size(), 1u);
  const auto box = lines[0]["detections"][0]["box"].get<std::vector<double>>();
  EXPECT_EQ(box, (std::vector<double>{40, 30, 60, 50}));
  EXPECT_DOUBLE_EQ(lines[0]["detections"][0]["keypoints"][0][0].get<double>(), 50.0);
}

// The README's command, as written: from the repository root, the graph file by its relative path and
// the module directory as $PWD/<build dir>/apps/examples (expanded by the shell).
TEST_F(BrightSpotExampleTest, TheReadmeCommandRunsAsWritten) {
  ASSERT_TRUE(cv::imwrite((dir / "square.png").string(), square_image(230)));
  const fs::path root = fs::path(VG_EXAMPLE_DIR).parent_path().parent_path();
  const std::string module_dir = fs::relative(VG_MODULE_DIR, root).string();
  const std::string command = "cd " + root.string() + " && " + VG_CLI_PATH +
                              " run apps/examples/bright_spot_library.yaml --set VG_MODULE_DIR=$PWD/" + module_dir +
                              " --input " + (dir / "square.png").string() + " --no-progress -o " + (dir / "out").string();
  ASSERT_EQ(run(command), 0) << command;
  EXPECT_EQ(read_jsonl(dir / "out" / "detections.jsonl").size(), 1u);
  // The form the README used to show (a path relative to the current directory) fails, naming the file.
  const std::string relative = "cd " + root.string() + " && " + VG_CLI_PATH +
                               " run apps/examples/bright_spot_library.yaml --set VG_MODULE_DIR=" + module_dir +
                               " --input " + (dir / "square.png").string() + " --no-progress -o " + (dir / "out2").string();
  EXPECT_NE(run(relative), 0);
  std::ifstream readme(root / "apps" / "examples" / "README.md");
  const std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("bright_spot_library.yaml --set VG_MODULE_DIR=$PWD/build/apps/examples"), std::string::npos)
      << "the README shows the command this test runs";
  // The top-level README shows the graph file itself (its comments aside) and the same command.
  std::ifstream top_readme(root / "README.md");
  const std::string top((std::istreambuf_iterator<char>(top_readme)), std::istreambuf_iterator<char>());
  std::ifstream graph_file(root / "apps" / "examples" / "bright_spot_library.yaml");
  std::string graph;
  for (std::string line; std::getline(graph_file, line);)
    if (line.rfind('#', 0) != 0) graph += line + "\n";
  EXPECT_NE(top.find("```yaml\n" + graph + "```"), std::string::npos) << "README.md shows bright_spot_library.yaml as it is";
  EXPECT_NE(top.find("visiongraph run apps/examples/bright_spot_library.yaml --set VG_MODULE_DIR=$PWD/build/apps/examples"),
            std::string::npos);
}

TEST_F(BrightSpotExampleTest, ALiveSetThresholdCommandChangesTheDetectionsOfAVideo) {
  const fs::path video = dir / "squares.avi";
  {
    cv::VideoWriter w(video.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25, cv::Size(100, 80));
    ASSERT_TRUE(w.isOpened());
    for (int i = 0; i < 150; ++i) w.write(square_image(225));
  }
  const fs::path sock = dir / "ctl.sock";
  // --realtime paces the 150 frames over 6 s, leaving time for the command.
  std::thread runner([&] {
    EXPECT_EQ(run(base() + " --realtime --input " + video.string() + " -o " + (dir / "out").string() + " --control " + sock.string()), 0);
  });
  bool sent = false;
  for (int i = 0; i < 100 && !sent; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (fs::exists(sock) && i > 20)
      sent = run(std::string(VG_CLI_PATH) + " ctl " + sock.string() + " spot set_threshold 250") == 0;
  }
  runner.join();
  ASSERT_TRUE(sent) << "the control command was not accepted";
  const auto lines = read_jsonl(dir / "out" / "detections.jsonl");
  ASSERT_EQ(lines.size(), 150u);
  std::size_t before = 0, after = 0, with = 0;
  for (const auto& l : lines) {
    if (l.contains("dropped")) continue;
    const bool found = !l["detections"].empty();
    with += found;
    if (found && after > 0) ADD_FAILURE() << "a spot after the threshold was raised, frame " << l["frame"];
    (found ? before : after) += 1;
  }
  EXPECT_GT(before, 0u);
  EXPECT_GT(after, 0u);
}

}  // namespace
