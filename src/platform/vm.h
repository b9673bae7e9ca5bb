// Virtual memory primitives: reserving address space, committing it, huge
// page advice. Thin wrappers over mmap/mprotect/madvise that report errno.
#ifndef SIMNPU_PLATFORM_VM_H_
#define SIMNPU_PLATFORM_VM_H_

#include <cstddef>
#include <cstdint>

namespace simnpu::platform {

constexpr size_t kPageSize = 4096;
constexpr size_t kHugePageSize = 2u << 20;

// Reserves `size` bytes of address space aligned to `align` (a power of two),
// PROT_NONE and MAP_NORESERVE, so nothing is committed. When `hint` is not 0
// the reservation is first tried at exactly `hint` (MAP_FIXED_NOREPLACE);
// *at_hint tells whether that worked. Returns nullptr on failure (errno set).
void* ReserveVa(size_t size, size_t align, uintptr_t hint = 0, bool* at_hint = nullptr);
// Returns a reservation (or part of one) to the system.
void ReleaseVa(void* addr, size_t size);
// Makes [addr, addr+size) readable and writable; `huge` adds MADV_HUGEPAGE.
// Returns 0 or errno.
int CommitRw(void* addr, size_t size, bool huge);
// Makes a range inaccessible again and drops its pages. Returns 0 or errno.
int Decommit(void* addr, size_t size);
// Drops the pages of a range, keeping the mapping (MADV_DONTNEED). 0 or errno.
int DropPages(void* addr, size_t size);

// True when every page of [addr, addr+size) is mapped in this process (any
// protection). Uses msync(MS_ASYNC), which fails with ENOMEM on a hole, so it
// costs one system call and no memory however large the range. A range that
// wraps around the address space is not mapped.
bool RangeMapped(const void* addr, size_t size);

// True when every byte of [addr, addr+size) can be read by this process
// (mapped and readable), without ever faulting: a range in the caller's own
// live stack is readable by construction (no system call: argument blocks
// built in locals, the common launch); otherwise the kernel copies the bytes
// with process_vm_readv (one system call per 64 KiB), and where that cannot
// prove it they are pushed through a pipe, which the kernel refuses with
// EFAULT for unreadable memory. For structures and argument blocks, not for
// gigabytes (RangeMapped first for those claims).
bool RangeReadable(const void* addr, size_t size);
// The same, copying the bytes to dst as it goes: code that must look at
// memory it does not trust reads the copy (never the original, which may be
// memory this process cannot load from directly, such as a sanitizer's).
bool CopyIfReadable(void* dst, const void* addr, size_t size);

inline uintptr_t AlignUp(uintptr_t v, uintptr_t a) { return (v + a - 1) & ~(a - 1); }
inline uintptr_t AlignDown(uintptr_t v, uintptr_t a) { return v & ~(a - 1); }

// Number of transparent huge pages backing the process (AnonHugePages of
// /proc/self/smaps_rollup, in 2 MiB units); -1 if unknown. For tests and tools.
long CountAnonHugePages();

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_VM_H_
