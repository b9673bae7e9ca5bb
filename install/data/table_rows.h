// The two tables the install tree's data files are generated from, as rows:
// src/dfx/err_codes.def (error_code.json) and src/sim/soc_table.def (the
// platform ini files). Shared by the generator and the install tests, so the
// tests check the installed files against the same rows.
#ifndef SIMNPU_INSTALL_DATA_TABLE_ROWS_H_
#define SIMNPU_INSTALL_DATA_TABLE_ROWS_H_

namespace simnpu::install_data {

struct ErrRow {
  const char* code;
  const char* title;
  const char* text;
  const char* cause;
  const char* solution;
};

inline constexpr ErrRow kErrRows[] = {
#define SIMNPU_ERRCODE(code, title, text, cause, solution) {#code, title, text, cause, solution},
#include "dfx/err_codes.def"
#undef SIMNPU_ERRCODE
};

struct SocRow {
  const char* name;
  const char* short_name;
  const char* family;
  long long npu_arch;
  const char* aic_version;
  long long chip_type;
  long long ai_cores, cube_cores, vector_cores;
  long long ub, l1, l0a, l0b, l0c, l2;
  long long memory_gib;
  int uvm, bf16, inf_nan;
  const char* build_mode;
};

inline constexpr SocRow kSocRows[] = {
#define SIMNPU_SOC(name, short_name, family, npu_arch, aic_version, chip_type, ai, cube, vec, ub, \
                   l1, l0a, l0b, l0c, l2, mem_gib, uvm, bf16, inf_nan, mode)                       \
  {name, short_name, family, npu_arch, aic_version, chip_type, ai, cube, vec, ub, l1, l0a, l0b,   \
   l0c, l2, mem_gib, uvm, bf16, inf_nan, mode},
#include "sim/soc_table.def"
#undef SIMNPU_SOC
};

}  // namespace simnpu::install_data

#endif  // SIMNPU_INSTALL_DATA_TABLE_ROWS_H_
