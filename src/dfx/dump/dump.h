// Dump: data dump of launched kernels (their arguments and the buffers the
// arguments point at), operator argument dump (aclopStartDumpArgs), dump
// callbacks, and exception dump when a kernel fails. Configured by the
// "dump" object of the aclInit file or of aclmdlSetDump (after
// aclmdlInitDump).
//
// What is dumped is decided here; the loader gathers the data (it can read
// device memory) and hands a KernelDump to Write*. Files are written in the
// simnpu dump format (docs/profiling.md "Dump format"; reader:
// tools/profiling/simnpu_dump.py):
//   header  char magic[8] "SNPUDMP1"; uint32 version (1); uint32 header
//           size (32); uint32 meta_len; uint32 args_size; uint32
//           tensor_count; uint32 reserved
//   meta    meta_len bytes of JSON (kernel, block_dim, device, stream, task,
//           timestamp_us, mode, and for exceptions reason / failed_block)
//   args    args_size bytes: the launch's argument block
//   tensors tensor_count times: uint32 kind (0 input, 1 output, 2 workspace);
//           uint32 arg_index; uint64 address; uint64 size; uint32 dtype
//           (aclDataType, 4 = ACL_UINT8 when unknown); uint32 reserved;
//           then size bytes of data
//   every section is padded to a multiple of 8 bytes.
//
// Locking: Dump::mu_ guards the configuration; kernel sites read a relaxed
// atomic summary first (one branch when nothing dumps). Files are written
// without the lock held (the configuration is copied first).
#ifndef SIMNPU_DFX_DUMP_DUMP_H_
#define SIMNPU_DFX_DUMP_DUMP_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace simnpu::dfx::dump {

// ACL codes (acl-api-ext.md §1.3).
constexpr int kOk = 0;
constexpr int kInvalidParam = 100000;
constexpr int kUninitialize = 100001;
constexpr int kRepeatInit = 100002;
constexpr int kInvalidFile = 100003;
constexpr int kParseFile = 100006;
constexpr int kInvalidDumpConfig = 100009;
constexpr int kDumpAlreadyRun = 100044;
constexpr int kDumpNotRun = 100045;
constexpr int kFailure = 500001;

// Bits of the fast-path summary.
enum : uint32_t { kWantData = 1u, kWantArgs = 2u, kWantException = 4u };
extern std::atomic<uint32_t> g_want;
inline uint32_t Wanted() { return g_want.load(std::memory_order_relaxed); }

struct Config {
  bool present = false;        // a "dump" object was given
  std::string path;            // dump_path
  std::string mode = "all";    // input / output / all
  bool op_switch = false;      // dump_op_switch on
  bool has_list = false;       // dump_list given (model dump)
  std::vector<std::string> layers;  // op names of dump_list[].layer (empty = all)
  std::string data = "tensor";
  std::string scene;           // dump_scene
  bool debug = false;          // dump_debug on (overflow)
  bool exception() const { return !scene.empty() && scene != "watcher"; }
  bool data_dump() const { return op_switch || has_list; }
};

// Parses and checks the "dump" object (JSON text of that object). kOk or
// kInvalidDumpConfig with *why set.
int ParseConfig(const std::string& json_object, Config* out, std::string* why);

// aclInit / aclFinalize.
int ConfigureFromInit(const Config& c);
void ResetAll();
// aclmdlInitDump / SetDump / FinalizeDump (aclInit already checked by the shim).
int ModelInit();
int ModelSetConfig(const Config& c);
int ModelFinalize();
// aclopStartDumpArgs / StopDumpArgs.
int StartArgs(const std::string& path);
void StopArgs();
// acldumpRegCallback / UnregCallback.
using Callback = int32_t (*)(const void* chunk, int32_t len);
void SetCallback(Callback cb);
// acldumpGetPath: the directory for a dump type (1..3 exception, 4 data,
// 5 overflow), or empty.
std::string PathFor(int type);
// The exception dump directory (<base>/extra-info/data-dump/<device>/), or
// empty when exception dump is off.
std::string ExceptionInfoDir(int device);
bool ExceptionEnabled();

// The operator name the current thread is launching (an operator API sets
// it around its kernel launches; the dump then keys on it instead of the
// kernel name).
class ScopedOpName {
 public:
  explicit ScopedOpName(const char* name);
  ~ScopedOpName();
  ScopedOpName(const ScopedOpName&) = delete;
  ScopedOpName& operator=(const ScopedOpName&) = delete;

 private:
  const char* prev_;
};
const char* CurrentOpName();

struct Tensor {
  uint32_t kind = 0;  // 0 input, 1 output, 2 workspace
  uint32_t arg_index = 0;
  uint64_t address = 0;
  uint32_t dtype = 4;
  std::vector<uint8_t> data;
};

struct KernelDump {
  std::string kernel;  // kernel (or operator) name
  uint32_t block_dim = 0;
  int device = 0;
  int stream = -1;
  uint32_t task = 0;
  uint64_t timestamp_us = 0;
  std::vector<uint8_t> args;
  std::vector<Tensor> tensors;
  // exceptions
  std::string reason;
  int64_t failed_block = -1;
  int error_code = 0;
};

// Whether a data dump wants this kernel's inputs / outputs.
bool WantsKernel(const char* name, bool* inputs, bool* outputs);
// Writes (or hands to the callback) a data dump. Returns the file path (empty on failure).
std::string WriteData(const KernelDump& d);
// Writes the operator-argument file of aclopStartDumpArgs (JSON).
std::string WriteArgs(const KernelDump& d, const std::vector<uint64_t>& pointer_values);
// Writes an exception dump under ExceptionInfoDir.
std::string WriteException(const KernelDump& d);
// acldumpSaveExceptionInfo's file: <dir>/<fileName>.custom.<ms>.
std::string WriteCustom(int device, const std::string& file_name, const std::string& tag, const KernelDump& d);

// Serialises a dump in the simnpu format (the file content).
std::vector<uint8_t> Serialize(const KernelDump& d, bool exception);

}  // namespace simnpu::dfx::dump

#endif  // SIMNPU_DFX_DUMP_DUMP_H_
