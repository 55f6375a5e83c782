package mutate

// Middle returns the middle of three numbers; it returns y where it
// should return x (line 10).
func Middle(x, y, z int) int {
	if y < z {
		if x < y {
			return y
		} else if x < z {
			return y
		}
	} else {
		if x > y {
			return y
		} else if x > z {
			return x
		}
	}
	return z
}
