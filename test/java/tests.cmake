# Java workloads and the integration tests (added below once they exist).
