#pragma once
// The JSON line of one frame in detections.jsonl (and on MQTT, standard output): its detections in the
// source's pixels, or its status (dropped, aborted, error). Field list: docs/cli.md.
#include <cstdint>
#include <string>

#include "frame_record.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/service/run_stats.hpp"

namespace vg::runner {

/// The frame's detections, with its stages when --stage-times (else null).
std::string detections_json(std::uint64_t frame, const FrameRecord& rec, const detection::DetectionPacket& pkt,
                            const service::StageTimes* stages);

/// The frame's status: key "dropped" or "aborted" (true), or "error" with @p value the reason.
std::string status_json(std::uint64_t frame, const FrameRecord& rec, const char* key, const std::string& value,
                        const service::StageTimes* stages = nullptr);

}  // namespace vg::runner
