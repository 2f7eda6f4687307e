// A shared library without the module entry point (loading it must fail clearly).
extern "C" int something_else() { return 1; }
