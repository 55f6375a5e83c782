package broken

import "testing"

func TestF(t *testing.T) { F(1) }
