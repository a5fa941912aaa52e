// A shared library without kbench's entry points, for the loader's refusal test.
extern "C" int not_a_kbench_plugin() { return 0; }
