// msproftx: stamps, thread ranges (Push/Pop), process ranges
// (RangeStart/Stop), string ids and step markers of acl_prof.h, recorded as
// trace events of category kCatTx while a session records them.
//
// Stamps are heap objects checked by a magic number; a stamp pointer the
// caller made up is rejected without being dereferenced only if it is not
// one we handed out (kept in a set). Push/Pop ranges live in a per-thread
// stack, RangeStart/Stop ranges in a process-wide map (they may end on another
// thread).
//
// Locking: Tx::mu_ guards the stamp set, ranges, categories and string ids;
// it is a leaf (trace recording takes no lock of ours under it).
#ifndef SIMNPU_DFX_PROF_MSPROFTX_H_
#define SIMNPU_DFX_PROF_MSPROFTX_H_

#include <cstdint>
#include <string>

namespace simnpu::dfx::prof {

// The msproftx layer's failure value (not an ACL code, acl-api-ext.md §14.15).
constexpr int kTxFailed = -1;
constexpr uint32_t kTxMaxMessage = 128;  // messages must be shorter

bool TxEnabled();  // a session records msproftx events
void* TxCreateStamp();
void TxDestroyStamp(void* stamp);
bool TxValidStamp(void* stamp);
int TxSetMessage(void* stamp, const char* msg, uint32_t len);
int TxSetCategory(void* stamp, uint32_t category);
int TxSetPayload(void* stamp, int32_t type, void* value);
int TxSetCategoryName(uint32_t category, const char* name);
int TxMark(void* stamp);
int TxPush(void* stamp);
int TxPop();
int TxRangeStart(void* stamp, uint32_t* id);
int TxRangeStop(uint32_t id);
// Free-form variants (aclprofMarkEx, RangePushEx/RangePop, mstx).
void TxMarkMessage(const std::string& msg, int32_t stream, uint32_t domain);
void TxPushMessage(const std::string& msg, uint32_t domain);
int TxPopMessage();
uint64_t TxStartMessageRange(const std::string& msg, uint32_t domain);  // 0 if not recording
int TxStopMessageRange(uint64_t id);
uint64_t TxStr2Id(const char* s);
std::string TxIdString(uint64_t id);
void TxStep(uint64_t step, int tag);
// Interned domain name for trace events (0 = default domain).
uint32_t TxDomainId(const char* name);

}  // namespace simnpu::dfx::prof

#endif  // SIMNPU_DFX_PROF_MSPROFTX_H_
