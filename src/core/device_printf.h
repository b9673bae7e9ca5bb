// Device printf outbox. A kernel's printf text (each block's output kept
// together, blocks in order) is not written when the kernel ends, since that
// happens on a stream worker at a moment the host cannot see; it is queued
// here and written to stdout when the host next synchronises: a stream,
// device or event synchronize, a stream destroy, a device reset, aclFinalize,
// or process exit. That is when the real runtime parses its printf FIFO, so
// a program's host lines printed between launch and synchronize come first,
// on every run, on any machine load.
#ifndef SIMNPU_CORE_DEVICE_PRINTF_H_
#define SIMNPU_CORE_DEVICE_PRINTF_H_

#include <string>

namespace simnpu::core {

// Queues one kernel's output (kernels in completion order). If the queue
// holds more than kDevicePrintfHoldBytes, it is written at once instead of
// growing without bound in a program that never synchronises.
void PostDevicePrintf(std::string text);

// Writes everything queued to stdout (and flushes it). Called by host
// threads at the synchronisation points listed above; cheap when empty.
void FlushDevicePrintf();

inline constexpr size_t kDevicePrintfHoldBytes = 8u << 20;

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_DEVICE_PRINTF_H_
