package hazards

import (
	"strconv"
	"testing"
)

func TestConverted(t *testing.T) {
	check(t, "Converted", strconv.Itoa(Converted(7)), "7")
}
