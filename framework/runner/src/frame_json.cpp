#include "frame_json.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace vg::runner {

namespace {

/// @p v to @p digits significant digits: JSON shows 0.8689, not 0.8689121007919312.
double significant(double v, int digits) {
  if (v == 0.0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

// Scores to 4 significant digits; coordinates (source pixels) to 6, i.e. 0.01 px up to 9999 px.
constexpr int kScoreDigits = 4;
constexpr int kPixelDigits = 6;

/// The frame's stages (--stage-times) as the "stages" member of its line.
void add_stages(nlohmann::ordered_json& j, const service::StageTimes* stages) {
  if (stages != nullptr) j["stages"] = nlohmann::ordered_json::parse(service::stage_times_json(*stages));
}

}  // namespace

std::string detections_json(std::uint64_t frame, const FrameRecord& rec, const detection::DetectionPacket& pkt,
                            const service::StageTimes* stages) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  if (rec.file[0] != '\0') j["file"] = rec.file.data();
  j["timestamp_ns"] = rec.timestamp_ns;
  if (rec.capture_ns > 0) j["capture_ns"] = rec.capture_ns;
  if (rec.latency_ns > 0) j["latency_ms"] = std::round(static_cast<double>(rec.latency_ns) / 1e3) / 1e3;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const std::uint32_t count = std::min<std::uint32_t>(pkt.count, detection::kMaxDetections);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto& d = pkt.items[i];
    nlohmann::ordered_json det;
    det["class_id"] = d.class_id;
    det["score"] = significant(d.score, kScoreDigits);
    if (d.track_id > 0) det["track_id"] = d.track_id;  // set by vg.detection.track
    det["box"] = {significant(d.x0 * rec.scale_x, kPixelDigits), significant(d.y0 * rec.scale_y, kPixelDigits),
                  significant(d.x1 * rec.scale_x, kPixelDigits), significant(d.y1 * rec.scale_y, kPixelDigits)};
    nlohmann::ordered_json kps = nlohmann::ordered_json::array();
    const int nk = std::clamp(d.num_keypoints, 0, detection::kMaxKeypoints);
    for (int k = 0; k < nk; ++k)
      kps.push_back({significant(d.keypoints[k].x * rec.scale_x, kPixelDigits),
                     significant(d.keypoints[k].y * rec.scale_y, kPixelDigits)});
    det["keypoints"] = std::move(kps);
    list.push_back(std::move(det));
  }
  j["detections"] = std::move(list);
  if (pkt.truncated()) j["truncated"] = true;
  add_stages(j, stages);
  return j.dump();
}

std::string status_json(std::uint64_t frame, const FrameRecord& rec, const char* key, const std::string& value,
                        const service::StageTimes* stages) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  if (rec.file[0] != '\0') j["file"] = rec.file.data();
  j["timestamp_ns"] = rec.timestamp_ns;
  if (std::string(key) == "dropped" || std::string(key) == "aborted") j[key] = true;
  else j[key] = value;
  add_stages(j, stages);
  return j.dump();
}

}  // namespace vg::runner
