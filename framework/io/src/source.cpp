// Source::open: decide what a spec names, check what can be checked before GStreamer starts (a missing
// file or device gives a plain message instead of a pipeline error), then open the matching source.

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>

#include "sources.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io {

namespace {

namespace fs = std::filesystem;

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

bool is_image_file(const fs::path& path) {
  static constexpr std::array<std::string_view, 13> kImageExtensions = {
      ".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".pgm", ".ppm", ".pbm", ".pnm", ".jp2", ".dib"};
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(kImageExtensions.begin(), kImageExtensions.end(), ext) != kImageExtensions.end();
}

const char* gst_format_name(ImageFormat format) {
  switch (format) {
    case ImageFormat::bgr24: return "BGR";
    case ImageFormat::rgb24: return "RGB";
    case ImageFormat::gray8: return "GRAY8";
    case ImageFormat::nv12: return "NV12";
  }
  return "BGR";
}

// "videoconvert ! [videoscale !] video/x-raw,format=F[,width=W][,height=H] ! appsink name=vgsink":
// one explicit conversion that becomes a passthrough when upstream already delivers what is asked.
std::string conversion_tail(const SourceOptions& options) {
  const bool scale = options.width != 0 || options.height != 0;
  std::string tail = "videoconvert name=vgconvert ! ";
  if (scale) tail += "videoscale name=vgscale ! ";
  tail += std::string("video/x-raw,format=") + gst_format_name(options.format);
  if (options.width != 0) tail += ",width=" + std::to_string(options.width);
  if (options.height != 0) tail += ",height=" + std::to_string(options.height);
  tail += " ! appsink name=vgsink";
  return tail;
}

std::string file_uri(const fs::path& path) {
  // Percent-encode what a URI cannot carry as is; '/' stays.
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : fs::absolute(path).string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

std::unique_ptr<Source> open_path(std::string_view spec, const fs::path& path, const SourceOptions& options) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw Error(std::string(spec) + ": not found");
  if (fs::is_directory(status)) {
    std::vector<fs::path> images;
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file() && is_image_file(entry.path())) images.push_back(entry.path());
    if (ec) throw Error(std::string(spec) + ": cannot list the directory: " + ec.message());
    if (images.empty()) throw Error(std::string(spec) + ": the directory holds no image files");
    std::sort(images.begin(), images.end());
    return detail::open_image_source(std::string(spec), SourceKind::image_dir, std::move(images), options);
  }
  if (is_image_file(path))
    return detail::open_image_source(std::string(spec), SourceKind::image, {path}, options);
  detail::GstSourceConfig config;
  config.spec = spec;
  config.kind = SourceKind::video_file;
  config.uri = file_uri(path);
  config.extent = detail::probe_container(path);
  config.launch = "uridecodebin name=vgsrc caps=video/x-raw ! " + conversion_tail(options);
  return detail::open_gst_source(std::move(config), options);
}

}  // namespace

std::string_view to_string(SourceKind kind) noexcept {
  switch (kind) {
    case SourceKind::image: return "image";
    case SourceKind::image_dir: return "image_dir";
    case SourceKind::video_file: return "video_file";
    case SourceKind::rtsp: return "rtsp";
    case SourceKind::http: return "http";
    case SourceKind::v4l2: return "v4l2";
    case SourceKind::pipeline: return "pipeline";
  }
  return "?";
}

std::unique_ptr<Source> Source::open(std::string_view spec, const SourceOptions& options) {
  if (spec.empty()) throw Error("empty source spec");
  if (options.max_buffers == 0) throw Error(std::string(spec) + ": max_buffers must be at least 1");

  detail::GstSourceConfig config;
  config.spec = spec;
  if (starts_with_nocase(spec, "gst:")) {
    config.kind = SourceKind::pipeline;
    config.launch = std::string(spec.substr(4));
    if (config.launch.find_first_not_of(" \t") == std::string::npos)
      throw Error(std::string(spec) + ": empty pipeline after 'gst:'");
    return detail::open_gst_source(std::move(config), options);
  }
  if (starts_with_nocase(spec, "rtsp://") || starts_with_nocase(spec, "rtsps://") ||
      starts_with_nocase(spec, "rtspt://") || starts_with_nocase(spec, "rtspu://")) {
    config.kind = SourceKind::rtsp;
  } else if (starts_with_nocase(spec, "http://") || starts_with_nocase(spec, "https://")) {
    config.kind = SourceKind::http;
  }
  if (config.kind == SourceKind::rtsp || config.kind == SourceKind::http) {
    config.uri = spec;
    config.launch = "uridecodebin name=vgsrc caps=video/x-raw ! " + conversion_tail(options);
    return detail::open_gst_source(std::move(config), options);
  }
  if (starts_with_nocase(spec, "file://")) {
    return open_path(spec, fs::path(std::string(spec.substr(7))), options);
  }
  if (spec.starts_with("/dev/video")) {
    struct stat st {};
    const std::string device(spec);
    if (::stat(device.c_str(), &st) != 0) throw Error(device + ": no such video device");
    if (!S_ISCHR(st.st_mode)) throw Error(device + ": not a video device (not a character device)");
    config.kind = SourceKind::v4l2;
    config.device = device;
    config.launch = "v4l2src name=vgsrc ! " + conversion_tail(options);
    return detail::open_gst_source(std::move(config), options);
  }
  return open_path(spec, fs::path(std::string(spec)), options);
}

}  // namespace vg::io
