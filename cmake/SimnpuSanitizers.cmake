# Sanitizer presets: SIMNPU_SANITIZE=address,undefined or thread.
if(SIMNPU_SANITIZE)
  add_compile_options(-fsanitize=${SIMNPU_SANITIZE} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${SIMNPU_SANITIZE})
  if(SIMNPU_SANITIZE MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()
