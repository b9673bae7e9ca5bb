# simnpu ASC package: the INTERFACE target intf_pub with the devkit's common
# compile and link settings (the examples do not link it; custom operator
# projects do). Created once.
if(NOT TARGET intf_pub)
  add_library(intf_pub INTERFACE)
  target_compile_options(intf_pub INTERFACE
    -fPIC -fvisibility=hidden -fvisibility-inlines-hidden
    $<$<CONFIG:Debug>:-O0> $<$<CONFIG:Debug>:-g> $<$<NOT:$<CONFIG:Debug>>:-O2>
    -fstack-protector-strong)
  # a compile feature, set as a property: the C++ language is not enabled yet
  set_property(TARGET intf_pub PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_11)
  target_compile_definitions(intf_pub INTERFACE _GLIBCXX_USE_CXX11_ABI=0
    $<$<CONFIG:Release>:_FORTIFY_SOURCE=2>)
  target_include_directories(intf_pub INTERFACE "${ASCEND_CANN_PACKAGE_PATH}/include")
  target_link_directories(intf_pub INTERFACE "${ASCEND_CANN_PACKAGE_PATH}/lib64")
  target_link_options(intf_pub INTERFACE
    $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-pie>
    $<$<CONFIG:Release>:-s>
    -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)
endif()
