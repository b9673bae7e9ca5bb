# simnpu ASC language: flags and build rules (every configure).
#
# Inputs (cache or set before find_package(ASC)/project()):
#   CMAKE_ASC_ARCHITECTURES   dav-2201 (910B), dav-3510 (950), dav-2002 (310P), ...:
#                             appended to CMAKE_ASC_FLAGS as --npu-arch=<value>
#   CMAKE_ASC_RUN_MODE        npu (default), sim or cpu; every mode builds the
#                             CPU model; cpu also defines ASCENDC_CPU_DEBUG and
#                             provides cpu_debug_launch.h (through the driver)
#   CMAKE_ASC_STANDARD        C++ standard of ASC sources (default 17)
#   CMAKE_ASC_ENABLE_SIMT     --enable-simt (the CPU model has no SIMT)
#   CMAKE_ASC_COMPILER_LAUNCHER, CMAKE_ASC_LINKER_LAUNCHER (e.g. ccache),
#   CMAKE_ASC_COMPILER_AR, CMAKE_ASC_COMPILER_LINKER
#   $ENV{ASCFLAGS}            initial CMAKE_ASC_FLAGS
#
# One driver call compiles a .asc file (host code, kernels and launches);
# the driver links executables and shared libraries that have ASC sources
# (ASC is preferred over CXX as the linker language), so the CANN libraries
# the NPU driver links by default are linked.

set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
set(CMAKE_ASC_LINK_OPTIONS_PIE "-pie")
set(CMAKE_ASC_LINK_OPTIONS_NO_PIE "-no-pie")
set(CMAKE_ASC_COMPILE_OPTIONS_VISIBILITY "-fvisibility=")
set(CMAKE_ASC_LINKER_PREFERENCE 40)
set(CMAKE_ASC_LINKER_PREFERENCE_PROPAGATES 1)
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_ASC_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_MODULE_CREATE_ASC_FLAGS "-shared")
set(CMAKE_LINK_LIBRARY_FLAG_ASC "-l")
set(CMAKE_ASC_LINKER_WRAPPER_FLAG "-Wl,")
set(CMAKE_ASC_LINKER_WRAPPER_FLAG_SEP ",")
set(CMAKE_EXE_EXPORTS_ASC_FLAG "-Wl,--export-dynamic")

# dependency files in gcc format
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
set(CMAKE_ASC_DEPFILE_FORMAT gcc)
set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)

# ---- flags
set(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
string(STRIP "${CMAKE_ASC_FLAGS_INIT}" CMAKE_ASC_FLAGS_INIT)
include(CMakeInitializeConfigs)
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")

if(CMAKE_BUILD_TYPE AND NOT CMAKE_BUILD_TYPE MATCHES "^(Debug|Release)$")
  message(WARNING "ASC language: CMAKE_BUILD_TYPE ${CMAKE_BUILD_TYPE} is not supported by the Ascend C "
          "devkit (Debug or Release); its flags are CMAKE_ASC_FLAGS_${CMAKE_BUILD_TYPE}.")
endif()

if(NOT DEFINED CMAKE_ASC_STANDARD OR "${CMAKE_ASC_STANDARD}" STREQUAL "")
  set(CMAKE_ASC_STANDARD ${CMAKE_ASC_STANDARD_DEFAULT})
endif()
if(NOT CMAKE_ASC_STANDARD MATCHES "^[0-9]+$")
  message(FATAL_ERROR "CMAKE_ASC_STANDARD must be a number such as 17 (got ${CMAKE_ASC_STANDARD}).")
endif()
if(CMAKE_ASC_STANDARD LESS 17)
  message(WARNING "CMAKE_ASC_STANDARD ${CMAKE_ASC_STANDARD}: Ascend C needs C++17 or later.")
endif()

# Architecture: --npu-arch=<value> on every ASC compile and link; the driver
# maps dav-<n> to __NPU_ARCH__=<n> (default dav-2201).
set(_asc_arch_num "")
if(DEFINED CMAKE_ASC_ARCHITECTURES AND NOT "${CMAKE_ASC_ARCHITECTURES}" STREQUAL "")
  list(LENGTH CMAKE_ASC_ARCHITECTURES _asc_arch_count)
  if(_asc_arch_count GREATER 1)
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES: simnpu builds one architecture at a time "
            "(got ${CMAKE_ASC_ARCHITECTURES}).")
  endif()
  string(TOLOWER "${CMAKE_ASC_ARCHITECTURES}" _asc_arch)
  if(NOT _asc_arch MATCHES "^dav[-_](1001|2002|2201|3002|3510)$")
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES ${CMAKE_ASC_ARCHITECTURES} is not an architecture "
            "simnpu models (dav-1001, dav-2002, dav-2201, dav-3002, dav-3510).")
  endif()
  string(REGEX REPLACE "^dav[-_]" "" _asc_arch_num "${_asc_arch}")
  string(APPEND CMAKE_ASC_FLAGS " --npu-arch=${CMAKE_ASC_ARCHITECTURES}")
  unset(_asc_arch)
  unset(_asc_arch_count)
endif()

option(CMAKE_ASC_ENABLE_SIMT "compile ASC sources with SIMT support" OFF)
set(_asc_simt "")
if(CMAKE_ASC_ENABLE_SIMT)
  set(_asc_simt "--enable-simt")
endif()

# ---- run mode
if(NOT DEFINED CMAKE_ASC_RUN_MODE OR "${CMAKE_ASC_RUN_MODE}" STREQUAL "")
  set(CMAKE_ASC_RUN_MODE "npu")
endif()
string(TOLOWER "${CMAKE_ASC_RUN_MODE}" _asc_mode)
if(_asc_mode STREQUAL "npu")
  # nothing to add
elseif(_asc_mode STREQUAL "sim")
  if(NOT _asc_arch_num MATCHES "^(2002|2201|3510)$")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE sim needs CMAKE_ASC_ARCHITECTURES dav-2002, dav-2201 or "
            "dav-3510 (got '${CMAKE_ASC_ARCHITECTURES}').")
  endif()
elseif(_asc_mode STREQUAL "cpu")
  if(_asc_arch_num STREQUAL "2002")
    set(_asc_cpu_soc Ascend310P1)
  elseif(_asc_arch_num STREQUAL "2201")
    set(_asc_cpu_soc Ascend910B1)
  elseif(_asc_arch_num STREQUAL "3510")
    set(_asc_cpu_soc Ascend950PR_9599)
  else()
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE cpu needs CMAKE_ASC_ARCHITECTURES dav-2002, dav-2201 or "
            "dav-3510 (got '${CMAKE_ASC_ARCHITECTURES}').")
  endif()
  string(APPEND CMAKE_ASC_FLAGS " -g -D_GLIBCXX_USE_CXX11_ABI=0 -D__NPU_ARCH__=${_asc_arch_num} --run-mode=cpu")
  string(APPEND CMAKE_ASC_LINK_FLAGS " --run-mode=cpu -Wl,--disable-new-dtags")
  # the CPU-debug libraries of the devkit (tikicpulib) are not needed: the
  # kernels run on the simnpu runtime, found through an RPATH here
  link_libraries("-Wl,-rpath,$ENV{ASCEND_HOME_PATH}/lib64" "-L$ENV{ASCEND_HOME_PATH}/lib64")
  unset(_asc_cpu_soc)
else()
  message(FATAL_ERROR "CMAKE_ASC_RUN_MODE ${CMAKE_ASC_RUN_MODE} is not supported: use npu, sim or cpu.")
endif()
if(NOT _ASC_RUN_MODE_REPORTED)
  set(_asc_shown_arch "${CMAKE_ASC_ARCHITECTURES}")
  if(_asc_shown_arch STREQUAL "")
    set(_asc_shown_arch "dav-2201 (default)")
  endif()
  message(STATUS "ASC: CMAKE_ASC_RUN_MODE=${_asc_mode}, architecture ${_asc_shown_arch}: simnpu builds the "
          "CPU model of the kernels (there is no NPU toolchain)")
  set(_ASC_RUN_MODE_REPORTED TRUE)
  unset(_asc_shown_arch)
endif()
unset(_asc_mode)
unset(_asc_arch_num)

# ---- tools
if(NOT DEFINED CMAKE_ASC_COMPILER_AR OR "${CMAKE_ASC_COMPILER_AR}" STREQUAL "")
  set(CMAKE_ASC_COMPILER_AR "${CMAKE_AR}")
endif()
if(NOT DEFINED CMAKE_ASC_COMPILER_LINKER OR "${CMAKE_ASC_COMPILER_LINKER}" STREQUAL "")
  set(CMAKE_ASC_COMPILER_LINKER "${CMAKE_ASC_COMPILER}")
endif()
set(_asc_cc_launcher "")
if(CMAKE_ASC_COMPILER_LAUNCHER)
  string(JOIN " " _asc_cc_launcher ${CMAKE_ASC_COMPILER_LAUNCHER})
endif()
set(_asc_ld_launcher "")
if(CMAKE_ASC_LINKER_LAUNCHER)
  string(JOIN " " _asc_ld_launcher ${CMAKE_ASC_LINKER_LAUNCHER})
endif()

# ---- rules (each only if the project did not set it)
if(NOT CMAKE_ASC_COMPILE_OBJECT)
  set(CMAKE_ASC_COMPILE_OBJECT
      "${_asc_cc_launcher} <CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> ${_asc_simt} -std=c++${CMAKE_ASC_STANDARD} <FLAGS> -o <OBJECT> -c -x asc <SOURCE>")
endif()
if(NOT CMAKE_ASC_CREATE_PREPROCESSED_SOURCE)
  set(CMAKE_ASC_CREATE_PREPROCESSED_SOURCE
      "<CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> -std=c++${CMAKE_ASC_STANDARD} <FLAGS> -E -x asc <SOURCE> > <PREPROCESSED_SOURCE>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_CREATE)
  set(CMAKE_ASC_ARCHIVE_CREATE "\"${CMAKE_ASC_COMPILER_AR}\" qc <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_APPEND)
  set(CMAKE_ASC_ARCHIVE_APPEND "\"${CMAKE_ASC_COMPILER_AR}\" q <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT CMAKE_ASC_ARCHIVE_FINISH)
  set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
endif()
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
  set(CMAKE_ASC_LINK_EXECUTABLE
      "${_asc_ld_launcher} \"${CMAKE_ASC_COMPILER_LINKER}\" <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
  set(CMAKE_ASC_CREATE_SHARED_LIBRARY
      "${_asc_ld_launcher} \"${CMAKE_ASC_COMPILER_LINKER}\" <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
# A shared module of ASC sources is a kernel image ("device.o" of
# ascendc_fatbin_library): the driver adds the kernel table and exports
# nothing else.
if(NOT CMAKE_ASC_CREATE_SHARED_MODULE)
  set(CMAKE_ASC_CREATE_SHARED_MODULE
      "${_asc_ld_launcher} \"${CMAKE_ASC_COMPILER_LINKER}\" <LANGUAGE_COMPILE_FLAGS> --aicore-only -shared <LINK_FLAGS> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
unset(_asc_cc_launcher)
unset(_asc_ld_launcher)
unset(_asc_simt)

set(CMAKE_ASC_INFORMATION_LOADED 1)
