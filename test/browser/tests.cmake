# Browser tests of the HTML outputs: headless chromium driven by playwright-core (installed by build.sh
# into test/browser/node_modules). They profile a real JVM and render synthetic profiles, then check the
# pages as a user would. Without chromium, node or playwright-core they fail, saying what is missing.

# Renders collapsed stacks in any output format (for the tests and bench/).
add_executable(render_profile test/browser/render_profile.c)
target_link_libraries(render_profile PRIVATE profcore)

set(BROWSER_CLASSES ${CMAKE_BINARY_DIR}/browser-classes)
add_custom_command(
  OUTPUT ${BROWSER_CLASSES}/FlameWorkload.class
  COMMAND ${JAVA_HOME}/bin/javac -d ${BROWSER_CLASSES} ${CMAKE_SOURCE_DIR}/test/browser/FlameWorkload.java
  DEPENDS ${CMAKE_SOURCE_DIR}/test/browser/FlameWorkload.java
  COMMENT "Compiling the browser tests' Java workload")
add_custom_target(browser_workload ALL DEPENDS ${BROWSER_CLASSES}/FlameWorkload.class)

libprof_browser_test(html ${CMAKE_SOURCE_DIR}/test/browser/html.test.js 240 ENVIRONMENT
  "LIBPROF_SO=$<TARGET_FILE:prof>;RENDER_PROFILE=$<TARGET_FILE:render_profile>;JAVA=${JAVA_HOME}/bin/java;BROWSER_CLASSES=${BROWSER_CLASSES};BROWSER_OUT=${CMAKE_BINARY_DIR}/browser-out")

# The viewer formats read by the viewers' own code: speedscope's importers (npm) in headless chromium and
# go tool pprof, checked against the collapsed stacks of the same samples.
libprof_browser_test(viewers ${CMAKE_SOURCE_DIR}/test/browser/viewers.test.js 300 ENVIRONMENT
  "LIBPROF_SO=$<TARGET_FILE:prof>;RENDER_PROFILE=$<TARGET_FILE:render_profile>;JFRCONV=$<TARGET_FILE:jfrconv>;JAVA=${JAVA_HOME}/bin/java;BROWSER_CLASSES=${BROWSER_CLASSES};BROWSER_OUT=${CMAKE_BINARY_DIR}/browser-out")

# jfrconv --diff's HTML page: two known profiles' page in chromium, frames, colours, tooltip.
libprof_browser_test(diff ${CMAKE_SOURCE_DIR}/test/browser/diff.test.js 120 ENVIRONMENT
  "JFRCONV=$<TARGET_FILE:jfrconv>;BROWSER_OUT=${CMAKE_BINARY_DIR}/browser-diff")

# Gecko profiles read by the Firefox Profiler's own loading code (npm @firefox-devtools/profiler-cli, under node).
libprof_browser_test(firefox ${CMAKE_SOURCE_DIR}/test/browser/firefox.test.js 180 ENVIRONMENT
  "LIBPROF_SO=$<TARGET_FILE:prof>;RENDER_PROFILE=$<TARGET_FILE:render_profile>;JFRCONV=$<TARGET_FILE:jfrconv>;JAVA=${JAVA_HOME}/bin/java;BROWSER_CLASSES=${BROWSER_CLASSES};BROWSER_OUT=${CMAKE_BINARY_DIR}/browser-firefox")

# The heatmap page (jfrconv -o heatmap) of a JVM with a burst at a known time.
add_custom_command(
  OUTPUT ${BROWSER_CLASSES}/HeatmapWorkload.class
  COMMAND ${JAVA_HOME}/bin/javac -d ${BROWSER_CLASSES} ${CMAKE_SOURCE_DIR}/test/browser/HeatmapWorkload.java
  DEPENDS ${CMAKE_SOURCE_DIR}/test/browser/HeatmapWorkload.java
  COMMENT "Compiling the heatmap test's Java workload")
add_custom_target(heatmap_workload ALL DEPENDS ${BROWSER_CLASSES}/HeatmapWorkload.class)
libprof_browser_test(heatmap ${CMAKE_SOURCE_DIR}/test/browser/heatmap.test.js 120 ENVIRONMENT
  "LIBPROF_SO=$<TARGET_FILE:prof>;JFRCONV=$<TARGET_FILE:jfrconv>;JAVA=${JAVA_HOME}/bin/java;BROWSER_CLASSES=${BROWSER_CLASSES};BROWSER_OUT=${CMAKE_BINARY_DIR}/browser-heatmap")
