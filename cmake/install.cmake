# cmake --install build [--prefix P] (DESTDIR honoured): the agent and the jar in lib/ (jprof looks for the
# agent in ../lib beside itself; the jar carries its own copy), jprof and jfrconv in bin/, the C API's header
# in include/, the licence, README and the user docs in LIBPROF_INSTALL_DOCDIR. ./build.sh dist installs the
# portable build this way with LIBPROF_INSTALL_DOCDIR=. (LICENSE and docs/ at the tarball's top).
set(LIBPROF_INSTALL_DOCDIR share/doc/libprof CACHE STRING "where cmake --install puts LICENSE, README.md and docs/")
install(TARGETS prof LIBRARY DESTINATION lib)
install(TARGETS jprof jfrconv RUNTIME DESTINATION bin)
install(FILES ${LIBPROF_JAR} DESTINATION lib)
install(FILES ${CMAKE_SOURCE_DIR}/agent/include/libprof.h DESTINATION include)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${LIBPROF_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${LIBPROF_INSTALL_DOCDIR}/docs PATTERN dev EXCLUDE)
