/* The two marker functions of the begin=/end= tests: they do nothing; libwindow_loop calls them through its
 * import table around its hot loop. Preloaded (LD_PRELOAD), so they are there when profiling starts. */
__attribute__((noinline, visibility("default"))) void window_marker_begin(void) {
    __asm__ volatile("");
}

__attribute__((noinline, visibility("default"))) void window_marker_end(void) {
    __asm__ volatile("");
}
