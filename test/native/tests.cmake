# cmocka unit tests: one executable per module under test.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED cmocka)

set(UNIT_TESTS test_options test_filepath test_traces test_profile test_writers test_names
    test_perf_ring)
foreach(t ${UNIT_TESTS})
  add_executable(${t} test/native/${t}.c)
  target_include_directories(${t} PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${t} PRIVATE profcore ${CMOCKA_LIBRARIES})
  add_test(NAME unit.${t} COMMAND ${t})
endforeach()
