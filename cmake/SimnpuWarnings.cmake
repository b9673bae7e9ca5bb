# Warning flags for our own C++ code (not for user-facing kernel builds).
add_library(simnpu_warnings INTERFACE)
target_compile_options(simnpu_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter -Wnon-virtual-dtor -Wimplicit-fallthrough>
  $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
if(SIMNPU_WERROR)
  target_compile_options(simnpu_warnings INTERFACE -Werror)
endif()
