# The walker's VM-structure work (VmFeaturesTest.java, VmFeatures.java): samples in intrinsic stubs keep their
# callers; features=vtable and comptask.
libprof_java_tests(vm_features VmFeaturesTest CASES intrinsic_stub vtable_receivers compile_task)
