/*
 * viewer_formats: what the viewer formats (pprof, OpenTelemetry, speedscope, Chrome .cpuprofile, Firefox Gecko) need of a
 * profile beyond names, so that its builders (the agent's dump, jfrconv) gather it only for them: source
 * files and lines, which split stacks by line (the text formats keep merging by name), and the recorded
 * time of each sample, which only the formats with a timeline write.
 */
#ifndef LIBPROF_VIEWER_FORMATS_H
#define LIBPROF_VIEWER_FORMATS_H

#include "options.h"

#include <stdbool.h>

static inline bool viewer_format_shows_source(prof_format f) {
    return f == FORMAT_PPROF || f == FORMAT_SPEEDSCOPE || f == FORMAT_CPUPROFILE || f == FORMAT_GECKO ||
           f == FORMAT_OTLP;
}

static inline bool viewer_format_has_timeline(prof_format f) {
    return f == FORMAT_CPUPROFILE || f == FORMAT_GECKO;
}

#endif
