# simnpu ascendc.cmake: ascendc_library, ascendc_fatbin_library and the
# ascendc_compile_options / _definitions / ascendc_include_directories helpers.
#
# Build of a kernel library <t>:
#   1. each source goes through the pre-pass (build time) into
#      ${CMAKE_BINARY_DIR}/auto_gen/<t>/auto_gen_<name>.cpp; for STATIC and
#      SHARED libraries it also writes ${CMAKE_BINARY_DIR}/include/<t>/aclrtlaunch_<kernel>.h;
#      the kernels of each source are listed at configure time (--scan);
#   2. one generated translation unit per image, kernel_table.cpp, holds
#      SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE("<SOC_VERSION>");
#   3. everything is compiled by the project's C++ compiler with
#      -std=c++17 -O2 -fPIC -D_GLIBCXX_USE_CXX11_ABI=0 -D__NPU_ARCH__=<n>
#      -DASCENDC_CPU_MODEL=1 -I<tikcfw> -I<p>/include, then the options,
#      definitions and include directories given through <t>_interface.
# Kernel images (fatbin, OBJECT) are shared objects named <name>.o that
# export only simnpu_kernel_table_v1 and do not link the runtime.

function(_simnpu_ascendc_require_model caller)
  if("${SIMNPU_ASCENDC_NPU_ARCH}" STREQUAL "")
    message(FATAL_ERROR "${caller}: SOC_VERSION ${SOC_VERSION} is a valid Ascend C target, but "
            "simnpu has no CPU model of it (it models Ascend910B*, Ascend910_93*, Ascend910*, "
            "Ascend310P*, Ascend310B*, Ascend950* and Ascend350*).")
  endif()
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST _langs)
    message(FATAL_ERROR "${caller}: the project must enable C++ (project(... LANGUAGES CXX)) "
            "to build Ascend C kernels.")
  endif()
endfunction()

function(_simnpu_ascendc_interface t caller)
  if(TARGET ${t} OR TARGET ${t}_interface)
    message(FATAL_ERROR "${caller}: a target named ${t} already exists.")
  endif()
  add_library(${t}_interface INTERFACE)
endfunction()

# Write `content` to `path` unless it already holds exactly that.
function(_simnpu_ascendc_write_if_changed path content)
  if(EXISTS "${path}")
    file(READ "${path}" _old)
    if(_old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

# Pre-pass custom commands for the sources of <t>.
#   out_srcs: generated translation units; out_hdrs: generated launch headers;
#   out_stems: a unique short name per source.
function(_simnpu_ascendc_prepass t host_stubs out_srcs out_hdrs out_stems)
  get_property(_tooldir GLOBAL PROPERTY SIMNPU_ASCENDC_CMAKE_DIR)
  set(_tool "${_tooldir}/simnpu_ascendc_prepass.py")
  set(_gen "${CMAKE_BINARY_DIR}/auto_gen/${t}")
  set(_hdr_dir "${CMAKE_BINARY_DIR}/include/${t}")
  file(MAKE_DIRECTORY "${_gen}")
  set(_srcs)
  set(_hdrs)
  set(_stems)
  set(_all_kernels)
  foreach(_src IN LISTS ARGN)
    get_filename_component(_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_abs}")
      message(FATAL_ERROR "Ascend C source ${_src} of ${t} does not exist (${_abs}).")
    endif()
    get_filename_component(_srcdir "${_abs}" DIRECTORY)
    get_filename_component(_stem "${_abs}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${_stem}" _stem)
    set(_u "${_stem}")
    set(_n 1)
    while("${_u}" IN_LIST _stems)
      math(EXPR _n "${_n} + 1")
      set(_u "${_stem}_${_n}")
    endwhile()
    list(APPEND _stems "${_u}")

    # kernels of this source, as known at configure time
    execute_process(
      COMMAND ${ASCEND_PYTHON_EXECUTABLE} "${_tool}" --source "${_abs}" --scan
      OUTPUT_VARIABLE _found ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "Ascend C pre-pass failed on ${_src}:\n${_err}")
    endif()
    set(_kfile "${_gen}/${_u}.kernels")
    _simnpu_ascendc_write_if_changed("${_kfile}" "${_found}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_kfile}")
    string(STRIP "${_found}" _found)
    string(REPLACE "\n" ";" _kernels "${_found}")
    string(REPLACE ";" "," _expect "${_kernels}")
    foreach(_k IN LISTS _kernels)
      if(_k IN_LIST _all_kernels)
        message(FATAL_ERROR "Ascend C library ${t}: kernel ${_k} is defined in more than one source.")
      endif()
      list(APPEND _all_kernels "${_k}")
    endforeach()

    set(_out "${_gen}/auto_gen_${_u}.cpp")
    set(_outs "${_out}")
    set(_args --source "${_abs}" --output "${_out}"
              --default-kernel-type ${SIMNPU_ASCENDC_DEFAULT_KERNEL_TYPE}
              "--expect-kernels=${_expect}" --kernels-file "${_kfile}")
    if(host_stubs)
      list(APPEND _args --host-stubs --header-dir "${_hdr_dir}")
      foreach(_k IN LISTS _kernels)
        list(APPEND _outs "${_hdr_dir}/aclrtlaunch_${_k}.h")
        list(APPEND _hdrs "${_hdr_dir}/aclrtlaunch_${_k}.h")
      endforeach()
    endif()
    file(RELATIVE_PATH _shown "${CMAKE_SOURCE_DIR}" "${_abs}")
    add_custom_command(
      OUTPUT ${_outs}
      COMMAND ${ASCEND_PYTHON_EXECUTABLE} "${_tool}" ${_args}
      DEPENDS "${_abs}" "${_tool}"
      COMMENT "Ascend C pre-pass of ${_shown} (${t})"
      VERBATIM)
    # quoted #includes of the original file resolve against its own folder
    set_source_files_properties("${_out}" PROPERTIES GENERATED TRUE COMPILE_OPTIONS "-iquote;${_srcdir}")
    list(APPEND _srcs "${_out}")
  endforeach()
  set(${out_srcs} "${_srcs}" PARENT_SCOPE)
  set(${out_hdrs} "${_hdrs}" PARENT_SCOPE)
  set(${out_stems} "${_stems}" PARENT_SCOPE)
endfunction()

# The translation unit that defines the kernel table of one image.
function(_simnpu_ascendc_table_tu t suffix out_var)
  set(_file "${CMAKE_BINARY_DIR}/auto_gen/${t}/kernel_table${suffix}.cpp")
  string(REPLACE "\\" "\\\\" _soc "${SOC_VERSION}")
  string(REPLACE "\"" "\\\"" _soc "${_soc}")
  _simnpu_ascendc_write_if_changed("${_file}"
    "// Generated by the simnpu ascendc.cmake: the kernel table of image ${t}${suffix}.\n#include \"kernel_operator.h\"\nSIMNPU_ASCENDC_DEFINE_KERNEL_TABLE(\"${_soc}\");\n")
  set(${out_var} "${_file}" PARENT_SCOPE)
endfunction()

# Compile settings of a target built from kernel sources of <t>.
function(_simnpu_ascendc_kernel_target tgt t)
  set_target_properties(${tgt} PROPERTIES
    CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  # -fno-gnu-unique: inline/static data of each image stays its own (no
  # merging across shared objects by the dynamic linker).
  target_compile_options(${tgt} PRIVATE ${SIMNPU_ASCENDC_KERNEL_COMPILE_OPTIONS}
                         $<$<CXX_COMPILER_ID:GNU>:-fno-gnu-unique>)
  target_compile_definitions(${tgt} PRIVATE ${SIMNPU_ASCENDC_KERNEL_COMPILE_DEFINITIONS})
  target_include_directories(${tgt} PRIVATE "${ASCENDC_KERNEL_INCLUDE_DIR}" "${ASCENDC_HOST_INCLUDE_DIR}")
  target_link_libraries(${tgt} PRIVATE ${t}_interface)
endfunction()

# A kernel image: shared object <outdir>/<name>.o exporting only the table.
function(_simnpu_ascendc_image tgt t name outdir)
  get_property(_tooldir GLOBAL PROPERTY SIMNPU_ASCENDC_CMAKE_DIR)
  _simnpu_ascendc_kernel_target(${tgt} ${t})
  set_target_properties(${tgt} PROPERTIES
    PREFIX "" SUFFIX ".o" OUTPUT_NAME "${name}"
    LIBRARY_OUTPUT_DIRECTORY "$<1:${outdir}>"
    LINK_DEPENDS "${_tooldir}/simnpu_kernel_image.map")
  target_link_options(${tgt} PRIVATE
    "LINKER:-soname,${name}.o"
    "LINKER:--version-script=${_tooldir}/simnpu_kernel_image.map"
    "LINKER:--no-undefined" "LINKER:-Bsymbolic" "LINKER:-z,now")
endfunction()

# ascendc_fatbin_library(<t> <sources>...)
# One kernel image ${CMAKE_INSTALL_PREFIX}/fatbin/<t>/<t>.o, written when the
# project is built (target <t>, in ALL; <t>_fatbin_obj depends on it).
function(ascendc_fatbin_library t)
  _simnpu_ascendc_require_model(ascendc_fatbin_library)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${t}): no sources given.")
  endif()
  _simnpu_ascendc_interface(${t} ascendc_fatbin_library)
  _simnpu_ascendc_prepass(${t} OFF _srcs _hdrs _stems ${ARGN})
  _simnpu_ascendc_table_tu(${t} "" _table)
  add_library(${t} MODULE ${_srcs} "${_table}")
  _simnpu_ascendc_image(${t} ${t} ${t} "${CMAKE_INSTALL_PREFIX}/fatbin/${t}")
  add_custom_target(${t}_fatbin_obj ALL DEPENDS ${t})
endfunction()

# ascendc_library(<t> STATIC|SHARED|OBJECT <sources>...)
function(ascendc_library t type)
  string(TOUPPER "${type}" _type)
  if(NOT _type MATCHES "^(STATIC|SHARED|OBJECT)$")
    message(FATAL_ERROR "ascendc_library(${t} ${type} ...): the library type must be STATIC, SHARED or OBJECT.")
  endif()
  _simnpu_ascendc_require_model(ascendc_library)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${t}): no sources given.")
  endif()
  _simnpu_ascendc_interface(${t} ascendc_library)
  _simnpu_ascendc_host_intf_pub()

  if(_type STREQUAL "OBJECT")
    # one kernel image per source in ${CMAKE_INSTALL_PREFIX}/single_objects/<t>/
    _simnpu_ascendc_prepass(${t} OFF _srcs _hdrs _stems ${ARGN})
    set(_images)
    list(LENGTH _srcs _count)
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      list(GET _srcs ${_i} _src)
      list(GET _stems ${_i} _stem)
      _simnpu_ascendc_table_tu(${t} "_${_stem}" _table)
      add_library(${t}_${_stem}_obj MODULE "${_src}" "${_table}")
      _simnpu_ascendc_image(${t}_${_stem}_obj ${t} ${_stem} "${CMAKE_INSTALL_PREFIX}/single_objects/${t}")
      list(APPEND _images ${t}_${_stem}_obj)
    endforeach()
    add_custom_target(${t} ALL DEPENDS ${_images})
    return()
  endif()

  _simnpu_ascendc_prepass(${t} ON _srcs _hdrs _stems ${ARGN})
  _simnpu_ascendc_table_tu(${t} "" _table)
  add_library(${t} ${_type} ${_srcs} "${_table}" ${_hdrs})
  _simnpu_ascendc_kernel_target(${t} ${t})
  set_target_properties(${t} PROPERTIES
    ARCHIVE_OUTPUT_DIRECTORY "$<1:${CMAKE_BINARY_DIR}/lib>"
    LIBRARY_OUTPUT_DIRECTORY "$<1:${CMAKE_BINARY_DIR}/lib>")
  target_include_directories(${t} INTERFACE
    "$<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include/${t}>"
    "${ASCENDC_HOST_INCLUDE_DIR}" "${ASCENDC_KERNEL_INCLUDE_DIR}")
  # users link only <t>: it carries the runtime
  target_link_libraries(${t} PUBLIC "${ASCENDC_RUNTIME_LIBRARY}" pthread ${CMAKE_DL_LIBS})
  if(_type STREQUAL "SHARED")
    target_link_options(${t} PRIVATE "LINKER:-Bsymbolic")
  endif()

  if(DEFINED CMAKE_INSTALL_LIBDIR AND NOT "${CMAKE_INSTALL_LIBDIR}" STREQUAL "")
    set(_libdir "${CMAKE_INSTALL_LIBDIR}")
  else()
    set(_libdir lib)
  endif()
  install(TARGETS ${t} ARCHIVE DESTINATION "${_libdir}" LIBRARY DESTINATION "${_libdir}")
  if(_hdrs)
    install(FILES ${_hdrs} DESTINATION "include/${t}")
  endif()
endfunction()

function(_simnpu_ascendc_helper_check caller t scope)
  if(NOT TARGET ${t}_interface)
    message(FATAL_ERROR "${caller}(${t} ...): call it after ascendc_library(${t} ...) or "
            "ascendc_fatbin_library(${t} ...).")
  endif()
  if(NOT scope MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    message(FATAL_ERROR "${caller}(${t} ${scope} ...): the scope must be PRIVATE, PUBLIC or INTERFACE.")
  endif()
endfunction()

# ascendc_compile_options(<t> <scope> <opts>... [-forward-options-to-host-compiler <opts>...])
# Options before the marker are for the device compiler: those that mean
# something to the host C++ compiler (-D -U -I -O -g -W -f -std= -include ...)
# apply to the kernel compile, the others (bisheng-only flags) are ignored.
# Options after the marker apply as they are (and to host_intf_pub).
function(ascendc_compile_options t scope)
  _simnpu_ascendc_helper_check(ascendc_compile_options ${t} "${scope}")
  set(_device)
  set(_host)
  set(_ignored)
  set(_to_host FALSE)
  set(_take_next FALSE)
  set(_skip_next FALSE)
  foreach(_o IN LISTS ARGN)
    if(_o STREQUAL "-forward-options-to-host-compiler")
      set(_to_host TRUE)
    elseif(_to_host)
      list(APPEND _host "${_o}")
    elseif(_take_next)
      list(APPEND _device "${_o}")
      set(_take_next FALSE)
    elseif(_skip_next)
      list(APPEND _ignored "${_o}")
      set(_skip_next FALSE)
    elseif(_o MATCHES "^-(include|imacros|isystem|iquote|idirafter)$")
      list(APPEND _device "${_o}")
      set(_take_next TRUE)
    elseif(_o MATCHES "^-fcce" OR _o MATCHES "^-fno-cce")
      list(APPEND _ignored "${_o}")
    elseif(_o MATCHES "^-([DUIOgWf]|std=|include|imacros|isystem|iquote|idirafter|pthread$|\\$<)")
      list(APPEND _device "${_o}")
    elseif(_o MATCHES "^-(mllvm|Xclang|x|arch|Xlinker)$")
      list(APPEND _ignored "${_o}")
      set(_skip_next TRUE)
    else()
      list(APPEND _ignored "${_o}")
    endif()
  endforeach()
  if(_ignored)
    message(STATUS "ascendc_compile_options(${t}): ignoring NPU compiler options with no meaning "
            "for the simnpu CPU model: ${_ignored}")
  endif()
  target_compile_options(${t}_interface INTERFACE ${_device} ${_host})
  if(_host AND TARGET host_intf_pub)
    target_compile_options(host_intf_pub INTERFACE ${_host})
  endif()
endfunction()

# ascendc_compile_definitions(<t> <scope> <defs>...)
function(ascendc_compile_definitions t scope)
  _simnpu_ascendc_helper_check(ascendc_compile_definitions ${t} "${scope}")
  set(_defs)
  foreach(_d IN LISTS ARGN)
    string(REGEX REPLACE "^-D" "" _d "${_d}")
    list(APPEND _defs "${_d}")
  endforeach()
  target_compile_definitions(${t}_interface INTERFACE ${_defs})
endfunction()

# ascendc_include_directories(<t> <scope> <dirs>...)
function(ascendc_include_directories t scope)
  _simnpu_ascendc_helper_check(ascendc_include_directories ${t} "${scope}")
  set(_dirs)
  foreach(_d IN LISTS ARGN)
    if(_d MATCHES "^\\$<")
      list(APPEND _dirs "${_d}")
    else()
      get_filename_component(_abs "${_d}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND _dirs "${_abs}")
    endif()
  endforeach()
  target_include_directories(${t}_interface INTERFACE ${_dirs})
endfunction()
