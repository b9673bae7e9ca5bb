/*
 * simnpu managed-memory extensions: counters of what the unified-memory
 * engine did, and a per-page residency query (which CUDA and ACL do not
 * offer). Exported by libacl_rt.so with the simnpu_ prefix; C99 and C++11.
 *
 * Counters are process-wide, always on (one relaxed atomic add per event),
 * and count since process start or the last simnpu_uvm_reset_counters().
 */
#ifndef SIMNPU_UVM_H_
#define SIMNPU_UVM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FUNC_VISIBILITY) && defined(__GNUC__)
#define SIMNPU_API __attribute__((visibility("default")))
#else
#define SIMNPU_API
#endif

#define SIMNPU_UVM_COUNTERS_VERSION 1u

typedef struct simnpu_uvm_counters {
  uint32_t version;                 /* SIMNPU_UVM_COUNTERS_VERSION */
  uint32_t reserved0;
  /* host side: real MMU faults served through userfaultfd */
  uint64_t host_faults;             /* all host faults serviced */
  uint64_t host_faults_first_touch; /* ... on pages never populated */
  uint64_t host_faults_migrate;     /* ... that pulled data from a device */
  uint64_t host_faults_write_dup;   /* ... writes to read-duplicated pages */
  /* device side: misses in a device page table */
  uint64_t device_faults;           /* fault batches serviced (one per block per access) */
  uint64_t device_faults_first_touch;
  uint64_t device_faults_migrate;
  uint64_t device_fault_pages;      /* pages that were missing in those batches */
  /* data movement, in 4 KiB pages and bytes */
  uint64_t pages_h2d, bytes_h2d;    /* host -> device */
  uint64_t pages_d2h, bytes_d2h;    /* device -> host */
  uint64_t pages_d2d, bytes_d2d;    /* device -> other device */
  uint64_t pages_populated_host;    /* first touch populated on the host */
  uint64_t pages_populated_device;  /* first touch populated on a device */
  uint64_t blocks_moved;            /* whole 2 MiB blocks migrated by moving pages (UFFDIO_MOVE) */
  uint64_t copy_fallbacks;          /* migrations that had to copy */
  /* policies */
  uint64_t read_duplicates;         /* pages given a read-only replica */
  uint64_t invalidations;           /* replica pages invalidated by a write */
  uint64_t remote_maps;             /* pages mapped remotely instead of migrated */
  uint64_t prefetch_requests;       /* prefetch operations executed */
  uint64_t prefetch_pages;          /* pages moved or populated by prefetch */
  uint64_t density_expansions;      /* faults widened by the density prefetcher */
  uint64_t thrashing_events;        /* migrations detected as ping-pong */
  uint64_t throttles;               /* faults delayed by thrashing mitigation */
  uint64_t pins;                    /* blocks pinned to the host by thrashing mitigation */
  uint64_t evictions;               /* blocks evicted from a full device */
  uint64_t bytes_evicted;
  /* explicit copy/set API calls (aclrtMemcpy*, aclrtMemset*) in the process */
  uint64_t explicit_copies;
  uint64_t explicit_sets;
  /* blocks moved back to the host ahead of a sequential host pass */
  uint64_t readahead_blocks;
} simnpu_uvm_counters;

/* Fills *out (size = sizeof(*out) as the caller knows it). 0 or an ACL code. */
SIMNPU_API int simnpu_uvm_get_counters(simnpu_uvm_counters* out, size_t size);
/* Zeroes every counter. */
SIMNPU_API int simnpu_uvm_reset_counters(void);

/* Residency of each 4 KiB page of [ptr, ptr+size): out[i] is a bit mask,
 * bit 0 = the host holds a valid copy, bit (1+d) = device d (user-visible id)
 * holds one; 0 = not populated anywhere. More than one bit = read-duplicated.
 * n = capacity of out in entries (>= number of pages). 0 or an ACL code. */
SIMNPU_API int simnpu_uvm_query_residency(const void* ptr, size_t size, uint32_t* out, size_t n);

/* How host faults are served: 1 = userfaultfd (real faults and migration),
 * 0 = host-pinned fallback (no migration; see the warning printed at start).
 * why (may be NULL) receives the reason for the fallback. */
SIMNPU_API int simnpu_uvm_mode(const char** why);

/* Writes a human-readable report of the counters to fd. 0 or an ACL code. */
SIMNPU_API int simnpu_uvm_write_report(int fd);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_UVM_H_ */
