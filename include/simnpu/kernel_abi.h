/*
 * simnpu kernel ABI: the contract between the runtime (libacl_rt.so) and
 * Ascend C kernels compiled for the CPU model.
 *
 * A kernel image is either
 *   - a shared object (the "fatbin" written by ascendc_fatbin_library, named
 *     <t>.o) that exports the C symbol SIMNPU_KERNEL_TABLE_SYMBOL, a function
 *     returning the image's kernel table, and carries an ELF section named
 *     SIMNPU_KERNEL_SECTION holding SIMNPU_KERNEL_SECTION_MAGIC (so the loader
 *     recognises it before it ever dlopen()s the file); or
 *   - an in-process image: a simnpu_inproc_image record passed to
 *     aclrtBinaryLoadFromData by the host stubs of ascendc_library targets,
 *     pointing at a table that is already linked into the process.
 *
 * The runtime runs a kernel by calling, for each logical block,
 *   desc->run_block(&env, argv)
 * on one of its AI-core worker threads. argv[i] points at a private copy of
 * parameter i, laid out exactly as params[i] describes (the runtime snapshots
 * arguments at launch). run_block installs env as the block's thread-local
 * context, calls the kernel through a typed trampoline, and returns one of
 * the SIMNPU_BLOCK_* codes; on failure it writes a NUL-terminated diagnostic
 * into env->error_msg.
 *
 * Kernel code reaches the runtime only through env->services (global-memory
 * traffic of DataCopy, printf). Addresses inside [managed_base,
 * managed_base + managed_size) are managed memory and must go through
 * services->gm_read / gm_write so that they fault and migrate like device
 * accesses; any other global address is device or host memory that the
 * kernel may copy directly.
 *
 * Host-side argument blobs (aclrtLaunchKernelWithHostArgs) place parameter i
 * at the next offset that is a multiple of max(8, params[i].align), starting
 * at 0; aclrtKernelArgsAppend places each parameter at the next multiple of 8.
 * Both agree for every parameter with alignment <= 8.
 *
 * This header is C99 and C++11 compatible and has no dependencies.
 */
#ifndef SIMNPU_KERNEL_ABI_H_
#define SIMNPU_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIMNPU_KERNEL_ABI_VERSION 1u
/* Exported by a fatbin: const simnpu_kernel_table* simnpu_kernel_table_v1(void) */
#define SIMNPU_KERNEL_TABLE_SYMBOL "simnpu_kernel_table_v1"
/* ELF section present in every fatbin; its first 16 bytes are the magic. */
#define SIMNPU_KERNEL_SECTION ".simnpu_kernels"
#define SIMNPU_KERNEL_SECTION_MAGIC "SIMNPU-KERNELS1"   /* 15 chars + NUL */
/* simnpu_kernel_table.magic and simnpu_inproc_image.magic */
#define SIMNPU_KERNEL_TABLE_MAGIC 0x4b504e53u   /* "SNPK" */
#define SIMNPU_INPROC_IMAGE_MAGIC 0x49504e53u   /* "SNPI" */

/* Kernel type, as the runtime reports it and as the failure code depends on:
 * a failing AIV kernel gives 507035, AIC and MIX kernels give 507015. */
typedef enum {
  SIMNPU_KERNEL_AIV = 0,
  SIMNPU_KERNEL_AIC = 1,
  SIMNPU_KERNEL_MIX = 2
} simnpu_kernel_type;

/* What kind of value a parameter is (for diagnostics and argument checks). */
typedef enum {
  SIMNPU_PARAM_POINTER = 0, /* any pointer (__gm__ T*, GM_ADDR) */
  SIMNPU_PARAM_INT = 1,     /* integral or enum scalar */
  SIMNPU_PARAM_FLOAT = 2,   /* float, double, half */
  SIMNPU_PARAM_STRUCT = 3   /* trivially copyable struct passed by value */
} simnpu_param_kind;

typedef struct {
  uint32_t size;  /* sizeof(parameter type) */
  uint32_t align; /* alignof(parameter type) */
  uint32_t kind;  /* simnpu_param_kind */
} simnpu_param_desc;

/* Return codes of run_block. */
#define SIMNPU_BLOCK_OK 0
#define SIMNPU_BLOCK_TRAP 1         /* asm("trap") / AscendC::Trap() */
#define SIMNPU_BLOCK_CHECK_FAILED 2 /* an API-level check failed (UB overflow, queue misuse...) */
#define SIMNPU_BLOCK_GM_FAULT 3     /* a global-memory access could not be served */

/* Flags in simnpu_kernel_desc.flags */
#define SIMNPU_KERNEL_FLAG_PRINTF 0x1u /* the kernel source calls printf */

struct simnpu_block_env;

/* Memory check (issue 10). When env->flags has SIMNPU_ENV_FLAG_EXT the env
 * and the services table carry the fields after their "extension" comments
 * (runtimes before it never set the flag, and kernels built before it never
 * read the fields, so either side may be older than the other).
 *
 * env->memcheck is a set of SIMNPU_MEMCHECK_* bits (0: no checking). With
 * BOUNDS, every global-memory access of the kernel must lie inside one
 * allocation the runtime knows: env->mem_ranges lists the allocations the
 * launch's pointer arguments point into (a fast path needing no call), and
 * services->mem_resolve answers for any other address (a pointer inside a
 * struct argument, a workspace): 0 and the allocation in *out, or an ACL
 * code and a description of what is wrong in why. With RACE or INIT every
 * access is also passed to services->mem_trace, which returns non-zero (and
 * a description) when the access reads device memory nothing ever wrote
 * (INIT); races between blocks are found by the runtime when the launch
 * ends. An access is a set of SIMNPU_ACCESS_* bits. */
#define SIMNPU_MEMCHECK_BOUNDS 0x1u
#define SIMNPU_MEMCHECK_RACE 0x2u
#define SIMNPU_MEMCHECK_INIT 0x4u

#define SIMNPU_ACCESS_READ 0x1u
#define SIMNPU_ACCESS_WRITE 0x2u
#define SIMNPU_ACCESS_ATOMIC 0x4u  /* a read-modify-write by the atomic unit: never a race */
#define SIMNPU_ACCESS_BARRIER 0x8u /* mem_trace only: every block synchronised here (SyncAll) */

typedef struct {
  uintptr_t base; /* first byte */
  size_t size;    /* bytes an access may reach */
  uint32_t kind;  /* the runtime's memory kind (diagnostics) */
  int32_t arg;    /* index of the pointer argument pointing into it, -1 if none */
} simnpu_mem_range;

/* Services provided by the runtime to a running block. Every function returns
 * 0 on success or an ACL error code (e.g. 507015/507035 style failures). */
typedef struct simnpu_kernel_services {
  uint32_t abi_version;
  /* copy n bytes from global address src to local buffer dst */
  int (*gm_read)(void* ctx, void* dst, const void* src, size_t n);
  /* copy n bytes from local buffer src to global address dst */
  int (*gm_write)(void* ctx, void* dst, const void* src, size_t n);
  /* append already-formatted device printf output of this block */
  void (*print)(void* ctx, const char* text, size_t n);
  /* a non-fatal diagnostic (warning) from the kernel library, e.g. the
   * DataCopy 32-byte rule; level: 0 debug, 1 info, 2 warning, 3 error */
  void (*diagnostic)(void* ctx, int level, const char* text);
  /* extension (SIMNPU_ENV_FLAG_EXT): memory check, see above */
  int (*mem_resolve)(void* ctx, uintptr_t addr, size_t n, uint32_t access, simnpu_mem_range* out, char* why,
                     size_t why_cap);
  int (*mem_trace)(void* ctx, uintptr_t addr, size_t n, uint32_t access, const char* file, uint32_t line, char* why,
                   size_t why_cap);
  /* extension (SIMNPU_ENV_FLAG_SYNC): multi-core synchronisation (SyncAll,
   * IBSet/IBWait). op SIMNPU_SYNC_CORESIDENT makes every block of the launch
   * run at once (blocks not yet started get threads of their own); op
   * SIMNPU_SYNC_BARRIER also waits until `count` blocks of the launch have
   * reached a barrier (every block when count is 0). Returns 0, or an ACL
   * code and a description in why (more blocks than cores, a block that
   * failed or ended without reaching the barrier). */
  int (*block_sync)(void* ctx, uint32_t op, uint32_t count, char* why, size_t why_cap);
} simnpu_kernel_services;

#define SIMNPU_SYNC_CORESIDENT 0u
#define SIMNPU_SYNC_BARRIER 1u

/* Per-block environment, valid for the duration of one run_block call. */
typedef struct simnpu_block_env {
  uint32_t abi_version;      /* SIMNPU_KERNEL_ABI_VERSION */
  uint32_t core_type;        /* simnpu_kernel_type of the core running the block */
  int64_t block_idx;         /* logical block index in [0, block_num) */
  int64_t block_num;         /* numBlocks of the launch */
  int32_t device_id;         /* logical device id */
  uint32_t npu_arch;         /* e.g. 2201 */
  void* ub_base;             /* this block's unified buffer, 32-byte aligned */
  size_t ub_size;            /* bytes, e.g. 196608 on Ascend910B1 */
  uintptr_t managed_base;    /* managed window; 0/0 when there is none */
  size_t managed_size;
  const simnpu_kernel_services* services;
  void* services_ctx;        /* first argument of every services function */
  char* error_msg;           /* diagnostic written on failure */
  size_t error_msg_cap;
  uint32_t flags;            /* SIMNPU_ENV_FLAG_* */
  /* extension (SIMNPU_ENV_FLAG_EXT): memory check, see above */
  uint32_t memcheck;                  /* SIMNPU_MEMCHECK_* */
  uint32_t mem_range_count;
  const simnpu_mem_range* mem_ranges; /* allocations the pointer arguments point into */
} simnpu_block_env;

/* env->flags: make the DataCopy 32-byte rule a failure instead of a warning */
#define SIMNPU_ENV_FLAG_STRICT_DATACOPY 0x1u
/* env->flags: the env and services extension fields are present */
#define SIMNPU_ENV_FLAG_EXT 0x2u
/* env->flags: services->block_sync is present */
#define SIMNPU_ENV_FLAG_SYNC 0x4u

typedef int (*simnpu_run_block_fn)(const struct simnpu_block_env* env, void* const* argv);

typedef struct {
  const char* name;             /* entry name, as aclrtBinaryGetFunction looks it up */
  uint32_t kernel_type;         /* simnpu_kernel_type */
  uint32_t param_count;
  const simnpu_param_desc* params;
  simnpu_run_block_fn run_block;
  const void* entry;            /* address identifying the kernel (GetFunctionByEntry) */
  uint64_t flags;               /* SIMNPU_KERNEL_FLAG_* */
} simnpu_kernel_desc;

typedef struct {
  uint32_t magic;               /* SIMNPU_KERNEL_TABLE_MAGIC */
  uint32_t abi_version;         /* SIMNPU_KERNEL_ABI_VERSION */
  uint32_t npu_arch;            /* __NPU_ARCH__ the image was built for */
  uint32_t reserved;
  const char* soc_version;      /* SOC_VERSION the image was built for */
  const char* builder;          /* free text, e.g. "simnpu-ascendc 1" */
  uint32_t kernel_count;
  const simnpu_kernel_desc* kernels;
} simnpu_kernel_table;

typedef const simnpu_kernel_table* (*simnpu_kernel_table_fn)(void);

/* In-process image for aclrtBinaryLoadFromData(&img, sizeof img, ...). */
typedef struct {
  uint32_t magic;               /* SIMNPU_INPROC_IMAGE_MAGIC */
  uint32_t abi_version;         /* SIMNPU_KERNEL_ABI_VERSION */
  const simnpu_kernel_table* table;
} simnpu_inproc_image;

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_KERNEL_ABI_H_ */
