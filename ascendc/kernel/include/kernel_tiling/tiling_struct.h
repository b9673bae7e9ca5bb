// simnpu: one description per tiling struct, two forms of it.
//
// A tiling struct that host tiling code fills (optiling::<Name>, a
// BEGIN_TILING_DATA_DEF class of register/tilingdata_base.h) and a kernel
// reads (::<Name>, a plain struct, kernel_tiling/kernel_tiling.h) is
// described once, as a list of its fields:
//
//   #define SIMNPU_MY_TILING_FIELDS(F, A, S) F(uint32_t, totalLength) A(uint32_t, 4, shape) S(OtherTiling, other)
//
// (F: a scalar field, A: an array of `count` elements, S: a nested tiling
// struct; the list may continue over several lines with backslashes)
//
// and one line in kernel_tiling/tiling_families.inc:
//
//   SIMNPU_TILING_DEFINE(MyTiling, SIMNPU_MY_TILING_FIELDS)
//
// kernel_tiling.h then defines `struct MyTiling` (global namespace) and
// tiling/tiling_api.h `optiling::MyTiling`, with the same layout: fields in
// order at their natural alignment, nested structs and the struct itself
// aligned to 8 (the layout SaveToBuffer writes, tilingdata_base.h), so the
// bytes a host saves read back into the kernel struct as they are.
//
// SIMNPU_TILING_KERNEL_STRUCT / SIMNPU_TILING_HOST_CLASS make one form for a
// list given directly (tests, or structs of a program's own).
#ifndef SIMNPU_KERNEL_TILING_TILING_STRUCT_H_
#define SIMNPU_KERNEL_TILING_TILING_STRUCT_H_

#include <cstdint>

#define SIMNPU_TILING_POD_F(type, name) type name = 0;
#define SIMNPU_TILING_POD_A(type, count, name) type name[count] = {};
#define SIMNPU_TILING_POD_S(stype, name) stype name;
#define SIMNPU_TILING_KERNEL_STRUCT(Name, FIELDS) \
  struct alignas(8) Name {                        \
    FIELDS(SIMNPU_TILING_POD_F, SIMNPU_TILING_POD_A, SIMNPU_TILING_POD_S)   \
  };

#define SIMNPU_TILING_HOST_F(type, name) TILING_DATA_FIELD_DEF(type, name);
#define SIMNPU_TILING_HOST_A(type, count, name) TILING_DATA_FIELD_DEF_ARR(type, count, name);
#define SIMNPU_TILING_HOST_S(stype, name) TILING_DATA_FIELD_DEF_STRUCT(stype, name);
#define SIMNPU_TILING_HOST_CLASS(Name, FIELDS)                              \
  BEGIN_TILING_DATA_DEF(Name)                                               \
  FIELDS(SIMNPU_TILING_HOST_F, SIMNPU_TILING_HOST_A, SIMNPU_TILING_HOST_S) \
  END_TILING_DATA_DEF

#endif  // SIMNPU_KERNEL_TILING_TILING_STRUCT_H_
