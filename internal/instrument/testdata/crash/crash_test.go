package crash

import "testing"

func TestOK(t *testing.T) {}

func TestPanic(t *testing.T) { Boom() }

func TestExit(t *testing.T) { Quit() }

func TestHang(t *testing.T) { Hang() }

func TestFatal(t *testing.T) { t.Fatal("fatal") }

func TestGoPanic(t *testing.T) { GoBoom() }
