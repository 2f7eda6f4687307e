#pragma once
/// @file
/// @brief Internal to vg.inference: the process-wide registry of loaded models that graph instances share.

#include <compare>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "visiongraph/kernels/inference/backend.hpp"

namespace vg::inference {

/// The loaded model a registry entry stands for (defined by the kernel, module.cpp).
struct SharedModel;

/// @brief Everything that makes two loads of a model interchangeable: the backend kind, the file (canonical
///        path, size and modification time, so a file replaced on disk loads again) and every BackendOptions
///        field load() depends on (runtime, dequantize, async, the inputs as the graph binds them). Per-node
///        settings that load_replica applies to each context (core_mask) or bind_inputs uses (warmup,
///        timeout_ms, max_imported_buffers, require_zero_copy) are not part of it.
struct ModelKey {
  std::string kind;
  std::string path;     ///< canonical
  std::string runtime;  ///< the runtime library as resolved (rknn), "" otherwise
  std::string inputs;   ///< input and input1..input3 as the graph binds them, as text
  std::uintmax_t size = 0;
  std::int64_t mtime = 0;  ///< ns since the file clock's epoch
  bool dequantize = false;
  bool async = false;
  auto operator<=>(const ModelKey&) const = default;
};

/// @brief The key of @p model_path loaded by backend @p kind with @p options; @p runtime is the resolved
///        runtime library ("" for backends without one). False (and no key) when the file cannot be
///        inspected: the caller then loads without sharing and reports the load's own error.
bool make_model_key(const std::string& kind, const std::string& model_path, const std::string& runtime,
                    const BackendOptions& options, ModelKey& key);

/// @brief Maps ModelKey to the loaded model, held weakly: an entry lives exactly as long as some node (or
///        a verify in progress) holds its model, so releasing the last graph still unloads it.
///
/// Thread-safe. acquire() returns the live model of a key or loads it: the load runs without the registry's
/// lock held, and a concurrent acquire of the same key waits for it instead of loading a second time.
class ModelRegistry {
 public:
  static ModelRegistry& instance();

  /// @brief The live model registered under @p key (second = false), or the one @p load returns, then
  ///        registered (second = true). An exception from @p load propagates and registers nothing.
  std::pair<std::shared_ptr<SharedModel>, bool> acquire(const ModelKey& key,
                                                        const std::function<std::shared_ptr<SharedModel>()>& load);

 private:
  struct Entry {
    std::weak_ptr<SharedModel> model;
    bool loading = false;
  };
  void prune_locked();

  std::mutex mutex_;
  std::condition_variable loaded_;
  std::map<ModelKey, Entry> entries_;
};

}  // namespace vg::inference
