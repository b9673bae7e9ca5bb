// Model subscription (aclprofModelSubscribe): operator records of a model's
// executions written, 80 bytes each, to the write end of a pipe the program
// gave aclprofCreateSubscribeConfig; and the parsers of those records
// (aclprofGetOp*).
//
// Record layout (native endianness, 80 bytes):
//   uint32 signature, modelId, flag, threadId;
//   uint64 opIndex, duration, start, end, executionTime, cubeFops, vectorFops;
//   uint32 devId; 4 bytes padding.
// Times are microseconds. opIndex names an entry of a process-wide table
// of (op name, op type) that the parsers read the names from.
//
// simnpu has no loaded models yet: a subscription to a model id nobody
// reported (ReportModelOp) still remembers its pipe, so that
// aclprofModelUnSubscribe closes the write end (programs read until EOF).
//
// Locking: Subscriptions::mu_ guards the table and the subscriptions; writes
// to a pipe happen under it (records are smaller than PIPE_BUF: atomic).
#ifndef SIMNPU_DFX_PROF_SUBSCRIPTION_H_
#define SIMNPU_DFX_PROF_SUBSCRIPTION_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace simnpu::dfx::prof {

struct OpRecord {
  uint32_t signature;
  uint32_t model_id;
  uint32_t flag;
  uint32_t thread_id;
  uint64_t op_index;
  uint64_t duration;
  uint64_t start;
  uint64_t end;
  uint64_t execution_time;
  uint64_t cube_fops;
  uint64_t vector_fops;
  uint32_t dev_id;
  uint32_t pad;
};
static_assert(sizeof(OpRecord) == 80, "one subscription record is 80 bytes");
constexpr uint32_t kOpRecordSignature = 0x5350524f;  // "ORPS"

struct SubscribeConfig {
  uint32_t magic;
  int8_t time_info;
  int32_t metrics;
  int fd;
};
constexpr uint32_t kSubscribeMagic = 0x53554246;

// Registers a model (so that subscriptions to it succeed). Future model
// runtimes call this when a model is loaded.
void RegisterModel(uint32_t model_id);
void UnregisterModel(uint32_t model_id);
// 0, 100011 (no such model; the pipe is still remembered), 148046 (already subscribed).
int Subscribe(uint32_t model_id, const SubscribeConfig& cfg);
// 0, or 100000 when the model was never subscribed. Closes the pipe.
int Unsubscribe(uint32_t model_id);
// A model's operator ran: writes its record to the model's pipe (if subscribed).
void ReportModelOp(uint32_t model_id, const std::string& op_name, const std::string& op_type, uint64_t start_ns,
                   uint64_t end_ns, uint32_t dev_id);

// Parsers: false when the buffer or the index is not valid.
bool RecordAt(const void* info, size_t len, uint32_t index, OpRecord* out);
bool OpNames(uint64_t op_index, std::string* name, std::string* type);

}  // namespace simnpu::dfx::prof

#endif  // SIMNPU_DFX_PROF_SUBSCRIPTION_H_
