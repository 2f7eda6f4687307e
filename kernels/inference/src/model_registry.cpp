#include "model_registry.hpp"

#include <chrono>
#include <filesystem>
#include <system_error>

namespace vg::inference {
namespace {

void append_desc(std::string& out, const TensorDesc& d) {
  out += d.name;
  out += '=';
  out += d.to_text();
  out += ';';
}

}  // namespace

bool make_model_key(const std::string& kind, const std::string& model_path, const std::string& runtime,
                    const BackendOptions& options, ModelKey& key) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path canonical = fs::canonical(model_path, ec);
  if (ec) return false;
  const std::uintmax_t size = fs::file_size(canonical, ec);
  if (ec) return false;
  const fs::file_time_type mtime = fs::last_write_time(canonical, ec);
  if (ec) return false;
  key = ModelKey{};
  key.kind = kind;
  key.path = canonical.string();
  key.runtime = runtime;
  key.size = size;
  key.mtime = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  key.dequantize = options.dequantize;
  key.async = options.async;
  append_desc(key.inputs, options.input);
  for (const TensorDesc& d : options.extra_inputs) append_desc(key.inputs, d);
  return true;
}

ModelRegistry& ModelRegistry::instance() {
  static ModelRegistry registry;
  return registry;
}

void ModelRegistry::prune_locked() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = !it->second.loading && it->second.model.expired() ? entries_.erase(it) : std::next(it);
  }
}

std::pair<std::shared_ptr<SharedModel>, bool> ModelRegistry::acquire(
    const ModelKey& key, const std::function<std::shared_ptr<SharedModel>()>& load) {
  std::unique_lock<std::mutex> lock(mutex_);
  prune_locked();
  for (;;) {
    Entry& e = entries_[key];
    if (std::shared_ptr<SharedModel> live = e.model.lock()) return {std::move(live), false};
    if (!e.loading) break;
    loaded_.wait(lock);  // another verify is loading this key: take its model (or load if it failed)
  }
  entries_[key].loading = true;
  lock.unlock();
  std::shared_ptr<SharedModel> model;
  try {
    model = load();
  } catch (...) {
    lock.lock();
    entries_.erase(key);
    loaded_.notify_all();
    throw;
  }
  lock.lock();
  Entry& e = entries_[key];
  e.loading = false;
  e.model = model;
  loaded_.notify_all();
  return {std::move(model), true};
}

}  // namespace vg::inference
