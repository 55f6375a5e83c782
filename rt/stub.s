// This file lets the compiler accept the body-less declaration of
// getProfLabel (see labels.go), which the linker resolves.
