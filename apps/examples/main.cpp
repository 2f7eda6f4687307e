// The custom-kernel example: register a C++ kernel in a module, build the graph from YAML, stream two
// frames through it and change the kernel's threshold with a control command in between.
//
//   build/apps/examples/example_bright_spot apps/examples/bright_spot.yaml
//
// Expected output:
//   frame 0: spot [40,30,60,50) score 1.00 (threshold=200)
//   set_threshold 250 -> threshold=250
//   frame 1: no spot (threshold=250)

#include <cstdio>
#include <cstring>

#include "bright_spot.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "apps/examples/bright_spot.yaml";
  try {
    // 1. The application names its built-in modules; the graph file picks the ones it uses.
    vg::yaml::BuildOptions options;
    options.modules["example.bright_spot"] = [] { return example::make_bright_spot_module(); };
    // 2. Parse, adjust (the frame size is `auto` in the file), build and verify.
    vg::yaml::GraphDesc desc = vg::yaml::parse_file(path);
    desc.set_auto_size(100, 80);
    auto loaded = vg::yaml::build(desc, options);
    vg::Graph& graph = loaded->graph();
    const vg::GraphParamId input = loaded->graph_parameter("input");
    const vg::GraphParamId spots = loaded->graph_parameter("detections");
    const vg::DataId frame = graph.data_of(input);

    // 3. Stream: hand the output buffers to the graph, then enqueue frames and dequeue results in order.
    for (std::uint32_t i = 0; i < graph.num_buffers(graph.data_of(spots)); ++i)
      if (graph.enqueue(spots, i) != vg::Status::ok) return 1;
    if (graph.start() != vg::Status::ok) return 1;
    auto run_frame = [&](std::uint32_t buffer) -> const vg::detection::DetectionPacket* {
      vg::ImageView img = graph.image(frame, buffer);
      for (std::uint32_t y = 0; y < img.height(); ++y) {  // a 20x20 square of brightness 220 on black
        std::uint8_t* row = img.plane(0) + y * img.stride(0);
        std::memset(row, 0, img.width() * 3);
        if (y >= 30 && y < 50) std::memset(row + 40 * 3, 220, 20 * 3);
      }
      if (graph.enqueue(input, buffer) != vg::Status::ok) return nullptr;
      vg::DequeuedBuffer in{}, out{};
      if (graph.dequeue(input, in) != vg::Status::ok || graph.dequeue(spots, out) != vg::Status::ok) return nullptr;
      if (out.status != vg::Status::ok) return nullptr;
      const auto* packet = graph.user_data<vg::detection::DetectionPacket>(graph.data_of(spots), out.index);
      (void)graph.enqueue(spots, out.index);  // give the buffer back for a later frame
      return packet;
    };
    auto print = [](int n, const vg::detection::DetectionPacket* p, const char* threshold) {
      if (!p) return false;
      if (p->count == 0) {
        std::printf("frame %d: no spot (%s)\n", n, threshold);
      } else {
        const auto& d = p->items[0];
        std::printf("frame %d: spot [%.0f,%.0f,%.0f,%.0f) score %.2f (%s)\n", n, d.x0, d.y0, d.x1, d.y1, d.score, threshold);
      }
      return true;
    };
    if (!print(0, run_frame(0), "threshold=200")) return 1;

    // 4. A control command by id with an integer payload; it runs between two frames on the node's target.
    vg::CommandReply reply;
    const vg::Status s = graph.send_command(loaded->node("spot"), vg::ControlCommand::make(example::kSetThreshold, std::int64_t{250}),
                                            std::chrono::seconds(1), &reply);
    std::printf("set_threshold 250 -> %.*s\n", static_cast<int>(reply.text().size()), reply.text().data());
    if (s != vg::Status::ok) return 1;
    if (!print(1, run_frame(1), "threshold=250")) return 1;
    (void)graph.stop();
  } catch (const vg::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
