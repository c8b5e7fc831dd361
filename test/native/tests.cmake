# cmocka unit tests: one executable per module under test.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED cmocka)

set(UNIT_TESTS test_options test_filepath test_traces test_profile test_writers test_names test_sample_cost
    test_out_html)
foreach(t ${UNIT_TESTS})
  add_executable(${t} test/native/${t}.c)
  target_include_directories(${t} PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${t} PRIVATE profcore ${CMOCKA_LIBRARIES})
  add_test(NAME unit.${t} COMMAND ${t})
endforeach()

# JNI libraries used by the integration tests: the same chain with and without frame pointers.
foreach(variant fp nofp)
  add_library(chain_${variant} SHARED test/native/jni/chain.c)
  target_include_directories(chain_${variant} PRIVATE ${JNI_INCLUDES})
  target_compile_options(chain_${variant} PRIVATE -fno-optimize-sibling-calls -fno-inline)
endforeach()
target_compile_options(chain_nofp PRIVATE -fomit-frame-pointer)
add_library(sigprof_app SHARED test/native/jni/sigprof_app.c)
target_include_directories(sigprof_app PRIVATE ${JNI_INCLUDES})
