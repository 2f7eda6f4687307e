#include "visiongraph/io/data_writer.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace vg::io {

namespace {

namespace fs = std::filesystem;

bool safe_name(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.size() > 200) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

[[noreturn]] void write_failed(const fs::path& file, int error) {
  throw std::runtime_error("writing '" + file.string() + "' failed: " + std::strerror(error ? error : EIO));
}

/// NumPy's dtype string for an element type (all little-endian, as the machines we run on).
const char* npy_descr(ElementType type) {
  switch (type) {
    case ElementType::u8: return "|u1";
    case ElementType::i8: return "|i1";
    case ElementType::u16: return "<u2";
    case ElementType::i16: return "<i2";
    case ElementType::u32: return "<u4";
    case ElementType::i32: return "<i4";
    case ElementType::i64: return "<i8";
    case ElementType::f16: return "<f2";
    case ElementType::f32: return "<f4";
    case ElementType::f64: return "<f8";
  }
  return "|u1";
}

/// The .npy v1.0 header: magic, version, header length, then a Python dict literal padded with spaces
/// and ended by '\n' so that the data starts at a multiple of 64 bytes.
std::string npy_header(const TensorMeta& t) {
  std::string shape = "(";
  for (std::uint32_t i = 0; i < t.rank; ++i) shape += std::to_string(t.dims[i]) + (t.rank == 1 || i + 1 < t.rank ? "," : "");
  shape += ")";
  std::string dict = std::string("{'descr': '") + npy_descr(t.type) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t preamble = 10;  // magic (6) + version (2) + header length (2)
  const std::size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - preamble - dict.size() - 1, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>((dict.size() >> 8) & 0xFF);
  return out + dict;
}

void write_bytes(const fs::path& file, const std::string& head, const void* data, std::size_t size) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (!f) write_failed(file, errno);
  errno = 0;
  bool ok = head.empty() || std::fwrite(head.data(), 1, head.size(), f) == head.size();
  ok = ok && (size == 0 || std::fwrite(data, 1, size, f) == size);
  int error = ok ? 0 : errno;
  if (std::fclose(f) != 0 && ok) {  // a full disk often shows only when the buffer is flushed at close
    ok = false;
    error = errno;
  }
  if (!ok) write_failed(file, error);
}

/// A scalar as JSON text, read as its own type (ScalarView::get does not convert).
std::string scalar_text(const ScalarView& v) {
  char text[64];
  switch (v.type()) {
    case ElementType::u8: return std::to_string(v.get<std::uint8_t>());
    case ElementType::i8: return std::to_string(v.get<std::int8_t>());
    case ElementType::u16: return std::to_string(v.get<std::uint16_t>());
    case ElementType::i16: return std::to_string(v.get<std::int16_t>());
    case ElementType::u32: return std::to_string(v.get<std::uint32_t>());
    case ElementType::i32: return std::to_string(v.get<std::int32_t>());
    case ElementType::i64: return std::to_string(v.get<std::int64_t>());
    case ElementType::f16: return "null";  // no portable half type to print it with
    case ElementType::f32: std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v.get<float>())); return text;
    case ElementType::f64: std::snprintf(text, sizeof text, "%.17g", v.get<double>()); return text;
  }
  return "null";
}

cv::Mat as_bgr_or_gray(const ImageView& view) {
  const int w = static_cast<int>(view.width()), h = static_cast<int>(view.height());
  switch (view.format()) {
    case ImageFormat::bgr24: return cv::Mat(h, w, CV_8UC3, view.plane(0), view.stride(0));
    case ImageFormat::gray8: return cv::Mat(h, w, CV_8UC1, view.plane(0), view.stride(0));
    case ImageFormat::rgb24: {
      cv::Mat bgr;
      cv::cvtColor(cv::Mat(h, w, CV_8UC3, view.plane(0), view.stride(0)), bgr, cv::COLOR_RGB2BGR);
      return bgr;
    }
    case ImageFormat::nv12: {
      // Planes may be apart: gather them into one contiguous NV12 block for OpenCV.
      cv::Mat nv12(h * 3 / 2, w, CV_8UC1);
      cv::Mat(h, w, CV_8UC1, view.plane(0), view.stride(0)).copyTo(nv12.rowRange(0, h));
      cv::Mat(h / 2, w, CV_8UC1, view.plane(1), view.stride(1)).copyTo(nv12.rowRange(h, h * 3 / 2));
      cv::Mat bgr;
      cv::cvtColor(nv12, bgr, cv::COLOR_YUV2BGR_NV12);
      return bgr;
    }
  }
  return {};
}

}  // namespace

DataWriter::DataWriter(const Graph& graph, DataId data, const fs::path& dir, const std::string& name)
    : graph_(graph), data_(data), kind_(graph.meta(data).kind) {
  if (!safe_name(name))
    throw std::runtime_error("'" + name + "' cannot name output files (letters, digits, '_', '-' and '.' only)");
  std::error_code ec;
  if (kind_ == DataKind::scalar) {
    fs::create_directories(dir, ec);
    path_ = dir / (name + ".jsonl");
    if (!ec) lines_.open(path_, std::ios::trunc);
    if (ec || !lines_) write_failed(path_, ec ? ec.value() : errno);
  } else {
    path_ = dir / name;
    fs::create_directories(path_, ec);
    if (ec) throw std::runtime_error("cannot create '" + path_.string() + "': " + ec.message());
  }
}

DataWriter::~DataWriter() {
  try {
    close();
  } catch (const std::exception&) {  // reported by an explicit close(); a destructor must not throw
  }
}

void DataWriter::close() {
  if (!lines_.is_open()) return;
  lines_.flush();
  const bool ok = static_cast<bool>(lines_);
  lines_.close();
  if (!ok) write_failed(path_, errno);
}

fs::path DataWriter::frame_file(std::uint64_t frame, const char* extension) const {
  char name[32];
  std::snprintf(name, sizeof name, "%06llu.%s", static_cast<unsigned long long>(frame), extension);
  return path_ / name;
}

void DataWriter::write(std::uint64_t frame, std::uint32_t buffer) {
  const DataMeta& meta = graph_.meta(data_);
  switch (kind_) {
    case DataKind::image: {
      const ImageView view = graph_.image(data_, buffer);
      const fs::path file = frame_file(frame, "png");
      bool ok = false;
      try {
        ok = cv::imwrite(file.string(), as_bgr_or_gray(view));
      } catch (const cv::Exception& e) {
        throw std::runtime_error("writing '" + file.string() + "' failed: " + e.what());
      }
      if (!ok) write_failed(file, errno);
      break;
    }
    case DataKind::tensor: {
      const TensorView view = graph_.tensor(data_, buffer);
      write_bytes(frame_file(frame, "npy"), npy_header(meta.tensor), view.data(), view.byte_size());
      break;
    }
    case DataKind::scalar: {
      lines_ << "{\"frame\":" << frame << ",\"value\":" << scalar_text(graph_.scalar(data_, buffer)) << "}\n";
      lines_.flush();
      if (!lines_) write_failed(path_, errno);
      break;
    }
    case DataKind::user_data: {
      write_bytes(frame_file(frame, "bin"), {}, graph_.user_data<std::uint8_t>(data_, buffer), meta.user_data.size);
      break;
    }
    case DataKind::array: {
      const ArrayView<std::uint8_t> view = graph_.array<std::uint8_t>(data_, buffer);
      write_bytes(frame_file(frame, "bin"), {}, view.data(), view.size() * meta.array.item_size);
      break;
    }
  }
  ++written_;
}

}  // namespace vg::io
