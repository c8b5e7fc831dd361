# The writer on synthetic profiles (cmocka), every engine's sample type and units.
libprof_unit_test(test_out_otlp DIR test/otlp)

# The OpenTelemetry output (test/otlp/otlp_tests.sh): the agent's, jfrconv's and the Java API's, decoded by
# protoc and checked against the workload, as ctest it.<jdk>.otlp.<case> on every JDK in TEST_JDKS.
foreach(jdk ${TEST_JDKS})
  libprof_jdk_tag(tag ${jdk})
  foreach(case agent total jfrconv api)
    _libprof_add_test(it.${tag}.otlp.${case}
      COMMAND bash ${CMAKE_SOURCE_DIR}/test/otlp/otlp_tests.sh ${case} ${jdk} ${CMAKE_BINARY_DIR} ${TEST_CLASSES}
              ${API_TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${tag}/otlp/${case}
      PROPERTIES TIMEOUT 120)
  endforeach()
endforeach()
