package reduce

import "runtime"

func runtimeGoexit() { runtime.Goexit() }
