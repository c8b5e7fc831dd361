# attach tests (filled below)
